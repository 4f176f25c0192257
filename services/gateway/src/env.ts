// The schema is in @handoff/config, where the dev stack and the deploy checks read it too.
import { loadEnv } from '@handoff/config';
import { gatewayEnv, type GatewayEnv } from '@handoff/config/services/gateway';

export type Env = GatewayEnv;

export const readEnv = (source?: Record<string, string | undefined>): Env =>
  loadEnv('gateway', gatewayEnv, source);
