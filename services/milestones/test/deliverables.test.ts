import { beforeAll, describe, expect, it } from '@jest/globals';
import { describeMachine } from '@handoff/service-suites';
import {
  DELIVERABLE_MACHINE,
  deliverableOps,
  milestoneOps,
  type DeliverableAction,
  type Job,
  type Party,
} from '@handoff/contracts';
import type { DeliverableDoc } from '../src/store/deliverables.ts';
import { moveDeliverable } from '../src/handlers/milestones.ts';
import { DAY, hiddenFrom, refused, strangers, useWork } from './support/work.ts';

const provider_id = 'prv_deliverables';
const staff = { role: 'staff', actor: 'staff-1@handoff.test' } as const;

const work = useWork();
let request_id: string;
let job: Job;

beforeAll(async () => {
  ({ request_id, job } = await work.requestWithJob(provider_id));
});

const newMilestone = async () => (await work.newMilestone(job, { title: 'Build' })).id;

const create = (milestone_id: string, by = provider_id) =>
  work.call(deliverableOps.create, {
    milestone_id,
    provider_id: by,
    input: { title: 'Site', url: 'https://example.com/site', description: 'Staging build' },
  });

const submitMilestone = (id: string) => work.call(milestoneOps.submit, { id, provider_id });
const review = (id: string, decision: 'approve' | 'request_changes') =>
  work.call(milestoneOps.review, {
    id,
    request_id,
    decision,
    ...(decision === 'request_changes' ? { reason: 'Redo' } : {}),
  });

/** The stored document, once published messages have left its outbox. */
const raw = async (id: string) => {
  await work.service.outbox.flush();
  return work.raw.deliverables.findOne({ _id: id });
};

/**
 * Each action of the machine as it happens: the provider withdraws through the bus; accepting
 * and asking for a revision follow the review of the deliverable's milestone.
 */
const act: Record<
  DeliverableAction,
  (d: { id: string; milestone_id: string }) => Promise<unknown>
> = {
  accept: async (d) => {
    await submitMilestone(d.milestone_id);
    await review(d.milestone_id, 'approve');
  },
  request_revision: async (d) => {
    await submitMilestone(d.milestone_id);
    await review(d.milestone_id, 'request_changes');
  },
  withdraw: (d) => work.call(deliverableOps.withdraw, { id: d.id, provider_id }),
};

describeMachine(DELIVERABLE_MACHINE, {
  ...work.documentDriver<Awaited<ReturnType<typeof create>>, DeliverableDoc>(raw),
  create: async () => create(await newMilestone()),
  act: (deliverable, action) => act[action](deliverable),
  // The provider's withdrawal through the bus; the system's moves through the domain code that a
  // milestone review runs (no operation lets anybody ask for them, and the review itself would
  // be refused first).
  attempt: (deliverable, action) =>
    action === 'withdraw'
      ? act.withdraw(deliverable)
      : moveDeliverable(work.service, deliverable.id, action),
});

describe('the deliverable machine', () => {
  it('announces no change after creation: the milestone’s event tells them', () => {
    for (const action of Object.keys(DELIVERABLE_MACHINE.events) as DeliverableAction[]) {
      expect(DELIVERABLE_MACHINE.events[action]).toBeNull();
    }
  });
});

describe('creating deliverables', () => {
  it('attaches a submitted deliverable to the milestone, announced as deliverable.created', async () => {
    const milestone_id = await newMilestone();
    const created = await create(milestone_id);
    expect(created).toMatchObject({
      object: 'deliverable',
      request_id,
      job_id: job.id,
      milestone_id,
      provider_id,
      title: 'Site',
      url: 'https://example.com/site',
      description: 'Staging build',
      status: 'submitted',
    });
    expect(created.id).toMatch(/^dlv_/);
    expect(new Date(created.deadline_at ?? 0).getTime()).toBe(
      new Date(created.created_at).getTime() + 14 * DAY,
    );
    const [event] = await work.awaitEventsAbout(created.id, 1);
    expect(event).toMatchObject({
      type: 'deliverable.created',
      data: { request_id, object: { id: created.id, status: 'submitted' } },
    });
  });

  it('refuses a milestone under review, naming only the moves the provider may take', async () => {
    const milestone_id = await newMilestone();
    await submitMilestone(milestone_id);
    expect(await refused(create(milestone_id))).toMatchObject({
      code: 'invalid_state_transition',
      details: {
        resource: 'milestone',
        current_state: 'submitted',
        action: 'add_deliverable',
        // The review (customer) and cancellation (staff) are not the provider's to take.
        allowed_actions: [],
      },
      message:
        'cannot add a deliverable to a milestone that is submitted; no move of yours is allowed in that state.',
    });
    expect(await work.raw.deliverables.countDocuments({ milestone_id })).toBe(0);
  });

  it('answers milestone_not_found on another provider’s milestone', async () => {
    const milestone_id = await newMilestone();
    expect(await refused(create(milestone_id, 'prv_other'))).toMatchObject({
      code: 'milestone_not_found',
    });
    expect(await refused(create('mst_unknown'))).toMatchObject({ code: 'milestone_not_found' });
    expect(await work.raw.deliverables.countDocuments({ milestone_id })).toBe(0);
  });
});

describe('withdrawing deliverables', () => {
  it('waits until the milestone is reviewed, and only the provider may', async () => {
    const milestone_id = await newMilestone();
    const deliverable = await create(milestone_id);
    expect(
      await refused(
        work.call(deliverableOps.withdraw, { id: deliverable.id, provider_id: 'prv_other' }),
      ),
    ).toMatchObject({ code: 'deliverable_not_found' });
    await submitMilestone(milestone_id);
    const before = await raw(deliverable.id);
    expect(await refused(act.withdraw(deliverable))).toMatchObject({
      code: 'milestone_under_review',
    });
    expect(await raw(deliverable.id)).toEqual(before);
  });
});

describe('reading deliverables', () => {
  it('shows each party only its own, and filters by milestone and status', async () => {
    const milestone_id = await newMilestone();
    const first = await create(milestone_id);
    const second = await create(milestone_id);
    await act.withdraw(second);
    const get = (party: Party) => work.call(deliverableOps.get, { id: first.id, party });
    const list = (
      party: Party,
      extra: { milestone_id?: string; status?: 'submitted' | 'withdrawn' } = {},
    ) => work.call(deliverableOps.list, { party, limit: 100, ...extra });

    for (const party of [
      { role: 'customer', request_id },
      { role: 'provider', provider_id },
      staff,
    ] as Party[]) {
      expect(await get(party)).toMatchObject({ id: first.id });
    }
    await hiddenFrom(strangers(), get, list, 'deliverable_not_found');
    const ofMilestone = await list({ role: 'customer', request_id }, { milestone_id });
    expect(ofMilestone.data.map((d) => d.id)).toEqual([second.id, first.id]);
    const withdrawn = await list(staff, { milestone_id, status: 'withdrawn' });
    expect(withdrawn.data.map((d) => d.id)).toEqual([second.id]);
    const page = await work.call(deliverableOps.list, { party: staff, milestone_id, limit: 1 });
    expect(page).toMatchObject({ has_more: true, data: [{ id: second.id }] });
  });
});
