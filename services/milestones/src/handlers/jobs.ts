import { implement, type Endpoint } from '@handoff/bus';
import { ENGAGEMENT_LIMITS, jobOps, type JobAction } from '@handoff/contracts';
import { count, FINISHED_MILESTONE_STATES, OPEN_DISPUTE_STATES } from '../domain/jobs.ts';
import type { MilestonesDeps } from './deps.ts';
import { collectionsOf, resourcesOf } from '../store/collections.ts';
import { type MilestoneDoc } from '../store/milestones.ts';
import { jobView, type JobDoc } from '../store/jobs.ts';
import { text } from '../domain/input-checks.ts';
import type { ResourceMove } from '../domain/moving.ts';
import { conflict } from '../domain/refusals.ts';
import { move } from './moves.ts';
import { partyReads } from './resources.ts';

/** Work on a job moves (provider work, the customer's review) only while the job is active. */
export async function jobActive(deps: MilestonesDeps, jobId: string): Promise<void> {
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

export function jobEndpoints(deps: MilestonesDeps): Record<string, Endpoint> {
  const { milestones, disputes } = collectionsOf(deps.store);
  const resources = resourcesOf(deps.store);
  const moveJob = (action: JobAction, spec: Omit<ResourceMove<JobDoc, JobAction>, 'action'>) =>
    move(deps, { ...spec, action, ...resources.jobs });

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
    ...partyReads(jobOps, resources.jobs),

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

    ...implement(jobOps.cancel, async ({ id, actor, reason }, { callId }) => {
      const cancel_reason = text(reason, ENGAGEMENT_LIMITS.reason, '/reason');
      return jobView(
        await moveJob('cancel', {
          id,
          visible: () => true,
          change: () => ({ cancel_reason, cancelled_by: actor }),
          actor,
          call_id: callId,
        }),
      );
    }),
  };
}
