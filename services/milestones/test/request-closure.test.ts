// What a closed request or job still accepts in the milestones service: the closure consumer
// declines a closed request's open proposals and cancels a cancelled request's active job, and a
// job's work moves only while the job is active. Real intake, real milestones, real NATS.
import { describe, expect, it } from '@jest/globals';
import { disputeOps, jobOps, milestoneOps, proposalOps, requestOps } from '@handoff/contracts';
import { eventually } from '@handoff/testkit';
import { refused, useWork } from './support/work.ts';

const work = useWork();
const staff = { actor: 'staff-1@handoff.test' };

const propose = (request_id: string, provider_id: string) =>
  work.call(proposalOps.create, {
    request_id,
    provider_id,
    provider_name: 'Provider',
    input: { message: 'Hi', amount: 100 },
  });

const cancelRequest = (request_id: string) =>
  work.call(requestOps.update, { id: request_id, patch: { status: 'cancelled' }, ...staff });

describe('cancelling a request', () => {
  it('declines its open proposals as the system; a withdrawn one stays withdrawn', async () => {
    const request_id = await work.newRequest();
    const open = await propose(request_id, 'prv_a');
    const withdrawn = await propose(request_id, 'prv_b');
    await work.call(proposalOps.withdraw, { id: withdrawn.id, provider_id: 'prv_b' });
    await cancelRequest(request_id);
    const declined = await eventually(async () => {
      const doc = await work.raw.proposals.findOne({ _id: open.id });
      return doc?.status === 'declined' ? doc : undefined;
    });
    expect(declined).toMatchObject({ decline_reason: 'the request was cancelled' });
    expect(declined.decided_at).toBeInstanceOf(Date);
    expect(await work.raw.proposals.findOne({ _id: withdrawn.id })).toMatchObject({
      status: 'withdrawn',
    });
  });

  it('cancels its active job as the system; the job’s milestones move no more', async () => {
    const { request_id, job } = await work.requestWithJob('prv_job');
    const milestone = await work.newMilestone(job);
    await work.call(milestoneOps.submit, { id: milestone.id, provider_id: 'prv_job' });
    // The engagement consumer may or may not have put the request in progress yet: both cancel.
    await cancelRequest(request_id);
    const cancelled = await eventually(async () => {
      const doc = await work.raw.jobs.findOne({ _id: job.id });
      return doc?.status === 'cancelled' ? doc : undefined;
    });
    expect(cancelled).toMatchObject({
      cancel_reason: 'the request was cancelled',
      cancelled_by: 'system',
    });
    for (const decision of ['approve', 'request_changes'] as const) {
      expect(
        await refused(
          work.call(milestoneOps.review, {
            id: milestone.id,
            request_id,
            decision,
            reason: 'Not it.',
          }),
        ),
      ).toMatchObject({ code: 'job_not_active' });
    }
    expect(await work.raw.milestones.findOne({ _id: milestone.id })).toMatchObject({
      status: 'submitted',
    });
  });
});

describe('a completed job', () => {
  it('takes no new dispute', async () => {
    const { request_id, job } = await work.requestWithJob('prv_done');
    const milestone = await work.newMilestone(job);
    await work.call(milestoneOps.submit, { id: milestone.id, provider_id: 'prv_done' });
    await work.call(milestoneOps.review, { id: milestone.id, request_id, decision: 'approve' });
    await work.call(jobOps.complete, { id: job.id, provider_id: 'prv_done' });
    expect(
      await refused(
        work.call(disputeOps.create, {
          request_id,
          input: { kind: 'dispute', reason: 'It leaks again.' },
        }),
      ),
    ).toMatchObject({ code: 'job_not_active' });
  });
});
