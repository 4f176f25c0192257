import { implement, type Endpoint } from '@handoff/bus';
import {
  allowedActions,
  DISPUTE_MACHINE,
  ENGAGEMENT_LIMITS,
  JOB_MACHINE,
  jobOps,
  MILESTONE_MACHINE,
  type JobAction,
} from '@handoff/contracts';
import type { Filter } from 'mongodb';
import type { MilestonesDeps } from './deps.ts';
import { collectionsOf, jobView, type JobDoc, type MilestoneDoc } from './documents.ts';
import { conflict, findFor, listPage, move, type MoveSpec, partyFilter, text } from './moves.ts';

/** Milestone states that count as finished work: the machine's final states. */
const FINISHED_MILESTONE_STATES = MILESTONE_MACHINE.states.filter(
  (state) => allowedActions(MILESTONE_MACHINE, state).length === 0,
);
/** Dispute states in which a case is still being argued. */
const OPEN_DISPUTE_STATES = DISPUTE_MACHINE.states.filter(
  (state) => allowedActions(DISPUTE_MACHINE, state).length > 0,
);

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

type JobMoveSpec = Omit<
  MoveSpec<JobDoc, JobDoc['status'], JobAction>,
  'collection' | 'machine' | 'view' | 'action'
>;

export function jobEndpoints(deps: MilestonesDeps): Record<string, Endpoint> {
  const { jobs, milestones, disputes } = collectionsOf(deps.store);
  const moveJob = (action: JobAction, spec: JobMoveSpec) =>
    move(deps, { ...spec, action, collection: jobs, machine: JOB_MACHINE, view: jobView });

  /**
   * A job is done when every milestone is approved or cancelled, at least one approved, and no
   * dispute is still argued. Runs in the job's turn, where milestones of the job are created.
   */
  const assertNoOpenWork = async (job: JobDoc) => {
    const work = await milestones
      .find({ job_id: job._id })
      .project<Pick<MilestoneDoc, 'status'>>({ status: 1 })
      .toArray();
    const unfinished = work.filter((m) => !FINISHED_MILESTONE_STATES.includes(m.status)).length;
    const approved = work.filter((m) => m.status === 'approved').length;
    const openDisputes = await disputes.countDocuments({
      job_id: job._id,
      status: { $in: OPEN_DISPUTE_STATES },
    });
    if (unfinished === 0 && approved > 0 && openDisputes === 0) return;
    const reasons = [
      ...(unfinished > 0 ? [`${count(unfinished, 'milestone')} not approved or cancelled`] : []),
      ...(unfinished === 0 && approved === 0 ? ['no approved milestone'] : []),
      ...(openDisputes > 0 ? [count(openDisputes, 'open dispute')] : []),
    ];
    throw conflict('job_has_open_work', `The job still has open work: ${reasons.join(', ')}.`);
  };

  return {
    ...implement(jobOps.list, async ({ party, status, ...page }) => {
      const filter: Filter<JobDoc> = {
        ...partyFilter(party),
        ...(status === undefined ? {} : { status }),
      };
      return listPage(jobs, filter, page, jobView);
    }),

    ...implement(jobOps.get, async ({ id, party }) =>
      jobView(await findFor(jobs, 'job', id, party, (doc) => doc.provider_id)),
    ),

    ...implement(jobOps.complete, async ({ id, provider_id }) =>
      jobView(
        await moveJob('complete', {
          id,
          visible: (before) => before.provider_id === provider_id,
          guard: assertNoOpenWork,
          change: (_before, now) => ({ completed_at: now }),
        }),
      ),
    ),

    ...implement(jobOps.cancel, async ({ id, actor, reason }, { requestId }) => {
      const cancel_reason = text(reason, ENGAGEMENT_LIMITS.reason, '/reason');
      return jobView(
        await moveJob('cancel', {
          id,
          visible: () => true,
          change: () => ({ cancel_reason, cancelled_by: actor }),
          actor,
          call_id: requestId,
        }),
      );
    }),
  };
}
