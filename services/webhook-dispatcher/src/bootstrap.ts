import { implement, type Bus } from '@handoff/bus';
import { WEBHOOK_DEFAULTS, webhookOps } from '@handoff/contracts';
import type { Logger } from '@handoff/observability';
import type { Store } from '@handoff/store';
import { auditEndpoints, packageVersion, runService } from '@handoff/runtime';
import type { BootstrapOptions } from '@handoff/runtime';
import { endpointDirectory, type EndpointDirectory } from './store/endpoint-directory.ts';
import { endpointEndpoints } from './handlers/endpoints.ts';
import { readEnv } from './env.ts';
import { EVENT_CONCURRENCY, startEventFanOut } from './handlers/events.consumer.ts';
import { feedEndpoints, pruneEvents } from './handlers/events.ts';
import { secretBox } from './domain/secrets.ts';
import { collections } from './store/collections.ts';
import { deliveryQueue } from './store/delivery-queue.ts';
import { pruneAllDueDeliveries, pruneDeliveries } from './store/deliveries.ts';
import { deliveryMaker } from './handlers/fanout.ts';
import { startWorker } from './handlers/deliveries.consumer.ts';
import { testDataEndpoints } from './handlers/test-data.ts';
import { countFromZero } from './delivery/metrics.ts';

export const VERSION = packageVersion(import.meta.url);

const HOUR_MS = 60 * 60 * 1000;
const PRUNE_EVERY_MS = 10 * 60 * 1000;
/** Expiry buckets looked at by each periodic run: a few missed runs are caught up. */
const PRUNE_LOOKBACK_HOURS = 3;
const PRUNE_FIRST_MS = 60 * 1000;

export async function bootstrap(options: BootstrapOptions = {}) {
  const env = readEnv(options.env);
  countFromZero();
  const secrets = secretBox(env.WEBHOOK_SECRETS_KEY);
  // One per process, shared by the API, the fan-out and the worker.
  let directory: EndpointDirectory | undefined;
  const directoryOf = (store: Store, bus: Bus, logger: Logger) =>
    (directory ??= endpointDirectory(store, bus, logger));
  return runService({
    name: 'webhook-dispatcher',
    version: VERSION,
    description: 'Signed webhook deliveries of domain events, with durable retries.',
    env,
    collections,
    endpoints: ({ store, bus, logger }) => {
      const endpoints = directoryOf(store, bus, logger);
      const deliveries = deliveryMaker(endpoints, deliveryQueue(bus, env.NATS_STREAM_REPLICAS));
      return {
        ...endpointEndpoints({
          store,
          directory: endpoints,
          secrets,
          allowPrivate: env.WEBHOOK_ALLOW_PRIVATE_TARGETS,
          maxEndpoints: env.WEBHOOK_MAX_ENDPOINTS,
        }),
        ...feedEndpoints({ store, redeliver: deliveries.redeliver }),
        ...auditEndpoints('webhook-dispatcher', store),
        ...testDataEndpoints({ store, directory: endpoints }),
        // What the gateway's capabilities report: the settings this dispatcher really runs with.
        ...implement(webhookOps.settings, () =>
          Promise.resolve({
            retry_schedule_seconds: env.WEBHOOK_RETRY_SCHEDULE,
            max_attempts: env.WEBHOOK_RETRY_SCHEDULE.length + 1,
            timeout_ms: env.WEBHOOK_TIMEOUT_MS,
            disable_after_seconds: env.WEBHOOK_DISABLE_AFTER_S,
            event_retention_days: WEBHOOK_DEFAULTS.eventRetentionDays,
            max_endpoints_per_integration: env.WEBHOOK_MAX_ENDPOINTS,
            deliveries_paused: env.WEBHOOK_DELIVERIES_PAUSED,
          }),
        ),
      };
    },
    background: async ({ bus, store, logger }) => {
      const endpoints = directoryOf(store, bus, logger);
      const stopListening = endpoints.listen();
      const queue = deliveryQueue(bus, env.NATS_STREAM_REPLICAS);
      await queue.ensure();
      // Paused, no job is taken: they all wait in the stream, due, until the switch is off.
      const worker = env.WEBHOOK_DELIVERIES_PAUSED
        ? undefined
        : await startWorker({
            bus,
            directory: endpoints,
            queue,
            store,
            logger,
            secrets,
            schedule: env.WEBHOOK_RETRY_SCHEDULE,
            timeoutMs: env.WEBHOOK_TIMEOUT_MS,
            allowPrivate: env.WEBHOOK_ALLOW_PRIVATE_TARGETS,
            concurrency: env.WEBHOOK_CONCURRENCY,
            endpointConcurrency: env.WEBHOOK_ENDPOINT_CONCURRENCY,
            endpointConcurrencyMax: env.WEBHOOK_ENDPOINT_CONCURRENCY_MAX,
            disableAfterSeconds: env.WEBHOOK_DISABLE_AFTER_S,
            responseBodyLimit: WEBHOOK_DEFAULTS.responseBodyLimit,
            // Half the event consumer's handlers: endpoints that stop answering never hold them all.
            maxOffered: EVENT_CONCURRENCY / 2,
          });
      if (!worker) logger.warn('webhook deliveries are paused (WEBHOOK_DELIVERIES_PAUSED)');
      // First attempts go straight from the event to the worker when this replica has room.
      const deliveries = deliveryMaker(endpoints, queue, worker?.offer);
      const stopConsumer = await startEventFanOut({
        bus,
        store,
        logger,
        fanOut: deliveries.fanOut,
      });
      let pruning: Promise<unknown> = Promise.resolve();
      const prune = (what: () => Promise<unknown>) => {
        pruning = pruning
          .then(what)
          .catch((error: unknown) => logger.warn({ err: error }, 'pruning failed'));
      };
      // The first run, a while after the start (not while replicas start together), catches up
      // on whatever a stopped service missed; later runs look at the last few buckets only.
      const catchUp = setTimeout(
        () => prune(() => Promise.all([pruneEvents(store), pruneAllDueDeliveries(store)])),
        PRUNE_FIRST_MS,
      );
      catchUp.unref();
      const deliveryPruner = setInterval(
        () => prune(() => pruneDeliveries(store, PRUNE_LOOKBACK_HOURS)),
        PRUNE_EVERY_MS,
      );
      deliveryPruner.unref();
      const eventPruner = setInterval(() => prune(() => pruneEvents(store)), HOUR_MS);
      eventPruner.unref();
      return async () => {
        clearTimeout(catchUp);
        clearInterval(deliveryPruner);
        clearInterval(eventPruner);
        await pruning;
        await stopConsumer();
        await worker?.stop();
        stopListening();
      };
    },
    logger: options.logger,
  });
}
