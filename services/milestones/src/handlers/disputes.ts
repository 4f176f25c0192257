import { implement, type Endpoint } from '@handoff/bus';
import {
  DISPUTE_MACHINE,
  disputeOps,
  ENGAGEMENT_LIMITS,
  newId,
  type DisputeAction,
  type Party,
} from '@handoff/contracts';
import { minorUnits } from '@handoff/runtime';
import type { MilestonesDeps } from './deps.ts';
import { collectionsOf, resourcesOf } from '../store/collections.ts';
import { disputeView, type DisputeCommentDoc, type DisputeDoc } from '../store/disputes.ts';
import { jobCurrency, text } from '../domain/input-checks.ts';
import type { ResourceMove } from '../domain/moving.ts';
import { partySees } from '../domain/parties.ts';
import { conflict, invalid } from '../domain/refusals.ts';
import { move, sweepDeadlines } from './moves.ts';
import { create, opening, partyReads } from './resources.ts';

function moveDispute(deps: MilestonesDeps, spec: ResourceMove<DisputeDoc, DisputeAction>) {
  return move(deps, { ...spec, ...resourcesOf(deps.store).disputes });
}

/** Staff take a case under review, or the system does once its deadline has passed. */
export function escalateDispute(
  deps: MilestonesDeps,
  id: string,
  now = new Date(),
  actor?: string,
  callId: string | null = null,
) {
  return moveDispute(deps, {
    id,
    action: 'escalate',
    visible: () => true,
    now,
    ...(actor ? { actor, call_id: callId } : {}),
  });
}

/** Open cases nobody settled before their deadline (by `now`) go to staff review. */
export function sweepDisputes(
  deps: MilestonesDeps,
  now: Date,
  requestIds?: readonly string[],
): Promise<number> {
  const { disputes } = collectionsOf(deps.store);
  return sweepDeadlines(
    deps,
    disputes,
    DISPUTE_MACHINE,
    now,
    (id, action) => {
      if (action !== 'escalate') throw new Error(`no deadline action ${action} for disputes`);
      return escalateDispute(deps, id, now);
    },
    requestIds,
  );
}

const sees = (party: Party) => (doc: DisputeDoc) => partySees(party, doc);

export function disputeEndpoints(deps: MilestonesDeps): Record<string, Endpoint> {
  const { jobs, milestones } = collectionsOf(deps.store);
  const resources = resourcesOf(deps.store);

  return {
    ...implement(disputeOps.create, async ({ request_id, input }) => {
      // The request's current job: its newest one that was not cancelled.
      const [job] = await jobs
        .find({ request_id, status: { $ne: 'cancelled' } })
        .sort({ _id: -1 })
        .limit(1)
        .toArray();
      if (!job) {
        throw conflict('no_job', 'The request has no job yet; a case opens on a started job.');
      }
      // A case is about work still under way: a completed job is closed to new disputes.
      if (job.status !== 'active') {
        throw conflict(
          'job_not_active',
          `The job is ${job.status}; a case opens on an active job.`,
        );
      }
      if (input.milestone_id !== undefined) {
        const milestone = await milestones.findOne(
          { _id: input.milestone_id, job_id: job._id },
          { projection: { _id: 1 } },
        );
        if (!milestone) {
          throw invalid(
            '/milestone_id',
            'unknown_milestone',
            'not a milestone of the request’s job.',
          );
        }
      }
      let amount_minor: number | null = null;
      let currency: string | null = null;
      if (input.amount !== undefined) {
        currency = jobCurrency(input.currency, job);
        amount_minor = minorUnits(input.amount, currency);
        if (amount_minor > job.amount_minor) {
          throw invalid('/amount', 'exceeds_job_amount', 'the amount exceeds the job’s amount.');
        }
      }
      const doc: DisputeDoc = {
        _id: newId('dsp'),
        request_id,
        job_id: job._id,
        milestone_id: input.milestone_id ?? null,
        provider_id: job.provider_id,
        kind: input.kind,
        reason: input.reason,
        amount_minor,
        currency,
        comments: [],
        resolution: null,
        ...opening(DISPUTE_MACHINE, new Date()),
      };
      // In the job's turn, so a job completing meanwhile sees this case.
      return create(deps, resources.disputes, { of: jobs, id: job._id }, () =>
        Promise.resolve(doc),
      );
    }),

    ...partyReads(disputeOps, resources.disputes),

    ...implement(disputeOps.comment, async ({ id, party, message }, { callId }) => {
      const body = text(message, ENGAGEMENT_LIMITS.text, '/message');
      const comment = (now: Date): DisputeCommentDoc => ({
        author_role: party.role,
        author: party.role === 'staff' ? party.actor : null,
        message: body,
        created_at: now,
      });
      const doc = await moveDispute(deps, {
        id,
        action: 'comment',
        by: party.role,
        visible: sees(party),
        guard: (before) => {
          if (before.comments.length >= ENGAGEMENT_LIMITS.comments) {
            throw conflict(
              'comment_limit_reached',
              `The case has ${ENGAGEMENT_LIMITS.comments} comments, the most it takes.`,
            );
          }
        },
        change: (before, now) => ({ comments: [...before.comments, comment(now)] }),
        ...(party.role === 'staff' ? { actor: party.actor, call_id: callId } : {}),
      });
      return disputeView(doc);
    }),

    ...implement(disputeOps.escalate, async ({ id, actor }, { callId }) =>
      disputeView(await escalateDispute(deps, id, new Date(), actor, callId)),
    ),

    ...implement(disputeOps.resolve, async ({ id, actor, resolution }, { callId }) => {
      const doc = await moveDispute(deps, {
        id,
        action: 'resolve',
        visible: () => true,
        change: (_before, now) => ({
          resolution: {
            outcome: resolution.outcome,
            reason: resolution.reason,
            customer_share_percent:
              resolution.outcome === 'split' ? resolution.customer_share_percent : null,
            resolved_by: actor,
            resolved_at: now,
          },
        }),
        actor,
        call_id: callId,
      });
      return disputeView(doc);
    }),

    ...implement(disputeOps.withdraw, async ({ id, request_id }) => {
      const doc = await moveDispute(deps, {
        id,
        action: 'withdraw',
        visible: (before) => before.request_id === request_id,
      });
      return disputeView(doc);
    }),
  };
}
