import { beforeAll, describe, expect, it } from '@jest/globals';
import { describeMachine, pathsTo } from '@handoff/service-suites';
import {
  deliverableOps,
  jobOps,
  MILESTONE_MACHINE,
  milestoneOps,
  type Job,
  type MilestoneAction,
  type Party,
} from '@handoff/contracts';
import type { MilestoneDoc } from '../src/store/milestones.ts';
import { sweepMilestones } from '../src/handlers/milestones.ts';
import { DAY, hiddenFrom, refused, strangers, useWork } from './support/work.ts';

const provider_id = 'prv_milestones';
const staff = 'staff-1@handoff.test';

const work = useWork();
let request_id: string;
let job: Job;

beforeAll(async () => {
  ({ request_id, job } = await work.requestWithJob(provider_id, 2_000));
});

const create = (input: { title: string; amount?: number; currency?: string; due_at?: string }) =>
  work.call(milestoneOps.create, { job_id: job.id, provider_id, input });

const review = (id: string, decision: 'approve' | 'request_changes', reason?: string) =>
  work.call(milestoneOps.review, {
    id,
    request_id,
    decision,
    ...(reason === undefined ? {} : { reason }),
  });

const addDeliverable = (milestone_id: string, title = 'Mockups') =>
  work.call(deliverableOps.create, {
    milestone_id,
    provider_id,
    input: { title, url: 'https://example.com/mockups.png' },
  });

/** Each action of the machine, through the bus operation that takes it. */
const act: Record<MilestoneAction, (id: string) => Promise<unknown>> = {
  update_progress: (id) =>
    work.call(milestoneOps.updateProgress, {
      id,
      provider_id,
      input: { progress: 40, note: 'Halfway' },
    }),
  add_deliverable: (id) => addDeliverable(id),
  submit: (id) => work.call(milestoneOps.submit, { id, provider_id, note: 'Ready' }),
  approve: (id) => review(id, 'approve'),
  request_changes: (id) => review(id, 'request_changes', 'The colours are off'),
  cancel: (id) => work.call(milestoneOps.cancel, { id, actor: staff, reason: 'Dropped' }),
};

const paths = pathsTo(MILESTONE_MACHINE);
/** The stored document, once published messages have left its outbox. */
const raw = async (id: string) => {
  await work.service.outbox.flush();
  return work.raw.milestones.findOne({ _id: id });
};

/** A new milestone brought into `state` along the machine's own moves. */
async function milestoneIn(state: keyof typeof paths) {
  const created = await create({ title: `In ${state}` });
  for (const action of paths[state]) await act[action](created.id);
  return created.id;
}

describeMachine(MILESTONE_MACHINE, {
  ...work.documentDriver<Awaited<ReturnType<typeof create>>, MilestoneDoc>(raw),
  create: () => create({ title: 'On the move' }),
  act: (milestone, action) => act[action](milestone.id),
  // A refused move adds no deliverable either.
  sideEffects: (milestone) => work.raw.deliverables.countDocuments({ milestone_id: milestone.id }),
  moved: async ({ handle, action, before, after, answer }) => {
    if (action === 'add_deliverable') {
      // The milestone's news is the deliverable's own creation.
      const deliverable = answer as { id: string; milestone_id: string };
      expect(deliverable.milestone_id).toBe(handle.id);
      const [created] = await work.awaitEventsAbout(deliverable.id, 1);
      expect(created).toMatchObject({ type: 'deliverable.created', data: { request_id } });
    }
    if (action === 'submit') {
      expect(after).toMatchObject({ revision: before.revision + 1, submission_note: 'Ready' });
      expect(after.submitted_at).toEqual(after.updated_at);
    }
    if (action === 'approve') {
      expect(after).toMatchObject({ approved_by: 'customer', approved_at: after.updated_at });
    }
    if (action === 'request_changes') {
      expect(after.change_request_reason).toBe('The colours are off');
    }
    if (action === 'update_progress') {
      expect(after).toMatchObject({ progress: 40, progress_note: 'Halfway' });
    }
  },
});

