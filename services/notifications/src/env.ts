// The schema is in @handoff/config, where the dev stack and the deploy checks read it too.
import { loadEnv } from '@handoff/config';
import { notificationsEnv, type NotificationsEnv } from '@handoff/config/services/notifications';

export type Env = NotificationsEnv;

export const readEnv = (source?: Record<string, string | undefined>): Env =>
  loadEnv('notifications', notificationsEnv, source);
