// Deadline reminders: kept from the milestone and dispute events, queued on HANDOFF_REMINDERS
// (held by the server until due), and sent by the durable consumer `notifications-reminders` only
// when the object still waits on the provider by the same deadline.
import { retryDelayMs, type Bus } from '@handoff/bus';
import { REMINDERS_STREAM } from '@handoff/contracts';
import type { Logger } from '@handoff/observability';
import type { Store } from '@handoff/store';
import type { JsMsg } from '@nats-io/jetstream';
import { reminderDueAt, remindable, type DeadlineState } from '../domain/deadlines.ts';
import { reminderMail } from '../domain/mails.ts';
import { deadlineStates } from '../store/deadlines.ts';
import {
  REMINDER_ACK_WAIT_MS,
  REMINDER_CONSUMER,
  ReminderJob,
  reminderQueue,
} from '../store/reminder-queue.ts';
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
/** How often a reminder at work is reported in progress (well within the ack wait). */
const PROGRESS_MS = REMINDER_ACK_WAIT_MS / 4;

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

  const running = new Set<Promise<void>>();
  const settle = async (msg: JsMsg, job: ReminderJob) => {
    const progress = setInterval(() => {
      try {
        msg.working();
      } catch {
        // Closing: unacknowledged, it comes round again.
      }
    }, PROGRESS_MS);
    try {
      const mails = await remind(job);
      msg.ack();
      logger.debug({ object_id: job.object_id, event_id: job.event_id, mails }, 'reminder handled');
    } catch (error) {
      const delayMs = retryDelayMs(msg.info.deliveryCount);
      logger.warn(
        { err: error, object_id: job.object_id, retry_in_ms: delayMs },
        'reminder not sent; will retry',
      );
      try {
        msg.nak(delayMs);
      } catch {
        // Closing: it comes round after its ack wait.
      }
    } finally {
      clearInterval(progress);
    }
  };

  const consumer = await bus.js.consumers.get(REMINDERS_STREAM.name, REMINDER_CONSUMER);
  const messages = await consumer.consume({ max_messages: REMINDER_CONCURRENCY * 4 });
  const loop = (async () => {
    for await (const msg of messages) {
      let raw: unknown;
      try {
        raw = msg.json();
      } catch {
        raw = undefined;
      }
      const parsed = ReminderJob.safeParse(raw);
      if (!parsed.success) {
        // Only this service queues here: a job it cannot read would never get better.
        logger.error({ seq: msg.seq }, 'unreadable reminder dropped');
        msg.term('unreadable reminder');
        continue;
      }
      const wait = parsed.data.due_at - Date.now();
      if (wait > 0) {
        msg.nak(wait);
        continue;
      }
      const task = settle(msg, parsed.data);
      running.add(task);
      void task.finally(() => running.delete(task));
      if (running.size >= REMINDER_CONCURRENCY) await Promise.race(running);
    }
  })();
  return async () => {
    await messages.close();
    await loop.catch((error: unknown) => logger.warn({ err: error }, 'reminder consumer ended'));
    await Promise.allSettled([...running]);
  };
}