describe('creating milestones', () => {
  it('adds an open milestone to the provider’s active job, announced as milestone.created', async () => {
    const due_at = new Date(Date.now() + 10 * DAY).toISOString();
    const created = await create({ title: 'Logo', amount: 149.99, due_at });
    expect(created).toMatchObject({
      object: 'milestone',
      request_id,
      job_id: job.id,
      provider_id,
      title: 'Logo',
      amount: 149.99,
      currency: 'USD',
      status: 'open',
      progress: 0,
      revision: 0,
      approved_by: null,
      due_at,
      // With a due date, the open milestone's deadline is the due date.
      deadline_at: due_at,
    });
    expect(created.id).toMatch(/^mst_/);
    expect(await raw(created.id)).toMatchObject({ amount_minor: 14_999, currency: 'USD' });
    const [event] = await work.awaitEventsAbout(created.id, 1);
    expect(event).toMatchObject({ type: 'milestone.created', data: { request_id } });
    expect(event?.data.sequence).toBeGreaterThan(0);

    const plain = await create({ title: 'Copy' });
    expect(plain).toMatchObject({ amount: null, currency: null, due_at: null });
    expect(new Date(plain.deadline_at ?? 0).getTime()).toBe(
      new Date(plain.created_at).getTime() + 30 * DAY,
    );
  });

  it('refuses amounts finer than the currency and currencies other than the job’s', async () => {
    const count = await work.raw.milestones.countDocuments({ job_id: job.id });
    expect(await refused(create({ title: 'X', amount: 10.005 }))).toMatchObject({
      code: 'validation_failed',
      details: { errors: [{ pointer: '/amount', code: 'invalid_precision' }], max_decimals: 2 },
    });
    expect(await refused(create({ title: 'X', amount: 10, currency: 'EUR' }))).toMatchObject({
      code: 'validation_failed',
      details: { errors: [{ pointer: '/currency', code: 'currency_mismatch' }] },
    });
    expect(await work.raw.milestones.countDocuments({ job_id: job.id })).toBe(count);
  });

  it('answers job_not_found for another provider’s job and job_not_active once the job ended', async () => {
    expect(
      await refused(
        work.call(milestoneOps.create, {
          job_id: job.id,
          provider_id: 'prv_other',
          input: { title: 'Sneaky' },
        }),
      ),
    ).toMatchObject({ code: 'job_not_found' });

    const otherRequest = await work.newRequest();
    const ended = await work.newJob(otherRequest, provider_id);
    const open = await work.call(milestoneOps.create, {
      job_id: ended.id,
      provider_id,
      input: { title: 'Before' },
    });
    await work.call(jobOps.cancel, { id: ended.id, actor: staff, reason: 'Stopped' });
    expect(
      await refused(
        work.call(milestoneOps.create, {
          job_id: ended.id,
          provider_id,
          input: { title: 'After' },
        }),
      ),
    ).toMatchObject({ code: 'job_not_active' });
    // Provider work on a milestone of an ended job is refused the same way.
    expect(
      await refused(work.call(milestoneOps.submit, { id: open.id, provider_id })),
    ).toMatchObject({ code: 'job_not_active' });
    expect((await raw(open.id))?.status).toBe('open');
  });
});

