import { beforeAll, describe, expect, it } from '@jest/globals';
import { describeMachine } from '@handoff/service-suites';
import {
  deadlineFor,
  DISPUTE_MACHINE,
  disputeOps,
  ENGAGEMENT_LIMITS,
  jobOps,
  type DisputeAction,
  type DisputeCreate,
  type Job,
  type Party,
} from '@handoff/contracts';
import { sweepDisputes } from '../src/handlers/disputes.ts';
import type { DisputeCommentDoc, DisputeDoc } from '../src/store/disputes.ts';
import { DAY, hiddenFrom, refused, strangers, useWork } from './support/work.ts';

const provider_id = 'prv_disputes';
const actor = 'staff-1@handoff.test';
const staff = { role: 'staff', actor } as const;

const work = useWork();
let request_id: string;
let job: Job;

beforeAll(async () => {
  ({ request_id, job } = await work.requestWithJob(provider_id, 500));
});

const open = (input: Partial<DisputeCreate> = {}, request = request_id) =>
  work.call(disputeOps.create, {
    request_id: request,
    input: { kind: 'dispute', reason: 'Not delivered', ...input },
  });

const comment = (id: string, party: Party, message = 'Any news?') =>
  work.call(disputeOps.comment, { id, party, message });

/** Each action of the machine, through the bus operation that takes it. */
const act: Record<DisputeAction, (id: string) => Promise<unknown>> = {
  comment: (id) => comment(id, { role: 'provider', provider_id }, 'I delivered on Monday'),
  escalate: (id) => work.call(disputeOps.escalate, { id, actor }),
  resolve: (id) =>
    work.call(disputeOps.resolve, {
      id,
      actor,
      resolution: { outcome: 'split', reason: 'Half was delivered', customer_share_percent: 50 },
    }),
  withdraw: (id) => work.call(disputeOps.withdraw, { id, request_id }),
};

/** The stored document, once published messages have left its outbox. */
const raw = async (id: string) => {
  await work.service.outbox.flush();
  return work.raw.disputes.findOne({ _id: id });
};

describeMachine(DISPUTE_MACHINE, {
  ...work.documentDriver<Awaited<ReturnType<typeof open>>, DisputeDoc>(raw),
  create: () => open(),
  act: (dispute, action) => act[action](dispute.id),
  // The comment is the provider's here; the other actions have their own parties.
  by: (action) => (action === 'comment' ? 'provider' : undefined),
  moved: ({ action, after }) => {
    if (action === 'comment') {
      expect(after.comments.at(-1)).toMatchObject({
        author_role: 'provider',
        author: null,
        message: 'I delivered on Monday',
      });
    }
    if (action === 'resolve') {
      expect(after.resolution).toMatchObject({
        outcome: 'split',
        reason: 'Half was delivered',
        customer_share_percent: 50,
        resolved_by: actor,
        resolved_at: after.updated_at,
      });
    }
  },
});

describe('opening a case', () => {
  it('opens on the request’s job, against its provider, announced as dispute.created', async () => {
    const milestone = await work.newMilestone(job, { title: 'Design' });
    const created = await open({
      kind: 'refund',
      reason: 'Charged twice',
      milestone_id: milestone.id,
      amount: 120.5,
    });
    expect(created).toMatchObject({
      object: 'dispute',
      request_id,
      job_id: job.id,
      milestone_id: milestone.id,
      provider_id,
      kind: 'refund',
      reason: 'Charged twice',
      amount: 120.5,
      currency: 'USD',
      status: 'open',
      comments: [],
      resolution: null,
    });
    expect(created.id).toMatch(/^dsp_/);
    expect(new Date(created.deadline_at ?? 0).getTime()).toBe(
      new Date(created.created_at).getTime() + 7 * DAY,
    );
    expect(await raw(created.id)).toMatchObject({ amount_minor: 12_050, currency: 'USD' });
    const [event] = await work.awaitEventsAbout(created.id, 1);
    expect(event).toMatchObject({ type: 'dispute.created', data: { request_id } });
  });

  it('answers no_job before the request has a job, and after its only job was cancelled', async () => {
    const bare = await work.newRequest();
    expect(await refused(open({}, bare))).toMatchObject({
      code: 'no_job',
    });
    expect(await work.raw.disputes.countDocuments({ request_id: bare })).toBe(0);

    const cancelledRequest = await work.newRequest();
    const cancelled = await work.newJob(cancelledRequest, provider_id);
    await work.call(jobOps.cancel, { id: cancelled.id, actor, reason: 'Stopped' });
    expect(await refused(open({}, cancelledRequest))).toMatchObject({
      code: 'no_job',
    });
  });

  it('refuses a milestone of another job, and amounts the job cannot carry', async () => {
    const other = await work.requestWithJob(provider_id);
    const foreign = await work.newMilestone(other.job, { title: 'Elsewhere' });
    const count = await work.raw.disputes.countDocuments({ request_id });
    expect(await refused(open({ milestone_id: foreign.id }))).toMatchObject({
      code: 'validation_failed',
      details: { errors: [{ pointer: '/milestone_id' }] },
    });
    expect(await refused(open({ milestone_id: 'mst_unknown' }))).toMatchObject({
      code: 'validation_failed',
      details: { errors: [{ pointer: '/milestone_id' }] },
    });
    expect(await refused(open({ kind: 'refund', amount: 10.001 }))).toMatchObject({
      code: 'validation_failed',
      details: { errors: [{ pointer: '/amount', code: 'invalid_precision' }] },
    });
    expect(await refused(open({ kind: 'refund', amount: 10, currency: 'JPY' }))).toMatchObject({
      code: 'validation_failed',
      details: { errors: [{ pointer: '/currency' }] },
    });
    expect(await refused(open({ kind: 'refund', amount: 500.01 }))).toMatchObject({
      code: 'validation_failed',
      details: { errors: [{ pointer: '/amount', code: 'exceeds_job_amount' }] },
    });
    expect(await work.raw.disputes.countDocuments({ request_id })).toBe(count);
  });
});

