// The schema is in @handoff/config, where the dev stack and the deploy checks read it too.
import { loadEnv } from '@handoff/config';
import { paymentsEnv, type PaymentsEnv } from '@handoff/config/services/payments';

export type Env = PaymentsEnv;

export const readEnv = (source?: Record<string, string | undefined>): Env =>
  loadEnv('payments', paymentsEnv, source);