describe('reviews', () => {
  it('needs a reason to request changes, and changes nothing without one', async () => {
    const id = await milestoneIn('submitted');
    const before = await raw(id);
    expect(await refused(review(id, 'request_changes'))).toMatchObject({
      code: 'validation_failed',
      details: { errors: [{ pointer: '/reason' }] },
    });
    expect(await refused(review(id, 'request_changes', '   '))).toMatchObject({
      code: 'validation_failed',
      details: { errors: [{ pointer: '/reason' }] },
    });
    expect(await raw(id)).toEqual(before);
  });

  it('moves the submitted deliverables with the review: revision requested, then accepted', async () => {
    const id = await milestoneIn('open');
    const first = await addDeliverable(id, 'First draft');
    const withdrawn = await addDeliverable(id, 'Wrong file');
    await work.call(deliverableOps.withdraw, { id: withdrawn.id, provider_id });
    await act.submit(id);
    const changed = await review(id, 'request_changes', 'Bigger logo');
    expect(changed).toMatchObject({
      status: 'changes_requested',
      change_request_reason: 'Bigger logo',
    });
    const status = async (deliverableId: string) =>
      (await work.raw.deliverables.findOne({ _id: deliverableId }))?.status;
    expect(await status(first.id)).toBe('revision_requested');
    expect(await status(withdrawn.id)).toBe('withdrawn');

    const second = await addDeliverable(id, 'Second draft');
    const resubmitted = await act.submit(id);
    expect(resubmitted).toMatchObject({
      status: 'submitted',
      revision: 2,
      change_request_reason: null,
    });
    expect(await status(second.id)).toBe('submitted');
    const approved = await review(id, 'approve');
    expect(approved).toMatchObject({ status: 'approved', approved_by: 'customer' });
    expect(await status(second.id)).toBe('accepted');
    expect(await status(first.id)).toBe('revision_requested');
    expect(await status(withdrawn.id)).toBe('withdrawn');
    const [raw2] = await work.raw.deliverables.find({ _id: second.id }).toArray();
    expect(raw2?.deadline_at).toBeNull();
  });

  it('lets only the customer of the request review', async () => {
    const id = await milestoneIn('submitted');
    const other = await work.newRequest();
    expect(
      await refused(work.call(milestoneOps.review, { id, request_id: other, decision: 'approve' })),
    ).toMatchObject({ code: 'milestone_not_found' });
    expect(
      await refused(work.call(milestoneOps.submit, { id, provider_id: 'prv_other' })),
    ).toMatchObject({ code: 'milestone_not_found' });
    expect((await raw(id))?.status).toBe('submitted');
  });
});

describe('reading milestones', () => {
  it('shows each party only its own, and filters by job and status', async () => {
    const id = await milestoneIn('open');
    const get = (party: Party) => work.call(milestoneOps.get, { id, party });
    const list = (party: Party, extra: { job_id?: string; status?: 'open' } = {}) =>
      work.call(milestoneOps.list, { party, limit: 100, ...extra });

    expect(await get({ role: 'customer', request_id })).toMatchObject({ id });
    expect(await get({ role: 'provider', provider_id })).toMatchObject({ id });
    expect(await get({ role: 'staff', actor: staff })).toMatchObject({ id });
    await hiddenFrom(strangers('req_someoneelse'), get, list, 'milestone_not_found');
    expect(
      await refused(
        work.call(milestoneOps.get, { id: 'mst_nope', party: { role: 'staff', actor: staff } }),
      ),
    ).toMatchObject({ code: 'milestone_not_found' });

    const mine = await list({ role: 'customer', request_id }, { job_id: job.id });
    expect(mine.data.length).toBeGreaterThan(1);
    expect(mine.data.every((m) => m.request_id === request_id && m.job_id === job.id)).toBe(true);
    // Newest first.
    expect(mine.data[0]?.id).toBe(id);
    const ids = mine.data.map((m) => m.id);
    expect([...ids].sort().reverse()).toEqual(ids);
    const open = await list({ role: 'provider', provider_id }, { status: 'open' });
    expect(open.data.length).toBeGreaterThan(0);
    expect(open.data.every((m) => m.status === 'open' && m.provider_id === provider_id)).toBe(true);
    const page = await work.call(milestoneOps.list, {
      party: { role: 'staff', actor: staff },
      limit: 1,
    });
    expect(page).toMatchObject({ object: 'list', has_more: true });
    expect(page.data).toHaveLength(1);
  });
});

