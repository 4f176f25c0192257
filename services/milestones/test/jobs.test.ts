import { describe, expect, it } from '@jest/globals';
import { describeMachine } from '@handoff/service-suites';
import {
  disputeOps,
  JOB_MACHINE,
  jobOps,
  milestoneOps,
  newId,
  proposalOps,
  type Job,
  type JobAction,
  type Party,
} from '@handoff/contracts';
import type { JobDoc } from '../src/store/jobs.ts';
import { refused, strangers, useWork } from './support/work.ts';

const staff = 'staff-1@handoff.test';

const work = useWork();

/** The stored document, once published messages have left its outbox. */
const raw = async (id: string) => {
  await work.service.outbox.flush();
  return work.raw.jobs.findOne({ _id: id });
};

/** A job started by accepting a proposal whose plan has `planned` milestones. */
async function startJob(planned = 1, provider_id = newId('prv')) {
  const request_id = await work.newRequest();
  const proposal = await work.call(proposalOps.create, {
    request_id,
    provider_id,
    provider_name: 'Ada Studio',
    input: {
      message: 'We can build it',
      amount: 900,
      milestones: Array.from({ length: planned }, (_v, i) => ({ title: `Step ${i + 1}` })),
    },
  });
  const { job } = await work.call(proposalOps.accept, { id: proposal.id, request_id });
  const milestones = (
    await work.raw.milestones.find({ job_id: job.id }).sort({ _id: 1 }).toArray()
  ).map((m) => m._id);
  return { job, request_id, provider_id, milestones };
}

type Started = Awaited<ReturnType<typeof startJob>>;

/** The customer approves a milestone the provider submitted (the milestone's own operations). */
async function approve(started: Started, id: string) {
  await work.call(milestoneOps.submit, { id, provider_id: started.provider_id });
  await work.call(milestoneOps.review, { id, request_id: started.request_id, decision: 'approve' });
}

const cancelMilestone = (id: string) =>
  work.call(milestoneOps.cancel, { id, actor: staff, reason: 'Not needed' });

const complete = (started: Started) =>
  work.call(jobOps.complete, { id: started.job.id, provider_id: started.provider_id });

/** Each action of the machine, through the bus operation its actor uses. */
const act: Record<JobAction, (started: Started) => Promise<Job>> = {
  complete,
  cancel: (started) =>
    work.call(jobOps.cancel, { id: started.job.id, actor: staff, reason: 'Stopped' }),
};

describeMachine(JOB_MACHINE, {
  ...work.documentDriver<Started & { id: string }, JobDoc>(raw),
  // A job whose work is done (its milestone approved), so that it may complete.
  create: async () => {
    const started = await startJob(1);
    const [milestone] = started.milestones;
    if (!milestone) throw new Error('the plan made no milestone');
    await approve(started, milestone);
    return { ...started, id: started.job.id };
  },
  act: (started, action) => act[action](started),
  moved: ({ action, next, after, answer, events }) => {
    expect(answer).toMatchObject({ id: after._id, status: next });
    if (JOB_MACHINE.events[action]) expect(events.at(-1)?.data.object).toMatchObject(answer);
    if (action === 'complete') expect(after.completed_at).toEqual(after.updated_at);
    if (action === 'cancel') {
      expect(after).toMatchObject({ cancel_reason: 'Stopped', cancelled_by: staff });
    }
  },
});

describe('completing a job', () => {
  const openWork = { code: 'job_has_open_work' };

  it('needs every milestone approved or cancelled, one at least approved', async () => {
    const started = await startJob(2);
    const [first, second] = started.milestones;
    if (!first || !second) throw new Error('the plan made no milestones');
    const before = await raw(started.job.id);

    expect(await refused(complete(started))).toMatchObject({
      ...openWork,
      message: expect.stringMatching(/2 milestones not approved or cancelled/),
    });
    await cancelMilestone(first);
    await cancelMilestone(second);
    expect(await refused(complete(started))).toMatchObject({
      ...openWork,
      message: expect.stringMatching(/no approved milestone/),
    });
    expect(await raw(started.job.id)).toEqual(before);

    // Work added to the job and approved makes it complete.
    const extra = await work.newMilestone(started.job, { title: 'Extra' });
    await approve(started, extra.id);
    expect(await complete(started)).toMatchObject({ status: 'completed' });
  });

  it('waits for the job’s open disputes to be resolved', async () => {
    const started = await startJob(1);
    const [milestone] = started.milestones;
    if (!milestone) throw new Error('the plan made no milestone');
    await approve(started, milestone);
    const dispute = await work.call(disputeOps.create, {
      request_id: started.request_id,
      input: { kind: 'dispute', reason: 'Late delivery' },
    });
    expect(await refused(complete(started))).toMatchObject({
      ...openWork,
      message: expect.stringMatching(/1 open dispute/),
    });
    await work.call(disputeOps.escalate, { id: dispute.id, actor: staff });
    expect(await refused(complete(started))).toMatchObject(openWork);
    expect((await raw(started.job.id))?.status).toBe('active');

    await work.call(disputeOps.resolve, {
      id: dispute.id,
      actor: staff,
      resolution: { outcome: 'provider', reason: 'Delivered as agreed' },
    });
    const completed = await complete(started);
    expect(completed).toMatchObject({ status: 'completed', deadline_at: null });
    const [event] = await work.awaitEventsAbout(started.job.id, 1);
    expect(event).toMatchObject({
      type: 'job.completed',
      data: { request_id: started.request_id, object: completed },
    });
    expect(event?.data.sequence).toBeGreaterThan(0);
  });
});

describe('cancelling a job', () => {
  it('needs a reason', async () => {
    const started = await startJob(0);
    const before = await raw(started.job.id);
    expect(
      await refused(work.call(jobOps.cancel, { id: started.job.id, actor: staff, reason: '  ' })),
    ).toMatchObject({ code: 'validation_failed', details: { errors: [{ pointer: '/reason' }] } });
    expect(await raw(started.job.id)).toEqual(before);
  });
});

describe('who sees and completes a job', () => {
  it('shows the job to its request’s customer, its provider and staff only', async () => {
    const started = await startJob(0);
    const other = await startJob(0, started.provider_id);
    const stranger = await startJob(0);
    const { job } = started;

    const get = (party: Party) => work.call(jobOps.get, { id: job.id, party });
    const customer: Party = { role: 'customer', request_id: started.request_id };
    const provider: Party = { role: 'provider', provider_id: started.provider_id };
    for (const party of [customer, provider, { role: 'staff', actor: staff } as Party]) {
      expect(await get(party)).toEqual(job);
    }
    for (const party of strangers(stranger.request_id, stranger.provider_id)) {
      expect(await refused(get(party))).toMatchObject({ code: 'job_not_found' });
    }

    const list = async (party: Party, status?: Job['status']) =>
      (await work.call(jobOps.list, { party, limit: 100, ...(status ? { status } : {}) })).data.map(
        (j) => j.id,
      );
    expect(await list(customer)).toEqual([job.id]);
    expect(await list(provider)).toEqual([other.job.id, job.id]);
    expect(await list(provider, 'cancelled')).toEqual([]);

    // Another provider cannot complete it: job_not_found, nothing changes.
    const before = await raw(job.id);
    expect(
      await refused(work.call(jobOps.complete, { id: job.id, provider_id: stranger.provider_id })),
    ).toMatchObject({ code: 'job_not_found' });
    expect(await raw(job.id)).toEqual(before);
  });
});
