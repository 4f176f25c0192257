// The schema is in @handoff/config, where the dev stack and the deploy checks read it too.
import { loadEnv } from '@handoff/config';
import { testmodeEnv, type TestmodeEnv } from '@handoff/config/services/testmode';

export type Env = TestmodeEnv;

export const readEnv = (source?: Record<string, string | undefined>): Env =>
  loadEnv('testmode', testmodeEnv, source);
