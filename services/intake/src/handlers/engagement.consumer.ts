import { BusError, type Bus } from '@handoff/bus';
import { subjects, type EventEnvelope } from '@handoff/contracts';
import type { Logger } from '@handoff/observability';
import { heldRequests, startEventConsumer, type Outbox } from '@handoff/runtime';
import type { Store } from '@handoff/store';
import { z } from 'zod';
import { requestMover } from './requests/mover.ts';
import { requestCollection, type RequestDoc } from '../store/requests.ts';
import { completeWork, startWork, type EngagementStep } from '../domain/engagement.ts';

export const ENGAGEMENT_CONSUMER = 'intake-engagement';
export const ENGAGEMENT_SUBJECTS = [
  subjects.event('proposal.accepted'),
  subjects.event('job.completed'),
];
const SYSTEM = { actor: 'system', call_id: null };

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
 * backoff a bounded number of times, then logged and terminated (runtime's `startEventConsumer`).
 */
export function startEngagementConsumer(deps: EngagementDeps): Promise<() => Promise<void>> {
  const { logger } = deps;
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
      // No event announces this: this replica forgets the request at once, the others within
      // their cache's lifetime (REQUEST_CACHE_TTL_MS).
      heldRequests(deps.bus.nc).drop(requestId);
    }
    return outcome;
  };

  // A message that names no provider, or an event this consumer does not take, can never be
  // applied: final, so it is logged and terminated at once.
  const poison = (reason: string) => new BusError('validation_failed', reason);

  const handle = async (event: EventEnvelope) => {
    const work = WorkObject.safeParse(event.data.object);
    if (!work.success) throw poison(`${event.type} ${event.id} names no provider`);
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
      throw poison(`unexpected event type ${event.type}`);
    }
    if (outcome.kind === 'stuck') {
      logger.warn(
        { event_id: event.id, type: event.type, request_id: requestId, reason: outcome.reason },
        'engagement event cannot move the request; acknowledged without change',
      );
    }
  };

  return startEventConsumer({
    bus: deps.bus,
    logger,
    name: ENGAGEMENT_CONSUMER,
    subjects: ENGAGEMENT_SUBJECTS,
    handle,
  });
}
