import { BusError, type Bus } from '@handoff/bus';
import { isRequestClosed, JOB_MACHINE, RequestStatus, subjects } from '@handoff/contracts';
import { startEventConsumer } from '@handoff/runtime';
import { z } from 'zod';
import type { MilestonesDeps } from './deps.ts';
import { collectionsOf } from '../store/collections.ts';
import { jobView } from '../store/jobs.ts';
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
  const open: { _id: string }[] = [];
  // Equalities only (the storage rules): one query per declinable state.
  for (const state of DECLINABLE_STATES) {
    open.push(
      ...(await proposals
        .find({ request_id: requestId, status: state })
        .project<{ _id: string }>({ _id: 1 })
        .toArray()),
    );
  }
  let declined = 0;
  for (const { _id } of open) {
    try {
      await moveProposal(deps, 'decline', {
        id: _id,
        visible: () => true,
        change: (_before, now) => ({
          decline_reason: `the request was ${status}`,
          decided_at: now,
        }),
      });
      declined += 1;
    } catch (error) {
      if (!(error instanceof BusError && error.code === 'invalid_state_transition')) throw error;
    }
  }
  return declined;
}

/**
 * A cancelled request's active job is cancelled by `system`, so its milestones, deliverables and
 * disputes stop moving (`job_not_active`). A completed request's job is already completed: its
 * `job.completed` is what completed the request.
 */
export async function cancelActiveJobs(deps: MilestonesDeps, requestId: string): Promise<number> {
  const { jobs } = collectionsOf(deps.store);
  const active = await jobs
    .find({ request_id: requestId, status: 'active' })
    .project<{ _id: string }>({ _id: 1 })
    .toArray();
  let cancelled = 0;
  for (const { _id } of active) {
    try {
      await move(deps, {
        collection: jobs,
        machine: JOB_MACHINE,
        id: _id,
        action: 'cancel',
        visible: () => true,
        change: () => ({ cancel_reason: 'the request was cancelled', cancelled_by: 'system' }),
        view: jobView,
      });
      cancelled += 1;
    } catch (error) {
      if (!(error instanceof BusError && error.code === 'invalid_state_transition')) throw error;
    }
  }
  return cancelled;
}

const StatusOnly = z.object({ status: RequestStatus });

/**
 * Settles a request's open proposals (and, when it is cancelled, its active job) when
 * `request.updated` says it is closed.
 */
export function startRequestClosureConsumer(
  deps: MilestonesDeps & { bus: Bus },
): Promise<() => Promise<void>> {
  return startEventConsumer({
    bus: deps.bus,
    logger: deps.logger,
    name: REQUEST_CLOSURE_CONSUMER,
    subjects: [subjects.event('request.updated')],
    handle: async (event) => {
      const request = StatusOnly.safeParse(event.data.object);
      if (!request.success || !isRequestClosed(request.data.status)) return;
      await declineOpenProposals(deps, event.data.request_id, request.data.status);
      if (request.data.status === 'cancelled') await cancelActiveJobs(deps, event.data.request_id);
    },
  });
}
