// The durable consumer `notifications` of HANDOFF_EVENTS: each event gives its mails, counts a
// message unread, and keeps the deadlines its reminders are checked against.
import type { Bus } from '@handoff/bus';
import type { EventEnvelope } from '@handoff/contracts';
import type { Logger } from '@handoff/observability';
import { heldRequests, startEventConsumer } from '@handoff/runtime';
import type { JsMsg } from '@nats-io/jetstream';
import { deadlineStateOf } from '../domain/deadlines.ts';
import { mailsFor, mayMail, requestOfEvent } from '../domain/mails.ts';
import { requestOf, withOffers } from './lookups.ts';
import type { Postman } from './mail.ts';
import type { Reminders } from './reminders.consumer.ts';

export const EVENTS_CONSUMER = 'notifications';

/**
 * An event first delivered this long after it happened is history (a consumer created on a
 * stream that holds 30 days, a service that was away for a week): it updates counts and
 * deadlines but mails nobody, since news that old only confuses. An event that comes again
 * after failing (an SMTP outage) is mailed however late.
 */
export const STALE_AFTER_MS = 7 * 24 * 60 * 60 * 1000;

export const isStale = (timestamp: string, msg: JsMsg, now = Date.now()) =>
  msg.info.deliveryCount === 1 && now - new Date(timestamp).getTime() > STALE_AFTER_MS;

export interface EventsConsumerDeps {
  bus: Bus;
  logger: Logger;
  postman: Postman;
  reminders: Reminders;
  concurrency: number;
}

export function startEventsConsumer(deps: EventsConsumerDeps): Promise<() => Promise<void>> {
  const { bus, postman, reminders } = deps;
  const requests = heldRequests(bus.nc);

  const mailsOf = async (event: EventEnvelope, msg: JsMsg) => {
    const deadline = deadlineStateOf(event);
    if (deadline) await reminders.track(deadline);
    if (!mayMail(event) || isStale(event.timestamp, msg)) return [];
    // Request events carry the request; the others' mails need it as it is now.
    const request = event.type.startsWith('request.')
      ? await withOffers(bus, requestOfEvent(event))
      : await requests.view(event.data.request_id, () => requestOf(bus, event.data.request_id));
    if (!request) return [];
    return postman.sendAll(mailsFor(event, request), event.id);
  };

  const handle = async (event: EventEnvelope, msg: JsMsg) => {
    const mails = await mailsOf(event, msg);
    // What became of each mail (sent, held, skipped…), never to whom or what it said.
    deps.logger.debug(
      { event_id: event.id, type: event.type, deliveries: msg.info.deliveryCount, mails },
      'event handled',
    );
  };

  // Every step is idempotent (the mail log, the inbox's message ids, the deadlines' sequences),
  // so events run side by side. Deliveries are unlimited: a mail that the SMTP server cannot take
  // now is retried with the bus's backoff (2^n s, at most 30 s) for as long as the outage lasts.
  return startEventConsumer({
    bus,
    logger: deps.logger,
    name: EVENTS_CONSUMER,
    concurrency: deps.concurrency,
    maxDeliver: -1,
    // Test mode: a test request's events mail nobody and keep no reminders (no real person is in
    // them; the simulated provider reads nothing). Nor does an event that can give neither.
    takes: (event) => event.livemode && (mayMail(event) || deadlineStateOf(event) !== null),
    handle,
  });
}
