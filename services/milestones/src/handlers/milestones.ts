import { implement, type Endpoint } from '@handoff/bus';
import {
  ENGAGEMENT_LIMITS,
  MILESTONE_MACHINE,
  milestoneOps,
  newId,
  type DeliverableAction,
  type MilestoneAction,
} from '@handoff/contracts';
import { minorUnits, moveEach } from '@handoff/runtime';
import { byKeyWhere } from '@handoff/store';
import type { MilestonesDeps } from './deps.ts';
import { collectionsOf, resourcesOf } from '../store/collections.ts';
import type { DeliverableDoc } from '../store/deliverables.ts';
import { milestoneView, openMilestone, type MilestoneDoc } from '../store/milestones.ts';
import { jobCurrency, text } from '../domain/input-checks.ts';
import type { ResourceMove } from '../domain/moving.ts';
import { conflict, invalid, notFound } from '../domain/refusals.ts';
import { jobActive } from './jobs.ts';
import { move, sweepDeadlines } from './moves.ts';
import { create, partyReads } from './resources.ts';

// --- Milestones ---------------------------------------------------------------------------

function moveMilestone(deps: MilestonesDeps, spec: ResourceMove<MilestoneDoc, MilestoneAction>) {
  return move(deps, { ...spec, ...resourcesOf(deps.store).milestones });
}

/**
 * Moves a deliverable by the system (`accept`, `request_revision`): the deliverables follow
 * their milestone's review. Goes through DELIVERABLE_MACHINE like every other move.
 */
export function moveDeliverable(
  deps: MilestonesDeps,
  id: string,
  action: DeliverableAction,
  now = new Date(),
): Promise<DeliverableDoc> {
  return move(deps, {
    ...resourcesOf(deps.store).deliverables,
    id,
    action,
    visible: () => true,
    now,
  });
}

/**
 * The deliverables of a reviewed milestone that were part of the submission (still `submitted`,
 * created before it was submitted) follow the review: accepted, or revision requested.
 */
function followReview(
  deps: MilestonesDeps,
  milestone: MilestoneDoc,
  action: 'accept' | 'request_revision',
  now: Date,
): Promise<void> {
  // Never given a deliverable: nothing to look for (most milestones), and no query to pay.
  if (milestone.has_deliverables === false) return Promise.resolve();
  return moveSubmittedDeliverables(deps, milestone, action, now);
}

async function moveSubmittedDeliverables(
  deps: MilestonesDeps,
  milestone: MilestoneDoc,
  action: 'accept' | 'request_revision',
  now: Date,
): Promise<void> {
  const { deliverables } = collectionsOf(deps.store);
  const submitted = await deliverables
    .find(
      // By the milestone's deliverables, then their status: never every submitted deliverable.
      byKeyWhere<DeliverableDoc>(
        { milestone_id: milestone._id },
        {
          status: 'submitted',
          ...(milestone.submitted_at ? { created_at: { $lte: milestone.submitted_at } } : {}),
        },
      ),
    )
    .project<{ _id: string }>({ _id: 1 })
    .toArray();
  // One withdrawn meanwhile has nothing to follow; other failures are repaired by the sweep.
  await moveEach(
    submitted.map(({ _id }) => _id),
    (id) => moveDeliverable(deps, id, action, now),
  );
}

/** The customer's approval, or the system's once the review deadline has passed. */
export function approveMilestone(
  deps: MilestonesDeps,
  id: string,
  by: { request_id: string } | 'deadline',
  now = new Date(),
) {
  return moveMilestone(deps, {
    id,
    action: 'approve',
    visible: (doc) => by === 'deadline' || doc.request_id === by.request_id,
    // A cancelled job's work is not reviewed: neither the customer nor the deadline approves it.
    guard: (before) => jobActive(deps, before.job_id),
    change: (_before, at) => ({
      approved_by: by === 'deadline' ? 'deadline' : 'customer',
      approved_at: at,
    }),
    then: (doc, at) => followReview(deps, doc, 'accept', at),
    now,
  });
}

/**
 * The review deadline: submitted milestones whose deadline has passed by `now` are approved by
 * the system (`approved_by: "deadline"`), only those of `requestIds` when given (a test clock's).
 * Also finishes the deliverables of reviewed milestones that a crash left behind.
 */
export async function sweepMilestones(
  deps: MilestonesDeps,
  now: Date,
  requestIds?: readonly string[],
): Promise<number> {
  const { milestones } = collectionsOf(deps.store);
  const approved = await sweepDeadlines(
    deps,
    milestones,
    MILESTONE_MACHINE,
    now,
    (id, action) => {
      if (action !== 'approve') throw new Error(`no deadline action ${action} for milestones`);
      return approveMilestone(deps, id, 'deadline', now);
    },
    requestIds,
  );
  await repairReviewedDeliverables(deps);
  return approved;
}

