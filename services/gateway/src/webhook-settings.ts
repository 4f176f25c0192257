import { call } from '@handoff/bus';
import { webhookOps, type WebhookSettings } from '@handoff/contracts';
import type { Logger } from '@handoff/observability';
import type { NatsConnection } from '@nats-io/transport-node';

/** Asked again this often while the dispatcher has not answered yet. */
const UNTIL_FIRST_ANSWER_MS = 2_000;
/** Asked again this often after, so a redeployed dispatcher's settings show within a minute. */
const REFRESH_MS = 60_000;

export interface WebhookSettingsWatch {
  /** The settings as the dispatcher last reported them; undefined until it has answered. */
  current(): WebhookSettings | undefined;
  stop(): void;
}

/**
 * Keeps the webhook dispatcher's delivery settings (its `WEBHOOK_*` environment) for
 * `GET /v1/capabilities`. The gateway and the dispatcher run as separate processes, so the
 * gateway asks it over the bus (`webhook-dispatcher.settings.get`) at start and every minute,
 * instead of repeating its settings in the gateway's own environment where they could drift.
 */
export function watchWebhookSettings(options: {
  nc: NatsConnection;
  logger: Logger;
  busTimeoutMs: number;
}): WebhookSettingsWatch {
  let settings: WebhookSettings | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const ask = async () => {
    try {
      const answer = await call(
        options.nc,
        webhookOps.settings,
        {},
        {
          timeoutMs: options.busTimeoutMs,
        },
      );
      // Same content keeps the same object, so the capabilities answer (and ETag) stay put.
      if (JSON.stringify(answer) !== JSON.stringify(settings)) settings = answer;
    } catch (error) {
      options.logger.debug({ err: error }, 'webhook dispatcher settings not available yet');
    }
    if (stopped) return;
    timer = setTimeout(() => void ask(), settings ? REFRESH_MS : UNTIL_FIRST_ANSWER_MS);
    timer.unref();
  };
  void ask();
  return {
    current: () => settings,
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
