import type { Bus } from '@handoff/bus';
import type { RequestStatus } from '@handoff/contracts';
import { consumeRequestClosures, idsInStates, moveEach } from '@handoff/runtime';
import type { MilestonesDeps } from './deps.ts';
import { collectionsOf, resourcesOf } from '../store/collections.ts';
import { move } from './moves.ts';
import { DECLINABLE_STATES } from '../domain/proposals.ts';
import { moveProposal } from './proposals.ts';

export const REQUEST_CLOSURE_CONSUMER = 'milestones-request-closure';

/**
 * A closed request's open proposals are declined by `system` (the machine's `decline`, whose
 * actors include `system`), with the request's state as the reason the provider reads. Idempotent
 * by state: a proposal withdrawn, expired or accepted meanwhile is left as it is.
 */
export async function declineOpenProposals(
  deps: MilestonesDeps,
  requestId: string,
  status: RequestStatus,
): Promise<number> {
  const { proposals } = collectionsOf(deps.store);
  const open = await idsInStates(proposals, { request_id: requestId }, DECLINABLE_STATES);
  return moveEach(open, (id) =>
    moveProposal(deps, 'decline', {
      id,
      visible: () => true,
      change: (_before, now) => ({ decline_reason: `the request was ${status}`, decided_at: now }),
    }),
  );
}

/**
 * A cancelled request's active job is cancelled by `system`, so its milestones, deliverables and
 * disputes stop moving (`job_not_active`). A completed request's job is already completed: its
 * `job.completed` is what completed the request.
 */
export async function cancelActiveJobs(deps: MilestonesDeps, requestId: string): Promise<number> {
  const jobs = resourcesOf(deps.store).jobs;
  const active = await idsInStates(jobs.collection, { request_id: requestId }, ['active']);
  return moveEach(active, (id) =>
    move(deps, {
      ...jobs,
      id,
      action: 'cancel',
      visible: () => true,
      change: () => ({ cancel_reason: 'the request was cancelled', cancelled_by: 'system' }),
    }),
  );
}

/**
 * Settles a request's open proposals (and, when it is cancelled, its active job) when
 * `request.updated` says it is closed.
 */
export function startRequestClosureConsumer(
  deps: MilestonesDeps & { bus: Bus },
): Promise<() => Promise<void>> {
  return consumeRequestClosures({
    bus: deps.bus,
    logger: deps.logger,
    name: REQUEST_CLOSURE_CONSUMER,
    settle: async (requestId, status) => {
      await declineOpenProposals(deps, requestId, status);
      if (status === 'cancelled') await cancelActiveJobs(deps, requestId);
    },
  });
}
