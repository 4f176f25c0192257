import { describe, expect, it } from '@jest/globals';
import { auditOps, disputeOps, jobOps, milestoneOps } from '@handoff/contracts';
import { eventually } from '@handoff/testkit';
import { opts, useWork } from './support/work.ts';

const actor = 'auditor@handoff.test';
const work = useWork();

const entriesFor = async (target_id: string) => {
  const page = await work.call(auditOps.milestones, { query: { limit: 100 } });
  return page.data.filter((entry) => entry.target_id === target_id);
};

describe('staff moves in the audit log', () => {
  it('records a dispute escalated, commented and resolved by staff, with the case before and after', async () => {
    const request_id = await work.newRequest();
    await work.newJob(request_id, 'prv_audit', 300);
    const dispute = await work.call(disputeOps.create, {
      request_id,
      input: { kind: 'dispute', reason: 'Late' },
    });
    // The customer's own moves are not staff actions.
    await work.call(disputeOps.comment, {
      id: dispute.id,
      party: { role: 'customer', request_id },
      message: 'Still waiting',
    });
    await work.call(
      disputeOps.escalate,
      { id: dispute.id, actor },
      {
        ...opts,
        callId: 'call-escalate',
      },
    );
    await work.call(
      disputeOps.comment,
      { id: dispute.id, party: { role: 'staff', actor }, message: 'Looking into it' },
      { ...opts, callId: 'call-comment' },
    );
    await work.call(
      disputeOps.resolve,
      {
        id: dispute.id,
        actor,
        resolution: { outcome: 'provider', reason: 'Delivered on the agreed date' },
      },
      { ...opts, callId: 'call-resolve' },
    );
    const entries = await eventually(async () => {
      const found = await entriesFor(dispute.id);
      return found.length === 3 ? found : undefined;
    });
    expect(entries.map((entry) => entry.action).sort()).toEqual([
      'dispute.comment',
      'dispute.escalate',
      'dispute.resolve',
    ]);
    // Each entry keeps the Request-Id of the staff call that made it, which the bus carries.
    expect(Object.fromEntries(entries.map((entry) => [entry.action, entry.call_id]))).toEqual({
      'dispute.comment': 'call-comment',
      'dispute.escalate': 'call-escalate',
      'dispute.resolve': 'call-resolve',
    });
    const resolved = entries.find((entry) => entry.action === 'dispute.resolve');
    expect(resolved).toMatchObject({
      actor,
      call_id: 'call-resolve',
      target_type: 'dispute',
      before: { status: 'under_review' },
      after: { status: 'resolved', resolution: { outcome: 'provider' } },
    });
  });

  it('records a job cancel, which has no event, and a milestone cancel', async () => {
    const { job } = await work.requestWithJob('prv_audit', 300);
    const milestone = await work.newMilestone(job, { title: 'Part one' });
    await work.call(milestoneOps.cancel, { id: milestone.id, actor, reason: 'Out of scope' });
    await work.call(
      jobOps.cancel,
      { id: job.id, actor, reason: 'Customer left' },
      { ...opts, callId: 'call-job-cancel' },
    );
    const [jobEntry] = await eventually(async () => {
      const found = await entriesFor(job.id);
      return found.length === 1 ? found : undefined;
    });
    expect(jobEntry).toMatchObject({
      actor,
      call_id: 'call-job-cancel',
      action: 'job.cancel',
      before: { status: 'active' },
      after: { status: 'cancelled', cancel_reason: 'Customer left' },
    });
    const [milestoneEntry] = await eventually(async () => {
      const found = await entriesFor(milestone.id);
      return found.length === 1 ? found : undefined;
    });
    expect(milestoneEntry).toMatchObject({
      action: 'milestone.cancel',
      after: { status: 'cancelled' },
    });
  });
});
