// The reminder queue: HANDOFF_REMINDERS, a JetStream work-queue stream private to this service.
// One message is one reminder of one deadline, held by the server (a delayed nak) until it is due,
// so nothing polls the database for reminders.
import { workQueue, type Bus } from '@handoff/bus';
import { REMINDERS_STREAM } from '@handoff/contracts';
import type { ConsumerInfo } from '@nats-io/jetstream';
import { z } from 'zod';

export const REMINDER_CONSUMER = 'notifications-reminders';

/**
 * Long enough that the events of one object arriving again (a redelivery, a progress update with
 * the same deadline) queue its reminder once; a later duplicate is caught by the mail log.
 */
const DUPLICATE_WINDOW_MS = 60 * 60 * 1000;
/** How long a replica that died holding a reminder keeps it from the others. */
export const REMINDER_ACK_WAIT_MS = 60_000;

export const ReminderJob = z.object({
  object_id: z.string().min(1),
  resource: z.enum(['milestone', 'dispute']),
  request_id: z.string().min(1),
  status: z.string(),
  /** Unix milliseconds: the deadline it reminds of. */
  deadline_at: z.number().int(),
  /** Unix milliseconds before which it is not sent. */
  due_at: z.number().int(),
  /** The event that set the deadline (the mail's X-Handoff-Event). */
  event_id: z.string().min(1),
});
export type ReminderJob = z.infer<typeof ReminderJob>;

export function reminderQueue(bus: Bus, replicas: number) {
  const queue = workQueue(
    bus,
    { ...REMINDERS_STREAM, duplicateWindowMs: DUPLICATE_WINDOW_MS },
    replicas,
  );
  return {
    ensure: queue.ensure,
    /** Queues a reminder; the same deadline of the same object in the same state is queued once. */
    publish: (job: ReminderJob): Promise<void> =>
      queue.publish(
        `handoff.reminders.${job.object_id}`,
        job,
        `${job.object_id}@${job.deadline_at}@${job.status}`,
      ),
    /** The one durable consumer, shared by every replica. */
    ensureConsumer: (): Promise<ConsumerInfo> =>
      queue.ensureConsumer(REMINDER_CONSUMER, REMINDER_ACK_WAIT_MS),
  };
}
export type ReminderQueue = ReturnType<typeof reminderQueue>;
