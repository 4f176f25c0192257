import { WEBHOOK_DEFAULTS } from '@handoff/contracts';
import type { Logger } from '@handoff/observability';
import { packageVersion, runService } from '@handoff/runtime';
import { endpointEndpoints } from './endpoints/handlers.ts';
import { readEnv } from './env.ts';
import { startEventConsumer } from './events/consumer.ts';
import { feedEndpoints, pruneEvents } from './events/handlers.ts';
import { secretBox } from './secrets.ts';
import { collections } from './store/collections.ts';
import { deliveryMaker } from './worker/fanout.ts';
import { startWorker } from './worker/worker.ts';

export const VERSION = packageVersion(import.meta.url);

export interface BootstrapOptions {
  env?: Record<string, string | undefined>;
  logger?: Logger;
}

const HOUR_MS = 60 * 60 * 1000;

export async function bootstrap(options: BootstrapOptions = {}) {
  const env = readEnv(options.env);
  const secrets = secretBox(env.WEBHOOK_SECRETS_KEY);
  // The worker starts after the endpoints; events that arrive before it only wait for its first poll.
  let wakeWorker = () => {};
  return runService({
    name: 'webhook-dispatcher',
    version: VERSION,
    description: 'Signed webhook deliveries of domain events, with durable retries.',
    env,
    collections,
    endpoints: ({ store }) => {
      const deliveries = deliveryMaker(store, () => wakeWorker());
      return {
        ...endpointEndpoints({
          store,
          secrets,
          allowPrivate: env.WEBHOOK_ALLOW_PRIVATE_TARGETS,
          maxEndpoints: env.WEBHOOK_MAX_ENDPOINTS,
        }),
        ...feedEndpoints({ store, redeliver: deliveries.redeliver }),
      };
    },
    background: async ({ bus, store, logger }) => {
      const worker = startWorker({
        store,
        logger,
        secrets,
        schedule: env.WEBHOOK_RETRY_SCHEDULE,
        timeoutMs: env.WEBHOOK_TIMEOUT_MS,
        allowPrivate: env.WEBHOOK_ALLOW_PRIVATE_TARGETS,
        concurrency: env.WEBHOOK_CONCURRENCY,
        endpointConcurrency: env.WEBHOOK_ENDPOINT_CONCURRENCY,
        disableAfterSeconds: env.WEBHOOK_DISABLE_AFTER_S,
        pollMs: env.WEBHOOK_POLL_MS,
        paused: env.WEBHOOK_DELIVERIES_PAUSED,
        responseBodyLimit: WEBHOOK_DEFAULTS.responseBodyLimit,
      });
      wakeWorker = worker.wake;
      const deliveries = deliveryMaker(store, worker.wake);
      const stopConsumer = await startEventConsumer({
        bus,
        store,
        logger,
        fanOut: deliveries.fanOut,
      });
      const pruner = setInterval(() => {
        pruneEvents(store).catch((error: unknown) =>
          logger.warn({ err: error }, 'event pruning failed'),
        );
      }, HOUR_MS);
      pruner.unref();
      return async () => {
        clearInterval(pruner);
        await stopConsumer();
        await worker.stop();
      };
    },
    ...(options.logger ? { logger: options.logger } : {}),
  });
}