async function repairReviewedDeliverables(deps: MilestonesDeps): Promise<void> {
  const { milestones, deliverables } = collectionsOf(deps.store);
  const waiting = await deliverables
    .find({ status: 'submitted' })
    .project<{ milestone_id: string }>({ milestone_id: 1 })
    .limit(1_000)
    .toArray();
  const ids = [...new Set(waiting.map((d) => d.milestone_id))];
  if (ids.length === 0) return;
  const reviewed = await milestones
    .find({ _id: { $in: ids }, status: { $in: ['approved', 'changes_requested'] } })
    .toArray();
  for (const milestone of reviewed) {
    const action = milestone.status === 'approved' ? 'accept' : 'request_revision';
    // Whatever the milestone's mark says: these deliverables are there.
    await moveSubmittedDeliverables(deps, milestone, action, new Date()).catch((error: unknown) => {
      deps.logger.error({ err: error, milestone_id: milestone._id }, 'deliverable repair failed');
    });
  }
}

export function milestoneEndpoints(deps: MilestonesDeps): Record<string, Endpoint> {
  const { jobs } = collectionsOf(deps.store);
  const resources = resourcesOf(deps.store);
  const ownedBy = (provider_id: string) => (doc: MilestoneDoc) => doc.provider_id === provider_id;

  return {
    ...implement(milestoneOps.create, ({ job_id, provider_id, input }) =>
      // In the job's turn, so a job completing meanwhile sees this milestone or refuses it.
      create(deps, resources.milestones, { of: jobs, id: job_id }, async () => {
        const job = await jobs.findOne({ _id: job_id });
        if (!job || job.provider_id !== provider_id) throw notFound('job');
        if (job.status !== 'active') {
          throw conflict(
            'job_not_active',
            `The job is ${job.status}; milestones are added only to an active job.`,
          );
        }
        const currency = jobCurrency(input.currency, job);
        const amount_minor = input.amount === undefined ? null : minorUnits(input.amount, currency);
        const due_at = input.due_at === undefined ? null : new Date(input.due_at);
        return openMilestone(
          {
            _id: newId('mst'),
            request_id: job.request_id,
            job_id,
            provider_id,
            title: input.title,
            description: input.description ?? null,
            amount_minor,
            currency: amount_minor === null ? null : currency,
            due_at,
          },
          new Date(),
        );
      }),
    ),

    ...partyReads(milestoneOps, resources.milestones),

    ...implement(milestoneOps.updateProgress, async ({ id, provider_id, input }) => {
      const note =
        input.note === undefined ? null : text(input.note, ENGAGEMENT_LIMITS.note, '/note');
      const doc = await moveMilestone(deps, {
        id,
        action: 'update_progress',
        visible: ownedBy(provider_id),
        guard: (before) => jobActive(deps, before.job_id),
        change: () => ({ progress: input.progress, progress_note: note }),
      });
      return milestoneView(doc);
    }),

    ...implement(milestoneOps.submit, async ({ id, provider_id, note }) => {
      const submission_note =
        note === undefined ? null : text(note, ENGAGEMENT_LIMITS.note, '/note');
      const doc = await moveMilestone(deps, {
        id,
        action: 'submit',
        visible: ownedBy(provider_id),
        guard: (before) => jobActive(deps, before.job_id),
        change: (before, now) => ({
          revision: before.revision + 1,
          submitted_at: now,
          submission_note,
          change_request_reason: null,
        }),
      });
      return milestoneView(doc);
    }),

    ...implement(milestoneOps.review, async ({ id, request_id, decision, reason }) => {
      if (decision === 'approve') {
        return milestoneView(await approveMilestone(deps, id, { request_id }));
      }
      if (reason === undefined) {
        throw invalid('/reason', 'required', 'a reason is required to request changes.');
      }
      const change_request_reason = text(reason, ENGAGEMENT_LIMITS.reason, '/reason');
      const doc = await moveMilestone(deps, {
        id,
        action: 'request_changes',
        visible: (before) => before.request_id === request_id,
        guard: (before) => jobActive(deps, before.job_id),
        change: () => ({ change_request_reason }),
        then: (after, now) => followReview(deps, after, 'request_revision', now),
      });
      return milestoneView(doc);
    }),

    ...implement(milestoneOps.cancel, async ({ id, actor, reason }, { callId }) => {
      const cancel_reason = text(reason, ENGAGEMENT_LIMITS.reason, '/reason');
      const doc = await moveMilestone(deps, {
        id,
        action: 'cancel',
        visible: () => true,
        change: () => ({ cancel_reason, cancelled_by: actor }),
        actor,
        call_id: callId,
      });
      return milestoneView(doc);
    }),
  };
}