describe('the review deadline', () => {
  it('approves a submitted milestone by deadline once 14 days have passed, accepting its deliverables', async () => {
    const id = await milestoneIn('open');
    const deliverable = await addDeliverable(id);
    await act.submit(id);
    const submitted = await raw(id);
    const submittedAt = submitted?.submitted_at?.getTime() ?? 0;
    const open = await milestoneIn('open');
    const openBefore = await raw(open);

    const { later, event } = await work.sweepAround(
      (now) => sweepMilestones(work.service, now),
      id,
      { state: 'submitted', enteredAt: submittedAt, days: 14 },
      raw,
    );
    expect(await raw(id)).toMatchObject({
      status: 'approved',
      approved_by: 'deadline',
      approved_at: later,
      deadline_at: null,
    });
    expect((await work.raw.deliverables.findOne({ _id: deliverable.id }))?.status).toBe('accepted');
    expect(event).toMatchObject({
      type: 'milestone.approved',
      data: { object: { status: 'approved', approved_by: 'deadline' } },
    });
    // Open milestones have no deadline action: they are only listed as overdue.
    expect(await raw(open)).toEqual(openBefore);
    // Nothing is left for a second pass.
    expect(await sweepMilestones(work.service, later)).toBe(0);
  });

  it('finishes the deliverables of a reviewed milestone that a crash left submitted', async () => {
    const id = await milestoneIn('open');
    const deliverable = await addDeliverable(id);
    await act.submit(id);
    await review(id, 'approve');
    // As if the process died between the approval and its deliverables (after the service's
    // own batched outbox removal, which a raw write must not race on FerretDB).
    await work.service.outbox.flush();
    await work.raw.deliverables.updateOne(
      { _id: deliverable.id },
      { $set: { status: 'submitted' } },
    );
    await sweepMilestones(work.service, new Date());
    expect((await work.raw.deliverables.findOne({ _id: deliverable.id }))?.status).toBe('accepted');
  });

  it('marks a milestone given a deliverable, so that only those reviews look for deliverables', async () => {
    const bare = await milestoneIn('open');
    expect((await raw(bare))?.has_deliverables).toBe(false);
    const given = await milestoneIn('open');
    const deliverable = await addDeliverable(given);
    expect((await raw(given))?.has_deliverables).toBe(true);
    await act.submit(given);
    await review(given, 'approve');
    expect((await work.raw.deliverables.findOne({ _id: deliverable.id }))?.status).toBe('accepted');

    // A deliverable written behind the service's back to a milestone never given one: the
    // review does not look for it, and the sweep's repair finishes it.
    await act.submit(bare);
    const [hidden] = await work.raw.deliverables
      .find({ _id: deliverable.id })
      .project<Record<string, unknown>>({ _id: 0 })
      .toArray();
    await work.raw.deliverables.insertOne({
      ...hidden,
      _id: 'dlv_behind_the_back',
      milestone_id: bare,
      status: 'submitted',
      created_at: new Date(0),
    } as never);
    await review(bare, 'approve');
    const behind = () => work.raw.deliverables.findOne({ _id: 'dlv_behind_the_back' });
    expect((await behind())?.status).toBe('submitted');
    await sweepMilestones(work.service, new Date());
    expect((await behind())?.status).toBe('accepted');
  });

  it('looks for the deliverables of a milestone made before it was marked', async () => {
    const id = await milestoneIn('open');
    const deliverable = await addDeliverable(id);
    await act.submit(id);
    await work.service.outbox.flush();
    await work.raw.milestones.updateOne({ _id: id }, { $unset: { has_deliverables: '' } });
    await review(id, 'approve');
    expect((await work.raw.deliverables.findOne({ _id: deliverable.id }))?.status).toBe('accepted');
  });
});