describe('the parties of a case', () => {
  it('takes comments from the customer, the provider and staff, and nobody else', async () => {
    const { id } = await open();
    await comment(id, { role: 'customer', request_id }, '  Where is it?  ');
    await comment(id, { role: 'provider', provider_id }, 'Sent today');
    const last = await comment(id, staff, 'Looking into it');
    expect(last.comments).toEqual([
      { author_role: 'customer', message: 'Where is it?', created_at: expect.any(String) },
      { author_role: 'provider', message: 'Sent today', created_at: expect.any(String) },
      { author_role: 'staff', message: 'Looking into it', created_at: expect.any(String) },
    ]);
    // Staff's identity is kept for the record, never shown.
    expect((await raw(id))?.comments.at(-1)?.author).toBe(actor);
    const before = await raw(id);
    for (const party of strangers()) {
      expect(await refused(comment(id, party))).toMatchObject({ code: 'dispute_not_found' });
    }
    expect(await refused(comment(id, staff, '   '))).toMatchObject({
      code: 'validation_failed',
      details: { errors: [{ pointer: '/message' }] },
    });
    expect(await raw(id)).toEqual(before);
  });

  it(`stops at ${ENGAGEMENT_LIMITS.comments} comments with comment_limit_reached`, async () => {
    const { id } = await open();
    const filler: DisputeCommentDoc[] = Array.from(
      { length: ENGAGEMENT_LIMITS.comments - 1 },
      (_, i) => ({
        author_role: 'customer',
        author: null,
        message: `#${i}`,
        created_at: new Date(),
      }),
    );
    // The first 199 as stored documents (199 calls would only slow the suite down). The
    // service's own batched outbox removal goes first: FerretDB rewrites a whole document on
    // update, so a raw write racing it from outside the service's serializer could be lost.
    await work.service.outbox.flush();
    await work.raw.disputes.updateOne({ _id: id }, { $set: { comments: filler } });
    const full = await comment(id, { role: 'customer', request_id }, 'The last one');
    expect(full.comments).toHaveLength(ENGAGEMENT_LIMITS.comments);
    const before = await raw(id);
    expect(await refused(comment(id, { role: 'provider', provider_id }))).toMatchObject({
      code: 'comment_limit_reached',
    });
    expect(await raw(id)).toEqual(before);
  });

  it('lets only the customer of the request withdraw; a resolution does not show who resolved', async () => {
    const { id } = await open();
    expect(
      await refused(work.call(disputeOps.withdraw, { id, request_id: 'req_other' })),
    ).toMatchObject({ code: 'dispute_not_found' });
    const resolved = await work.call(disputeOps.resolve, {
      id,
      actor,
      resolution: { outcome: 'customer', reason: 'Refund due' },
    });
    expect(resolved).toMatchObject({
      status: 'resolved',
      deadline_at: null,
      resolution: { outcome: 'customer', reason: 'Refund due', customer_share_percent: null },
    });
    expect(resolved.resolution).not.toHaveProperty('resolved_by');
  });

  it('shows each party only its own cases', async () => {
    const { id } = await open();
    const get = (party: Party) => work.call(disputeOps.get, { id, party });
    const list = (party: Party, status?: 'open') =>
      work.call(disputeOps.list, { party, limit: 100, ...(status ? { status } : {}) });
    for (const party of [
      { role: 'customer', request_id },
      { role: 'provider', provider_id },
      staff,
    ] as Party[]) {
      expect(await get(party)).toMatchObject({ id });
      expect((await list(party)).data.map((d) => d.id)).toContain(id);
    }
    await hiddenFrom(strangers(), get, list, 'dispute_not_found');
    const opened = await list({ role: 'customer', request_id }, 'open');
    expect(opened.data.every((d) => d.status === 'open' && d.request_id === request_id)).toBe(true);
    expect(opened.data[0]?.id).toBe(id);
  });
});

describe('the dispute deadline', () => {
  it('escalates open cases to staff review once 7 days have passed', async () => {
    const { id, created_at } = await open();
    const reviewing = await open();
    await act.escalate(reviewing.id);
    const reviewingBefore = await raw(reviewing.id);
    const enteredAt = new Date(created_at).getTime();

    const { later, event } = await work.sweepAround(
      (now) => sweepDisputes(work.service, now),
      id,
      { state: 'open', enteredAt, days: 7 },
      raw,
    );
    expect(await raw(id)).toMatchObject({
      status: 'under_review',
      updated_at: later,
      deadline_at: deadlineFor(DISPUTE_MACHINE, 'under_review', later),
    });
    expect(event).toMatchObject({
      type: 'dispute.updated',
      data: { object: { id, status: 'under_review' } },
    });
    // Under review has no deadline action: staff see it as overdue instead.
    expect(await raw(reviewing.id)).toEqual(reviewingBefore);
    expect(await sweepDisputes(work.service, later)).toBe(0);
  });
});
