import type { Bus } from '@handoff/bus';
import { ALL_EVENT_TYPES, REQUEST_VIEWS, subjects } from '@handoff/contracts';
import type { Logger } from '@handoff/observability';
import { startEventConsumer } from '@handoff/runtime';
import { setTimeout as sleep } from 'node:timers/promises';
import { createRequestViews, type RequestViews } from './store.ts';

/**
 * The read model of this replica: its views, kept current by the projector (stopped by `stop`).
 */
export async function startRequestViews(
  bus: Bus,
  options: Parameters<typeof createRequestViews>[1],
): Promise<RequestViews & { stop(): Promise<void> }> {
  const views = await createRequestViews(bus.js, options);
  return { ...views, stop: startViewsProjector(bus, views, options.logger) };
}

/** The durable consumer every gateway replica shares: each event is applied by one of them. */
export const VIEWS_CONSUMER = REQUEST_VIEWS.consumer;

/** Events applied at once; one request's events still go one at a time (RequestViews.apply). */
const CONCURRENCY = 32;
const RETRY_MS = 1_000;

/**
 * Keeps the read model current: every event of a request that has a view goes into it. A
 * request's first event is not taken: the gateway that created the request wrote its view from
 * the create's answer, which is what `request.created` carries.
 *
 * Started in the background: the events stream is created by the services, which may come up
 * after the gateway; until it runs, reads find views behind and take the services' path.
 */
export function startViewsProjector(
  bus: Bus,
  views: RequestViews,
  logger: Logger,
): () => Promise<void> {
  let stopped = false;
  let stop: (() => Promise<void>) | undefined;
  const started = (async () => {
    while (!stopped) {
      try {
        stop = await startEventConsumer({
          bus,
          logger,
          name: VIEWS_CONSUMER,
          subjects: ALL_EVENT_TYPES.filter((type) => type !== 'request.created').map(
            subjects.event,
          ),
          concurrency: CONCURRENCY,
          // A view that cannot be written is only slower to read: a few quick tries, then the
          // next read rebuilds it.
          backoffS: [1, 5, 30],
          maxDeliver: 4,
          handle: (event) => views.apply(event),
        });
        if (stopped) await stop();
        return;
      } catch (error) {
        logger.warn({ err: error }, 'the read model waits for the events stream');
        await sleep(RETRY_MS);
      }
    }
  })();
  return async () => {
    stopped = true;
    await started;
    await stop?.();
  };
}
