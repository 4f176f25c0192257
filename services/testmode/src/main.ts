import { runMain } from '@handoff/runtime';
import { bootstrap, VERSION } from './bootstrap.ts';

await runMain('testmode', VERSION, () => bootstrap());
