// The schema is in @handoff/config, where the dev stack and the deploy checks read it too.
import { loadEnv } from '@handoff/config';
import { intakeEnv, type IntakeEnv } from '@handoff/config/services/intake';

export type Env = IntakeEnv;

export const readEnv = (source?: Record<string, string | undefined>): Env =>
  loadEnv('intake', intakeEnv, source);
