// The schema is in @handoff/config, where the dev stack and the deploy checks read it too.
import { loadEnv } from '@handoff/config';
import {
  webhookDispatcherEnv,
  type WebhookDispatcherEnv,
} from '@handoff/config/services/webhook-dispatcher';

export type Env = WebhookDispatcherEnv;

export const readEnv = (source?: Record<string, string | undefined>): Env =>
  loadEnv('webhook-dispatcher', webhookDispatcherEnv, source);
