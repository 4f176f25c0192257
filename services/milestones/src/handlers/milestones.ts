import { BusError, implement, type Endpoint } from '@handoff/bus';
import {
  DELIVERABLE_MACHINE,
  ENGAGEMENT_LIMITS,
  MILESTONE_MACHINE,
  milestoneOps,
  newId,
  type DeliverableAction,
} from '@handoff/contracts';
import type { Collection, Filter } from 'mongodb';
import { minorUnits, withOutbox } from '@handoff/runtime';
import type { MilestonesDeps } from './deps.ts';
import { collectionsOf } from '../store/collections.ts';
import { deliverableView, type DeliverableDoc } from '../store/deliverables.ts';
import { milestoneView, openMilestone, type MilestoneDoc } from '../store/milestones.ts';

import {
  conflict,
  creationMessages,
  invalid,
  jobCurrency,
  type MoveSpec,
  notFound,
  text,
} from '../domain/moves.ts';
import { findFor, listPage, partyFilter } from '../store/queries.ts';
import { move, sweepDeadlines } from './moves.ts';

// --- Milestones ---------------------------------------------------------------------------

/** A milestone as stored: the API's fields, and who cancelled it and why. */
type StoredMilestone = MilestoneDoc & {
  cancel_reason?: string | null;
  cancelled_by?: string | null;
};

type MilestoneMoveSpec = Omit<
  MoveSpec<StoredMilestone, MilestoneDoc['status'], keyof typeof MILESTONE_MACHINE.events>,
  'collection' | 'machine' | 'view'
>;

function moveMilestone(deps: MilestonesDeps, spec: MilestoneMoveSpec) {
  const { milestones } = collectionsOf(deps.store);
  return move(deps, {
    ...spec,
    collection: milestones as Collection<StoredMilestone>,
    machine: MILESTONE_MACHINE,
    view: milestoneView,
  });
}

/** Work on a job moves (provider work, the customer's review) only while the job is active. */
async function jobActive(deps: MilestonesDeps, jobId: string): Promise<void> {
  const job = await collectionsOf(deps.store).jobs.findOne(
    { _id: jobId },
    { projection: { status: 1 } },
  );
  if (job?.status !== 'active') {
    throw conflict(
      'job_not_active',
      `The job is ${job?.status ?? 'gone'}; work is added only to an active job.`,
    );
  }
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
    collection: collectionsOf(deps.store).deliverables,
    machine: DELIVERABLE_MACHINE,
    id,
    action,
    visible: () => true,
    view: deliverableView,
    now,
  });
}

/**
 * The deliverables of a reviewed milestone that were part of the submission (still `submitted`,
 * created before it was submitted) follow the review: accepted, or revision requested.
 */
async function followReview(
  deps: MilestonesDeps,
  milestone: MilestoneDoc,
  action: 'accept' | 'request_revision',
  now: Date,
): Promise<void> {
  const { deliverables } = collectionsOf(deps.store);
  const submitted = await deliverables
    .find({
      milestone_id: milestone._id,
      status: 'submitted',
      ...(milestone.submitted_at ? { created_at: { $lte: milestone.submitted_at } } : {}),
    })
    .project<{ _id: string }>({ _id: 1 })
    .toArray();
  for (const { _id } of submitted) {
    try {
      await moveDeliverable(deps, _id, action, now);
    } catch (error) {
      // Withdrawn meanwhile: nothing to follow. Anything else is repaired by the sweep.
      if (!(error instanceof BusError && error.code === 'invalid_state_transition')) throw error;
    }
  }
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
 * the system (`approved_by: "deadline"`). Also finishes the deliverables of reviewed milestones
 * that a crash left behind.
 */
export async function sweepMilestones(deps: MilestonesDeps, now: Date): Promise<number> {
  const { milestones } = collectionsOf(deps.store);
  const approved = await sweepDeadlines(deps, milestones, MILESTONE_MACHINE, now, (id, action) => {
    if (action !== 'approve') throw new Error(`no deadline action ${action} for milestones`);
    return approveMilestone(deps, id, 'deadline', now);
  });
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
    await followReview(deps, milestone, action, new Date()).catch((error: unknown) => {
      deps.logger.error({ err: error, milestone_id: milestone._id }, 'deliverable repair failed');
    });
  }
}

export function milestoneEndpoints(deps: MilestonesDeps): Record<string, Endpoint> {
  const { jobs, milestones } = collectionsOf(deps.store);
  const publish = deps.outbox.publishOrLeave;
  const ownedBy = (provider_id: string) => (doc: MilestoneDoc) => doc.provider_id === provider_id;

  return {
    ...implement(milestoneOps.create, async ({ job_id, provider_id, input }) => {
      // In the job's turn, so a job completing meanwhile sees this milestone or refuses it.
      const { doc, messages } = await deps.store.serialize(jobs, job_id, async () => {
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
        const now = new Date();
        const due_at = input.due_at === undefined ? null : new Date(input.due_at);
        const doc = openMilestone(
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
          now,
        );
        const messages = creationMessages(MILESTONE_MACHINE, doc.request_id, milestoneView(doc));
        await milestones.insertOne(withOutbox(doc, messages));
        return { doc, messages };
      });
      await publish(milestones, doc._id, messages);
      return milestoneView(doc);
    }),

    ...implement(milestoneOps.list, async ({ party, job_id, status, ...page }) => {
      const filter: Filter<MilestoneDoc> = {
        ...partyFilter(party),
        ...(job_id === undefined ? {} : { job_id }),
        ...(status === undefined ? {} : { status }),
      };
      return listPage(milestones, filter, page, milestoneView);
    }),

    ...implement(milestoneOps.get, async ({ id, party }) =>
      milestoneView(await findFor(milestones, 'milestone', id, party, (doc) => doc.provider_id)),
    ),

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

    ...implement(milestoneOps.cancel, async ({ id, actor, reason }, { requestId }) => {
      const cancel_reason = text(reason, ENGAGEMENT_LIMITS.reason, '/reason');
      const doc = await moveMilestone(deps, {
        id,
        action: 'cancel',
        visible: () => true,
        change: () => ({ cancel_reason, cancelled_by: actor }),
        actor,
        call_id: requestId,
      });
      return milestoneView(doc);
    }),
  };
}
