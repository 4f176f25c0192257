// The lapse queue: HANDOFF_ROUTING, a work-queue stream private to intake. One message is one
// offer's response window, held by the server (a delayed nak) until it ends, so nothing polls
// requests for offers that ran out.
import { workQueue, type Bus } from '@handoff/bus';
import { ROUTING_STREAM } from '@handoff/contracts';
import type { ConsumerInfo } from '@nats-io/jetstream';
import { z } from 'zod';

export const LAPSE_CONSUMER = 'intake-routing-lapses';

/** Long enough that the events of one offer arriving again queue its lapse once. */
const DUPLICATE_WINDOW_MS = 60 * 60 * 1000;
/** How long a replica that died holding a lapse keeps it from the others. */
const LAPSE_ACK_WAIT_MS = 30_000;

export const LapseJob = z.object({
  request_id: z.string().min(1),
  offer_id: z.string().min(1),
  /** Unix milliseconds: the end of the offer's response window. */
  due_at: z.number().int(),
});
export type LapseJob = z.infer<typeof LapseJob>;

export function lapseQueue(bus: Bus, replicas: number) {
  const queue = workQueue(
    bus,
    { ...ROUTING_STREAM, duplicateWindowMs: DUPLICATE_WINDOW_MS },
    replicas,
  );
  return {
    ensure: queue.ensure,
    /** Queues the end of an offer's window, once per offer. */
    publish: (job: LapseJob): Promise<void> =>
      queue.publish(`handoff.routing.lapse.${job.request_id}`, job, `lapse:${job.offer_id}`),
    ensureConsumer: (): Promise<ConsumerInfo> =>
      queue.ensureConsumer(LAPSE_CONSUMER, LAPSE_ACK_WAIT_MS),
  };
}
export type LapseQueue = ReturnType<typeof lapseQueue>;
