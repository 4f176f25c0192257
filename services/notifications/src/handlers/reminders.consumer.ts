// Deadline reminders: kept from the milestone and dispute events, queued on HANDOFF_REMINDERS
// (held by the server until due), and sent by the durable consumer `notifications-reminders` only
// when the object still waits on the provider by the same deadline.
import { consumeDurable, messageBody, type Bus } from '@handoff/bus';
import { REMINDERS_STREAM } from '@handoff/contracts';
import type { Logger } from '@handoff/observability';
import type { Store } from '@handoff/store';
import type { JsMsg } from '@nats-io/jetstream';
import { reminderDueAt, remindable, type DeadlineState } from '../domain/deadlines.ts';
import { reminderMail } from '../domain/mails.ts';
import { deadlineStates } from '../store/deadlines.ts';
import { REMINDER_CONSUMER, ReminderJob, reminderQueue } from '../store/reminder-queue.ts';
import { requestOf } from './lookups.ts';
import type { Postman } from './mail.ts';

export interface RemindersDeps {
  bus: Bus;
  store: Store;
  logger: Logger;
  replicas: number;
  /** REMINDER_BEFORE_MS. */
  beforeMs: number;
}

export function reminders(deps: RemindersDeps) {
  const states = deadlineStates(deps.store);
  const queue = reminderQueue(deps.bus, deps.replicas);
  return {
    queue,
    states,
    /**
     * Keeps an object's state from its event and, when it now waits on the provider by a
     * deadline still ahead, queues the reminder (once per object, deadline and state).
     */
    async track(state: DeadlineState): Promise<void> {
      if (!(await states.keep(state)) || !remindable(state) || !state.deadlineAt) return;
      const now = new Date();
      if (state.deadlineAt.getTime() <= now.getTime()) return;
      await queue.publish({
        object_id: state.objectId,
        resource: state.resource,
        request_id: state.requestId,
        status: state.status,
        deadline_at: state.deadlineAt.getTime(),
        due_at: reminderDueAt(state.deadlineAt, deps.beforeMs, now),
        event_id: state.eventId,
      });
    },
  };
}
export type Reminders = ReturnType<typeof reminders>;

/** Reminders sent at once per replica. */
const REMINDER_CONCURRENCY = 8;

/**
 * The consumer of the reminder queue. A reminder not yet due goes back to the server with a
 * delayed nak that ends when it is due; a due one is sent when its object is still in the state
 * and deadline it was queued for (by the latest event kept of it), the deadline is still ahead,
 * and the provider is active with reminders on; then acknowledged (and so gone from the queue).
 */
export async function startReminderConsumer(deps: {
  bus: Bus;
  logger: Logger;
  postman: Postman;
  reminders: Reminders;
}): Promise<() => Promise<void>> {
  const { bus, logger, postman } = deps;
  const { queue, states } = deps.reminders;
  await queue.ensure();
  await queue.ensureConsumer();

  const remind = async (job: ReminderJob): Promise<string[]> => {
    const state = await states.find(job.object_id);
    const moved =
      !state ||
      !state.providerId ||
      state.status !== job.status ||
      state.deadlineAt?.getTime() !== job.deadline_at;
    if (moved || !state.providerId) return ['moved_on'];
    if (job.deadline_at <= Date.now()) return ['too_late'];
    const request = await requestOf(bus, job.request_id);
    if (!request) return ['skipped'];
    return postman.sendAll(
      [
        {
          kind: 'deadline_reminder',
          audience: { to: 'provider', providerId: state.providerId },
          about: `reminder:${job.object_id}:${job.deadline_at}`,
          content: reminderMail(
            {
              resource: job.resource,
              status: job.status,
              deadlineAt: new Date(job.deadline_at),
              title: state.title,
            },
            request,
          ),
        },
      ],
      job.event_id,
    );
  };

  // A failure that may pass is tried again with the bus's retry policy for as long as it takes
  // (the queue's consumer has no max_deliver); a refusal on the merits is given up, as is a job
  // that cannot be read (only this service queues here: it would never get better).
  const reminderJobOf = (msg: JsMsg) => messageBody(msg, ReminderJob, 'a reminder job');
  return consumeDurable(bus.js, {
    stream: REMINDERS_STREAM.name,
    consumer: REMINDER_CONSUMER,
    concurrency: REMINDER_CONCURRENCY,
    buffered: REMINDER_CONCURRENCY * 4,
    logger,
    dueInMs: (msg) => reminderJobOf(msg).due_at - Date.now(),
    async handle(msg) {
      const job = reminderJobOf(msg);
      const mails = await remind(job);
      logger.debug({ object_id: job.object_id, event_id: job.event_id, mails }, 'reminder handled');
    },
  });
}
