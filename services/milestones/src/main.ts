import { runMain } from '@handoff/runtime';
import { bootstrap, VERSION } from './bootstrap.ts';

await runMain('milestones', VERSION, () => bootstrap());
