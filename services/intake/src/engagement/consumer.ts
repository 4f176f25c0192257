import { BusError, type Bus } from '@handoff/bus';
import { EVENTS_STREAM, EventEnvelope, subjects } from '@handoff/contracts';
import type { Logger } from '@handoff/observability';
import type { Outbox } from '@handoff/runtime';
import type { Store } from '@handoff/store';
import { AckPolicy, DeliverPolicy, type JsMsg } from '@nats-io/jetstream';
import { z } from 'zod';
import { requestCollection, requestMover, type RequestDoc } from '../requests/handlers.ts';
import { completeWork, startWork, type EngagementStep } from './moves.ts';

export const ENGAGEMENT_CONSUMER = 'intake-engagement';
export const ENGAGEMENT_SUBJECTS = [
  subjects.event('proposal.accepted'),
  subjects.event('job.completed'),
];
const MAX_DELIVER = 8;
const SECOND_NS = 1_000_000_000;
/** Redelivery of an unanswered delivery; the server takes the first step as the ack wait. */
const BACKOFF_S = [10, 30, 60, 300, 600];
/** How often a message being handled is reported in progress, well inside that ack wait. */
const PROGRESS_MS = 3_000;
/** Messages fetched ahead; they are handled one at a time, in stream order. */
const BUFFERED = 8;
const SYSTEM = { actor: 'system', request_id: null };

/** The part of a proposal or job snapshot the engagement needs: whose work it is. */
const WorkObject = z.object({ provider_id: z.string().min(1).max(64) });

export interface EngagementDeps {
  bus: Bus;
  store: Store;
  logger: Logger;
  outbox: Outbox;
}

/**
 * The durable consumer that lets the engagement move requests: `proposal.accepted` puts the
 * request in progress with the accepted provider, `job.completed` completes it. Each move is a
 * `request.updated` through the outbox, like a staff change. Handling is idempotent by state (a
 * request already there is left alone), so a redelivered event changes nothing; a request that
 * cannot move (cancelled) is logged and the event acknowledged; failures are retried with
 * backoff a bounded number of times, then logged and terminated.
 */
export async function startEngagementConsumer(deps: EngagementDeps): Promise<() => Promise<void>> {
  const { bus, logger } = deps;
  await ensureConsumer(bus);
  const move = requestMover(deps);
  const requests = requestCollection(deps.store);

  const apply = async (
    requestId: string,
    providerId: string,
    audit: string,
    step: (doc: RequestDoc, providerId: string) => EngagementStep,
  ): Promise<EngagementStep> => {
    // Decided from the request as the move reads it, in its turn.
    let outcome = { kind: 'done' } as EngagementStep;
    const moving = () => {
      if (outcome.kind !== 'move') throw new BusError('internal_error', 'no move to make');
      return outcome;
    };
    await move(requestId, SYSTEM, {
      audit,
      unchanged: (doc) => {
        outcome = step(doc, providerId);
        return outcome.kind !== 'move';
      },
      action: () => moving().action,
      change: () => ({ engaged_provider_id: moving().engaged_provider_id }),
    });
    if (outcome.kind === 'record') {
      const engaged = outcome.engaged_provider_id;
      await deps.store.serialize(requests, requestId, () =>
        requests.updateOne(
          { _id: requestId, engaged_provider_id: null },
          { $set: { engaged_provider_id: engaged } },
        ),
      );
    }
    return outcome;
  };

  const drop = (msg: JsMsg, reason: string) => {
    logger.error({ subject: msg.subject, seq: msg.seq, reason }, 'engagement event dropped');
    msg.term(reason);
  };

  const handle = async (msg: JsMsg) => {
    let raw: unknown;
    try {
      raw = msg.json();
    } catch {
      return drop(msg, 'not JSON');
    }
    const parsed = EventEnvelope.safeParse(raw);
    if (!parsed.success) return drop(msg, 'not an event envelope');
    const event = parsed.data;
    const work = WorkObject.safeParse(event.data.object);
    if (!work.success) return drop(msg, `${event.type} ${event.id} names no provider`);
    const requestId = event.data.request_id;
    const providerId = work.data.provider_id;

    let outcome: EngagementStep;
    if (event.type === 'proposal.accepted') {
      outcome = await apply(requestId, providerId, 'request.work_started', startWork);
    } else if (event.type === 'job.completed') {
      // A job cannot complete before it started: should `proposal.accepted` still be waiting for
      // a retry, the request first catches up, so events handled out of order still agree.
      const started = await apply(requestId, providerId, 'request.work_started', startWork);
      outcome =
        started.kind === 'stuck'
          ? started
          : await apply(requestId, providerId, 'request.work_completed', completeWork);
    } else {
      return drop(msg, `unexpected event type ${event.type}`);
    }
    if (outcome.kind === 'stuck') {
      logger.warn(
        { event_id: event.id, type: event.type, request_id: requestId, reason: outcome.reason },
        'engagement event cannot move the request; acknowledged without change',
      );
    }
    msg.ack();
  };

  const consumer = await bus.js.consumers.get(EVENTS_STREAM.name, ENGAGEMENT_CONSUMER);
  const messages = await consumer.consume({ max_messages: BUFFERED });
  const loop = (async () => {
    for await (const msg of messages) {
      const progress = setInterval(() => {
        try {
          msg.working();
        } catch {
          // The connection is closing: unacknowledged, the message comes round again.
        }
      }, PROGRESS_MS);
      try {
        await handle(msg);
      } catch (error) {
        // A refusal on the merits (an unknown request) is final; anything else is tried again.
        const final =
          error instanceof BusError && !error.retryable && error.code !== 'internal_error';
        const deliveries = msg.info.deliveryCount;
        if (final || deliveries >= MAX_DELIVER) {
          logger.error(
            { err: error, subject: msg.subject, seq: msg.seq, deliveries },
            'engagement event not applied; giving up',
          );
          msg.term(`gave up after ${deliveries} deliveries`);
        } else {
          logger.warn(
            { err: error, subject: msg.subject, seq: msg.seq, deliveries },
            'engagement event not applied; will retry',
          );
          msg.nak(Math.min(60_000, 1_000 * 2 ** deliveries));
        }
      } finally {
        clearInterval(progress);
      }
    }
  })();
  return async () => {
    await messages.close();
    await loop.catch((error: unknown) => {
      logger.warn({ err: error }, 'engagement consumer ended with an error');
    });
  };
}

async function ensureConsumer(bus: Bus): Promise<void> {
  const settings = {
    filter_subjects: ENGAGEMENT_SUBJECTS,
    max_deliver: MAX_DELIVER,
    backoff: BACKOFF_S.map((s) => s * SECOND_NS),
    max_ack_pending: 100,
  };
  try {
    await bus.jsm.consumers.info(EVENTS_STREAM.name, ENGAGEMENT_CONSUMER);
  } catch {
    try {
      await bus.jsm.consumers.add(EVENTS_STREAM.name, {
        durable_name: ENGAGEMENT_CONSUMER,
        ack_policy: AckPolicy.Explicit,
        // From the stream's start: events kept while intake was away still move their requests.
        deliver_policy: DeliverPolicy.All,
        ...settings,
      });
      return;
    } catch (error) {
      // Another replica made it first.
      if (!/already|exists/i.test(String(error))) throw error;
    }
  }
  // An existing consumer takes this version's settings (a no-op when they already match).
  await bus.jsm.consumers.update(EVENTS_STREAM.name, ENGAGEMENT_CONSUMER, settings);
}
