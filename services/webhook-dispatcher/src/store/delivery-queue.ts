// The delivery queue: a JetStream work-queue stream private to this service. One message is one
// delivery of one event to one endpoint, carrying what its next attempt needs (the body to sign,
// the attempt number, when it is due), so that sending needs no database read but the endpoint.
import { ensureConsumer, workQueue, workQueueConsumer, type Bus } from '@handoff/bus';
import { EventType } from '@handoff/contracts';
import type { ConsumerInfo, JetStreamManager } from '@nats-io/jetstream';
import { z } from 'zod';

export const DELIVERIES_STREAM = {
  name: 'HANDOFF_DELIVERIES',
  subjects: ['handoff.deliveries.>'],
  /**
   * Longer than the events consumer's backoff before it gives up on an event, so that making an
   * event's deliveries again (a redelivered event) never queues one twice.
   */
  duplicateWindowMs: 15 * 60 * 1000,
} as const;

export const DELIVERY_CONSUMER = 'webhook-deliveries';

export const deliverySubject = (endpointId: string) => `handoff.deliveries.${endpointId}`;

export const DeliveryJob = z.object({
  /** `<endpoint id>.<event id>` (plus `.r<base36 time>` for a redelivery). */
  delivery_id: z.string().min(1),
  endpoint_id: z.string().min(1),
  event: z.object({ id: z.string().min(1), type: EventType, body: z.string() }),
  /** The number of the attempt this message is for, from 1. */
  attempt: z.number().int().positive(),
  /** Unix milliseconds before which the attempt must not be made (0: at once). */
  not_before: z.number().int().nonnegative(),
  /** Unix milliseconds when the delivery was made (its first job queued); kept by retries. */
  made_at: z.number().int().nonnegative(),
  /**
   * Queued by an event handled before (a redelivered bus message), whose first try may have
   * attempted this delivery already and left its record.
   */
  again: z.literal(true).optional(),
  /**
   * The W3C `traceparent` of what made the delivery (the handling of its event, in the trace of
   * the call that caused the event), kept by every retry: each attempt's span is a child of it.
   * Only while traces are recorded.
   */
  traceparent: z.string().min(1).max(256).optional(),
});
export type DeliveryJob = z.infer<typeof DeliveryJob>;

/**
 * Publishes delivery jobs. Every job of one attempt has the same `Nats-Msg-Id`, so a job published
 * again inside the stream's duplicate window (an event handled twice, a retry scheduled by a
 * replica killed before it acknowledged) is stored once.
 */
export function deliveryQueue(bus: Bus, replicas: number) {
  const queue = workQueue(bus, DELIVERIES_STREAM, replicas);
  return {
    ensure: queue.ensure,
    publish: (job: DeliveryJob): Promise<void> =>
      queue.publish(deliverySubject(job.endpoint_id), job, `${job.delivery_id}#${job.attempt}`),
  };
}
export type DeliveryQueue = ReturnType<typeof deliveryQueue>;

/**
 * The one durable pull consumer of the queue, shared by every replica. The ack wait is how long a
 * replica that died holding a job keeps it from the others; a live one extends it while it works.
 */
export function ensureDeliveryConsumer(
  jsm: JetStreamManager,
  ackWaitMs: number,
): Promise<ConsumerInfo> {
  return ensureConsumer(
    jsm,
    DELIVERIES_STREAM.name,
    workQueueConsumer(DELIVERY_CONSUMER, ackWaitMs),
  );
}
