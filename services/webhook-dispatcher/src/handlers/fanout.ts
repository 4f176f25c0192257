import { activeTraceHeaders } from '@handoff/observability';
import type { DeliveryJob, DeliveryQueue } from '../store/delivery-queue.ts';
import type { EndpointDirectory } from '../store/endpoint-directory.ts';
import type { EventDoc } from '../store/events.ts';

/**
 * Takes a first attempt without the queue when it can (the worker's `offer`): resolves true once
 * it is recorded, false when it was not taken (the job is then queued).
 */
export type OfferAttempt = (job: DeliveryJob) => Promise<boolean>;

/**
 * Makes one delivery per enabled endpoint of the event's integration that subscribes to its type
 * and existed when it happened. Delivery ids derive from endpoint and event and the queue drops a
 * job published again inside its duplicate window, so doing this again (a redelivered bus
 * message) queues nothing twice. A first fan-out may hand each first attempt to `offer`, which
 * sends it from this replica right away when it has room; the others are queued, all at once. It
 * resolves when every offered attempt is recorded and the stream has stored every queued job.
 * While traces are recorded, each job keeps the trace context it was made in (the event's
 * handling, or a staff redelivery's call), which its attempts' spans are children of.
 */
export function deliveryMaker(
  directory: EndpointDirectory,
  queue: DeliveryQueue,
  offer?: OfferAttempt,
) {
  const endpointsFor = (event: EventDoc, since?: Date) => directory.subscribed(event, since);
  const make = async (
    endpoints: { _id: string }[],
    event: EventDoc,
    suffix: string,
    take: OfferAttempt | undefined,
    again = false,
  ) => {
    const madeAt = Date.now();
    const traceparent = activeTraceHeaders()?.traceparent;
    await Promise.all(
      endpoints.map(async (endpoint) => {
        const job: DeliveryJob = {
          delivery_id: `${endpoint._id}.${event._id}${suffix}`,
          endpoint_id: endpoint._id,
          event: { id: event._id, type: event.type, body: event.body },
          attempt: 1,
          not_before: 0,
          made_at: madeAt,
          ...(again ? { again: true as const } : {}),
          ...(traceparent ? { traceparent } : {}),
        };
        if (take && (await take(job))) return;
        await queue.publish(job);
      }),
    );
    return endpoints.length;
  };
  return {
    /**
     * `again`: the event was handled before (a redelivered bus message). Its jobs are then all
     * queued, never offered, so that one the first try queued is not also sent from here.
     */
    async fanOut(event: EventDoc, again = false): Promise<number> {
      const endpoints = await endpointsFor(event, event.created_at);
      return again
        ? make(endpoints, event, '', undefined, true)
        : make(endpoints, event, '', offer);
    },
    async redeliver(event: EventDoc): Promise<number> {
      return make(await endpointsFor(event), event, `.r${Date.now().toString(36)}`, undefined);
    },
  };
}
