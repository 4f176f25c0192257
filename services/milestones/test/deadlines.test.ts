import { beforeAll, describe, expect, it } from '@jest/globals';
import {
  deliverableOps,
  DELIVERABLE_MACHINE,
  DISPUTE_MACHINE,
  disputeOps,
  JOB_MACHINE,
  MILESTONE_MACHINE,
  milestoneOps,
  milestonesDeadlineOps,
  PROPOSAL_MACHINE,
  proposalOps,
  type DeadlineItem,
  type Job,
} from '@handoff/contracts';
import { eventually } from '@handoff/testkit';
import { startDeadlineSweep } from '../src/handlers/deadlines.ts';
import { DAY, refused, useWork } from './support/work.ts';

const provider_id = 'prv_deadlines';
const actor = 'staff-1@handoff.test';

const work = useWork();
let request_id: string;
let job: Job;
/** The resources this file set up, by what they are. */
const ids: Record<string, string> = {};

const list = (query: { before?: string; overdue?: boolean; limit?: number } = {}) =>
  work.call(milestonesDeadlineOps.list, { limit: 500, ...query });

beforeAll(async () => {
  ({ request_id, job } = await work.requestWithJob(provider_id));
  ids.job = job.id;

  const proposalRequest = await work.newRequest();
  ids.proposal = (
    await work.call(proposalOps.create, {
      request_id: proposalRequest,
      provider_id,
      provider_name: 'Deadline Provider',
      input: { message: 'Let me', amount: 300 },
    })
  ).id;

  const milestone = (title: string, due_at?: string) =>
    work.newMilestone(job, { title, ...(due_at ? { due_at } : {}) });
  // Due yesterday: overdue already.
  ids.late = (await milestone('Late', new Date(Date.now() - DAY).toISOString())).id;
  ids.open = (await milestone('Open')).id;
  ids.submitted = (await milestone('Submitted')).id;
  ids.deliverable = (
    await work.call(deliverableOps.create, {
      milestone_id: ids.submitted,
      provider_id,
      input: { title: 'Files', url: 'https://example.com/files' },
    })
  ).id;
  await work.call(milestoneOps.submit, { id: ids.submitted, provider_id });
  ids.dispute = (
    await work.call(disputeOps.create, { request_id, input: { kind: 'dispute', reason: 'Slow' } })
  ).id;
  ids.reviewing = (
    await work.call(disputeOps.create, {
      request_id,
      input: { kind: 'refund', reason: 'Refund', amount: 10 },
    })
  ).id;
  await work.call(disputeOps.escalate, { id: ids.reviewing, actor });
});

const byId = (items: DeadlineItem[]) => new Map(items.map((item) => [item.id, item]));

describe('deadlines.list', () => {
  it('lists every waiting resource soonest first, with whom it waits on and what then happens', async () => {
    const { data, has_more } = await list();
    expect(has_more).toBe(false);
    const times = data.map((item) => item.deadline_at);
    expect([...times].sort()).toEqual(times);

    const items = byId(data);
    const expected = [
      [ids.proposal, PROPOSAL_MACHINE, 'submitted'],
      [ids.job, JOB_MACHINE, 'active'],
      [ids.late, MILESTONE_MACHINE, 'open'],
      [ids.open, MILESTONE_MACHINE, 'open'],
      [ids.submitted, MILESTONE_MACHINE, 'submitted'],
      [ids.deliverable, DELIVERABLE_MACHINE, 'submitted'],
      [ids.dispute, DISPUTE_MACHINE, 'open'],
      [ids.reviewing, DISPUTE_MACHINE, 'under_review'],
    ] as const;
    for (const [id, machine, state] of expected) {
      const waiting = (
        machine.waiting as Record<string, { waiting_on: string; consequence: string }>
      )[state];
      expect(items.get(id ?? '')).toMatchObject({
        object: 'deadline',
        resource: machine.resource,
        id,
        state,
        waiting_on: waiting?.waiting_on,
        consequence: waiting?.consequence,
        overdue: id === ids.late,
      });
    }
    expect(items.get(ids.submitted ?? '')?.consequence).toMatch(/approved automatically/);
    expect(items.get(ids.dispute ?? '')?.request_id).toBe(request_id);
    // The overdue milestone comes first. The accepted proposal waits on nobody: not listed.
    expect(data[0]?.id).toBe(ids.late);
    expect(items.has(job.proposal_id)).toBe(false);
  });

  it('filters overdue items and those due before a time', async () => {
    const overdue = await list({ overdue: true });
    expect(overdue.data.map((item) => item.id)).toEqual([ids.late]);
    const notYet = await list({ overdue: false });
    expect(notYet.data.every((item) => !item.overdue)).toBe(true);
    expect(notYet.data.map((item) => item.id)).not.toContain(ids.late);

    // Within ten days: the late milestone and the open dispute (7 days), not the 14-day ones.
    const soon = await list({ before: new Date(Date.now() + 10 * DAY).toISOString() });
    expect(soon.data.map((item) => item.id)).toEqual([ids.late, ids.dispute]);
    expect(
      (await list({ before: new Date(Date.now() + 10 * DAY).toISOString(), overdue: false })).data,
    ).toMatchObject([{ id: ids.dispute }]);
    expect(await refused(list({ before: 'yesterday' }))).toMatchObject({
      code: 'validation_failed',
      details: { errors: [{ pointer: '/before' }] },
    });
  });

  it('pages by limit, saying whether more wait', async () => {
    const all = await list();
    const firstTwo = await list({ limit: 2 });
    expect(firstTwo).toEqual({ object: 'list', data: all.data.slice(0, 2), has_more: true });
    expect((await list({ limit: all.data.length })).has_more).toBe(false);
  });
});

describe('the deadline sweep', () => {
  it('runs at start and on its interval, applying due deadline actions, and stops cleanly', async () => {
    // Age a submitted milestone and an open case past their deadlines.
    const past = new Date(Date.now() - 1_000);
    await work.service.outbox.flush();
    await work.raw.milestones.updateOne({ _id: ids.submitted }, { $set: { deadline_at: past } });
    await work.raw.disputes.updateOne({ _id: ids.dispute }, { $set: { deadline_at: past } });

    const stop = startDeadlineSweep(work.service, 100);
    try {
      await eventually(
        async () => {
          const milestone = await work.raw.milestones.findOne({ _id: ids.submitted });
          return milestone?.status === 'approved' ? milestone : undefined;
        },
        { what: 'the milestone approved by deadline' },
      );
      await eventually(
        async () =>
          (await work.raw.disputes.findOne({ _id: ids.dispute }))?.status === 'under_review'
            ? true
            : undefined,
        { what: 'the case escalated' },
      );
    } finally {
      await stop();
    }
    expect(await work.raw.milestones.findOne({ _id: ids.submitted })).toMatchObject({
      approved_by: 'deadline',
    });
    expect((await work.raw.deliverables.findOne({ _id: ids.deliverable }))?.status).toBe(
      'accepted',
    );
    // Neither is waiting on a deadline action any more.
    const items = byId((await list()).data);
    expect(items.has(ids.submitted ?? '')).toBe(false);
    expect(items.get(ids.dispute ?? '')).toMatchObject({ state: 'under_review', overdue: false });
  });
});
