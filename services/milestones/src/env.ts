// The schema is in @handoff/config, where the dev stack and the deploy checks read it too.
import { loadEnv } from '@handoff/config';
import { milestonesEnv, type MilestonesEnv } from '@handoff/config/services/milestones';

export type Env = MilestonesEnv;

export const readEnv = (source?: Record<string, string | undefined>): Env =>
  loadEnv('milestones', milestonesEnv, source);
