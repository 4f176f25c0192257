import { describe, expect, it } from '@jest/globals';
import { describeMachine } from '@handoff/service-suites';
import {
  deadlineFor,
  JOB_MACHINE,
  MILESTONE_MACHINE,
  newId,
  PROPOSAL_MACHINE,
  proposalOps,
  type Party,
  type ProposalAction,
  type ProposalCreate,
} from '@handoff/contracts';
import type { ProposalDoc } from '../src/store/proposals.ts';
import { ANOTHER_ACCEPTED } from '../src/domain/proposals.ts';
import {
  adoptProposalSlots,
  materializePending,
  proposalDeadlineMove,
  sweepProposals,
} from '../src/handlers/proposals.ts';
import { listFilter } from '../src/store/queries.ts';
import { DAY, refused, strangers, useWork } from './support/work.ts';

const work = useWork();

/** The stored document, once published messages have left its outbox. */
const raw = async (id: string) => {
  await work.service.outbox.flush();
  return work.raw.proposals.findOne({ _id: id });
};

function propose(
  request_id: string,
  provider_id = newId('prv'),
  input: Partial<ProposalCreate> = {},
) {
  return work.call(proposalOps.create, {
    request_id,
    provider_id,
    provider_name: 'Ada Studio',
    input: { message: 'We can build it', amount: 1_500, ...input },
  });
}

const accept = (id: string, request_id: string) =>
  work.call(proposalOps.accept, { id, request_id });

type Created = Awaited<ReturnType<typeof propose>>;

/** Each action of the machine, the way its actor takes it: over the bus, or as the sweep does. */
const act: Record<ProposalAction, (proposal: Created) => Promise<unknown>> = {
  accept: (p) => accept(p.id, p.request_id),
  decline: (p) =>
    work.call(proposalOps.decline, { id: p.id, request_id: p.request_id, reason: 'Too expensive' }),
  withdraw: (p) => work.call(proposalOps.withdraw, { id: p.id, provider_id: p.provider_id }),
  // The system's action on a passed deadline: the very function the sweep applies.
  expire: (p) => proposalDeadlineMove(work.service, p.id, 'expire', new Date()),
};

describeMachine(PROPOSAL_MACHINE, {
  ...work.documentDriver<Created, ProposalDoc>(raw),
  // A new proposal, on a request of its own.
  create: async () => propose(await work.newRequest()),
  act: (proposal, action) => act[action](proposal),
  moved: ({ action, after }) => {
    expect(after.decided_at).toEqual(after.updated_at);
    if (action === 'decline') expect(after.decline_reason).toBe('Too expensive');
    if (action === 'accept') expect(after.job_id).toMatch(/^job_/);
  },
});

describe('creating proposals', () => {
  it('stores the amounts in minor units, starts the 14-day clock and announces proposal.received', async () => {
    const request_id = await work.newRequest();
    const provider_id = newId('prv');
    const created = await propose(request_id, provider_id, {
      amount: 1_234.5,
      currency: 'EUR',
      estimated_days: 20,
      milestones: [
        { title: 'Design', amount: 400.25, due_in_days: 7, description: 'Wireframes' },
        { title: 'Build' },
      ],
    });
    expect(created).toMatchObject({
      object: 'proposal',
      request_id,
      provider_id,
      provider_name: 'Ada Studio',
      amount: 1_234.5,
      currency: 'EUR',
      estimated_days: 20,
      milestones: [
        { title: 'Design', description: 'Wireframes', amount: 400.25, due_in_days: 7 },
        { title: 'Build', description: null, amount: null, due_in_days: null },
      ],
      status: 'submitted',
      job_id: null,
      decline_reason: null,
      decided_at: null,
    });
    expect(created.id).toMatch(/^prp_/);
    expect(new Date(created.deadline_at ?? 0).getTime()).toBe(
      new Date(created.created_at).getTime() + 14 * DAY,
    );
    expect(await raw(created.id)).toMatchObject({
      amount_minor: 123_450,
      currency: 'EUR',
      milestones: [{ amount_minor: 40_025 }, { amount_minor: null }],
      materialized: false,
    });
    const [event] = await work.awaitEventsAbout(created.id, 1);
    expect(event).toMatchObject({
      type: 'proposal.received',
      data: { request_id, object: created },
    });
    expect(event?.data.sequence).toBeGreaterThan(0);
  });

  it('refuses amounts finer than the currency, pointing at the amount', async () => {
    const request_id = await work.newRequest();
    expect(await refused(propose(request_id, undefined, { amount: 10.005 }))).toMatchObject({
      code: 'validation_failed',
      details: { errors: [{ pointer: '/amount', code: 'invalid_precision' }], max_decimals: 2 },
    });
    expect(
      await refused(
        propose(request_id, undefined, {
          amount: 1_000,
          currency: 'JPY',
          milestones: [{ title: 'Half', amount: 500.5 }],
        }),
      ),
    ).toMatchObject({
      code: 'validation_failed',
      details: { errors: [{ pointer: '/milestones/0/amount', code: 'invalid_precision' }] },
    });
    expect(await work.raw.proposals.countDocuments({ request_id })).toBe(0);
  });

  it('allows one open proposal per provider and request (proposal_exists)', async () => {
    const request_id = await work.newRequest();
    const provider_id = newId('prv');
    const first = await propose(request_id, provider_id);
    expect(await refused(propose(request_id, provider_id))).toMatchObject({
      code: 'proposal_exists',
    });
    // Another provider may propose; the first may again once its proposal is withdrawn.
    await propose(request_id);
    await work.call(proposalOps.withdraw, { id: first.id, provider_id });
    const again = await propose(request_id, provider_id, { amount: 1_200 });
    expect(again).toMatchObject({ status: 'submitted', amount: 1_200 });
    expect(await work.raw.proposals.countDocuments({ request_id, provider_id })).toBe(2);
    // The open one holds the provider's place on the request; the withdrawn one holds nothing.
    expect(await raw(again.id)).toMatchObject({ slot: `${request_id}/${provider_id}` });
    expect(await raw(first.id)).toMatchObject({ slot: first.id });
  });

  it('refuses proposals once a proposal of the request was accepted (request_not_open)', async () => {
    const request_id = await work.newRequest();
    const winner = await propose(request_id);
    await accept(winner.id, request_id);
    expect(await refused(propose(request_id))).toMatchObject({
      code: 'request_not_open',
    });
    expect(await work.raw.proposals.countDocuments({ request_id })).toBe(1);
    expect(await raw(winner.id)).toMatchObject({ slot: request_id });
  });

  it('has the database refuse a second holder of a slot, whichever replica writes it', async () => {
    const open = await propose(await work.newRequest());
    const accepted = await propose(await work.newRequest());
    await accept(accepted.id, accepted.request_id);
    for (const taken of [open, accepted]) {
      const stored = await raw(taken.id);
      expect(stored?.slot).toBeDefined();
      if (!stored) return;
      await expect(
        work.raw.proposals.insertOne({ ...stored, _id: newId('prp') }),
      ).rejects.toMatchObject({ code: 11000 });
    }
  });

  it('gives proposals stored before slots theirs at start, and holds them to the same rules', async () => {
    const open = await propose(await work.newRequest());
    const accepted = await propose(await work.newRequest());
    await accept(accepted.id, accepted.request_id);
    const withdrawn = await propose(await work.newRequest());
    await act.withdraw(withdrawn);
    // As they were stored before the slot existed.
    const ids = [open.id, accepted.id, withdrawn.id];
    await work.raw.proposals.updateMany({ _id: { $in: ids } }, { $unset: { slot: '' } });

    expect(await adoptProposalSlots(work.service)).toBe(3);
    expect(await raw(open.id)).toMatchObject({ slot: `${open.request_id}/${open.provider_id}` });
    expect(await raw(accepted.id)).toMatchObject({ slot: accepted.request_id });
    expect(await raw(withdrawn.id)).toMatchObject({ slot: withdrawn.id });
    expect(await adoptProposalSlots(work.service)).toBe(0);

    expect(await refused(propose(open.request_id, open.provider_id))).toMatchObject({
      code: 'proposal_exists',
    });
    expect(await refused(propose(accepted.request_id))).toMatchObject({
      code: 'request_not_open',
    });
    await propose(withdrawn.request_id, withdrawn.provider_id);
  });
});

describe('accepting a proposal', () => {
  it('starts the job with the planned milestones and declines the other proposals', async () => {
    const request_id = await work.newRequest();
    const provider_id = newId('prv');
    const other = await propose(request_id);
    const withdrawn = await propose(request_id);
    await work.call(proposalOps.withdraw, { id: withdrawn.id, provider_id: withdrawn.provider_id });
    const chosen = await propose(request_id, provider_id, {
      amount: 3_000,
      milestones: [
        { title: 'Design', amount: 1_000, due_in_days: 10 },
        { title: 'Build', amount: 2_000 },
        { title: 'Launch' },
      ],
    });
    await work.caughtUp();
    const otherEvents = work.eventsAbout(other.id).length;

    const { proposal, job } = await accept(chosen.id, request_id);
    expect(proposal).toMatchObject({
      id: chosen.id,
      status: 'accepted',
      job_id: job.id,
      deadline_at: null,
    });
    expect(proposal.decided_at).not.toBeNull();
    const at = new Date(proposal.decided_at ?? 0).getTime();
    expect(job).toMatchObject({
      object: 'job',
      request_id,
      proposal_id: chosen.id,
      provider_id,
      amount: 3_000,
      currency: 'USD',
      status: 'active',
      cancel_reason: null,
      completed_at: null,
    });
    expect(job.id).toMatch(/^job_/);
    expect(job.deadline_at).toBe(
      deadlineFor(JOB_MACHINE, 'active', new Date(at))?.toISOString() ?? null,
    );
    expect(await work.raw.jobs.findOne({ _id: job.id })).toMatchObject({ amount_minor: 300_000 });
    expect(await raw(chosen.id)).toMatchObject({ materialized: true });

    // The plan's milestones, open, in the plan's order, each announced as milestone.created.
    const milestones = await work.raw.milestones
      .find({ job_id: job.id })
      .sort({ _id: 1 })
      .toArray();
    expect(milestones.map((m) => [m.title, m.amount_minor, m.status])).toEqual([
      ['Design', 100_000, 'open'],
      ['Build', 200_000, 'open'],
      ['Launch', null, 'open'],
    ]);
    const [design, build, launch] = milestones;
    expect(design?.due_at).toEqual(new Date(at + 10 * DAY));
    expect(design?.deadline_at).toEqual(design?.due_at);
    expect(build?.due_at).toBeNull();
    expect(build?.deadline_at).toEqual(deadlineFor(MILESTONE_MACHINE, 'open', new Date(at)));
    expect(launch).toMatchObject({ currency: null, provider_id, request_id });
    const [acceptedEvent] = (await work.awaitEventsAbout(chosen.id, 2)).slice(1);
    expect(acceptedEvent).toMatchObject({
      type: 'proposal.accepted',
      data: { request_id, object: proposal },
    });
    for (const milestone of milestones) {
      const [created] = await work.awaitEventsAbout(milestone._id, 1);
      expect(created).toMatchObject({
        type: 'milestone.created',
        data: { request_id, object: { id: milestone._id, job_id: job.id, status: 'open' } },
      });
      // The acceptance is announced before the work it started.
      expect(created?.data.sequence).toBeGreaterThan(acceptedEvent?.data.sequence ?? Infinity);
    }
    // The job's start is announced by proposal.accepted, not by an event of its own.
    expect(work.eventsAbout(job.id)).toHaveLength(0);

    // The other open proposal is declined by the system, which tells its provider with
    // proposal.declined; the withdrawn one stays so.
    expect(await raw(other.id)).toMatchObject({
      status: 'declined',
      decline_reason: ANOTHER_ACCEPTED,
      deadline_at: null,
    });
    expect((await raw(withdrawn.id))?.status).toBe('withdrawn');
    const declinedEvents = await work.awaitEventsAbout(other.id, otherEvents + 1);
    expect(declinedEvents.at(-1)).toMatchObject({
      type: 'proposal.declined',
      data: {
        request_id,
        object: { id: other.id, status: 'declined', decline_reason: ANOTHER_ACCEPTED },
      },
    });
    await work.caughtUp();
    expect(work.eventsAbout(other.id)).toHaveLength(otherEvents + 1);
  });

  it('lets one of two concurrent acceptances of a request’s proposals win', async () => {
    const request_id = await work.newRequest();
    const first = await propose(request_id);
    const second = await propose(request_id);
    const outcomes = await Promise.allSettled([
      accept(first.id, request_id),
      accept(second.id, request_id),
    ]);
    const won = outcomes.filter((o) => o.status === 'fulfilled');
    const lost = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []));
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0]).toMatchObject({
      code: 'invalid_state_transition',
      details: { current_state: 'declined', allowed_actions: [] },
    });
    expect(await work.raw.jobs.countDocuments({ request_id })).toBe(1);
    const statuses = (await work.raw.proposals.find({ request_id }).toArray()).map((p) => p.status);
    expect(statuses.sort()).toEqual(['accepted', 'declined']);
  });

  it('finishes an acceptance whose job and milestones a crash left unwritten', async () => {
    const request_id = await work.newRequest();
    const open = await propose(request_id);
    // The state right after the acceptance's own write, as a crash would leave it.
    const at = new Date();
    const crashed: ProposalDoc = {
      _id: newId('prp'),
      request_id,
      provider_id: newId('prv'),
      provider_name: 'Crashed Co',
      message: 'Two steps',
      amount_minor: 50_000,
      currency: 'GBP',
      estimated_days: null,
      milestones: [
        { title: 'One', description: null, amount_minor: 20_000, due_in_days: 5 },
        { title: 'Two', description: null, amount_minor: 30_000, due_in_days: null },
      ],
      status: 'accepted',
      job_id: newId('job', at.getTime()),
      planned_milestone_ids: [newId('mst', at.getTime()), newId('mst', at.getTime() + 1)],
      materialized: false,
      decline_reason: null,
      decided_at: at,
      deadline_at: null,
      created_at: at,
      updated_at: at,
      slot: request_id,
    };
    await work.raw.proposals.insertOne(crashed);
    expect(await work.raw.jobs.findOne({ _id: crashed.job_id ?? '' })).toBeNull();

    await materializePending(work.service);
    expect(await raw(crashed._id)).toMatchObject({ materialized: true });
    expect(await work.raw.jobs.findOne({ _id: crashed.job_id ?? '' })).toMatchObject({
      request_id,
      proposal_id: crashed._id,
      provider_id: crashed.provider_id,
      amount_minor: 50_000,
      currency: 'GBP',
      status: 'active',
      created_at: at,
    });
    const milestones = await work.raw.milestones
      .find({ job_id: crashed.job_id ?? '' })
      .sort({ _id: 1 })
      .toArray();
    expect(milestones.map((m) => m._id)).toEqual(crashed.planned_milestone_ids);
    expect(milestones.map((m) => [m.title, m.amount_minor, m.currency])).toEqual([
      ['One', 20_000, 'GBP'],
      ['Two', 30_000, 'GBP'],
    ]);
    for (const id of crashed.planned_milestone_ids) {
      expect(await work.awaitEventsAbout(id, 1)).toMatchObject([{ type: 'milestone.created' }]);
    }
    expect(await raw(open.id)).toMatchObject({
      status: 'declined',
      decline_reason: ANOTHER_ACCEPTED,
    });

    // Nothing is left to do, and running it again duplicates nothing.
    expect(await materializePending(work.service)).toBe(0);
    await work.caughtUp();
    expect(await work.raw.milestones.countDocuments({ job_id: crashed.job_id ?? '' })).toBe(2);
    for (const id of crashed.planned_milestone_ids) {
      expect(work.eventsAbout(id)).toHaveLength(1);
    }
  });
});

describe('who sees and decides what', () => {
  it('scopes reads and moves to the request’s customer, the proposing provider, and staff', async () => {
    const request_id = await work.newRequest();
    const otherRequest = await work.newRequest();
    const provider_id = newId('prv');
    const mine = await propose(request_id, provider_id);
    const theirs = await propose(request_id);
    const elsewhere = await propose(otherRequest, provider_id);

    const get = (party: Party) => work.call(proposalOps.get, { id: mine.id, party });
    const customer: Party = { role: 'customer', request_id };
    const provider: Party = { role: 'provider', provider_id };
    const staff: Party = { role: 'staff', actor: 'staff-1@handoff.test' };
    for (const party of [customer, provider, staff]) {
      expect(await get(party)).toMatchObject({ id: mine.id });
    }
    for (const party of strangers(otherRequest, theirs.provider_id)) {
      expect(await refused(get(party))).toMatchObject({ code: 'proposal_not_found' });
    }
    expect(
      await refused(work.call(proposalOps.get, { id: 'prp_unknown', party: staff })),
    ).toMatchObject({ code: 'proposal_not_found' });

    const list = async (party: Party, status?: 'submitted' | 'withdrawn') =>
      (
        await work.call(proposalOps.list, { party, limit: 100, ...(status ? { status } : {}) })
      ).data.map((p) => p.id);
    expect(await list(customer)).toEqual([theirs.id, mine.id]);
    expect(await list(provider)).toEqual([elsewhere.id, mine.id]);
    const all = await list(staff);
    expect(all).toEqual(expect.arrayContaining([mine.id, theirs.id, elsewhere.id]));

    // Moves outside the party's reach answer proposal_not_found and change nothing.
    const before = await raw(mine.id);
    const attempts = [
      accept(mine.id, otherRequest),
      work.call(proposalOps.decline, { id: mine.id, request_id: otherRequest }),
      work.call(proposalOps.withdraw, { id: mine.id, provider_id: theirs.provider_id }),
    ];
    for (const attempt of attempts) {
      expect(await refused(attempt)).toMatchObject({ code: 'proposal_not_found' });
    }
    expect(await raw(mine.id)).toEqual(before);

    await work.call(proposalOps.withdraw, { id: mine.id, provider_id });
    expect(await list(customer, 'withdrawn')).toEqual([mine.id]);
    expect(await list(customer, 'submitted')).toEqual([theirs.id]);
  });

  it('lists one request’s proposals for a provider, and never another request’s for a customer', async () => {
    const request_id = await work.newRequest();
    const otherRequest = await work.newRequest();
    const provider_id = newId('prv');
    const first = await propose(request_id, provider_id);
    await propose(request_id);
    const elsewhere = await propose(otherRequest, provider_id);
    await work.call(proposalOps.withdraw, { id: first.id, provider_id });
    const second = await propose(request_id, provider_id);

    const list = async (
      party: Party,
      filters: { request_id?: string; status?: 'submitted' | 'withdrawn' } = {},
    ) =>
      (await work.call(proposalOps.list, { party, limit: 100, ...filters })).data.map((p) => p.id);
    const provider: Party = { role: 'provider', provider_id };
    expect(await list(provider, { request_id })).toEqual([second.id, first.id]);
    expect(await list(provider, { request_id, status: 'withdrawn' })).toEqual([first.id]);
    expect(await list(provider, { request_id: otherRequest })).toEqual([elsewhere.id]);
    expect(await list(provider, { request_id: 'req_unknown' })).toEqual([]);
    const staff: Party = { role: 'staff', actor: 'staff-1@handoff.test' };
    expect(await list(staff, { request_id: otherRequest })).toEqual([elsewhere.id]);
    // A customer's party is its request: naming another finds nothing, naming its own is the same.
    const customer: Party = { role: 'customer', request_id };
    expect(await list(customer, { request_id: otherRequest })).toEqual([]);
    expect(await list(customer, { request_id })).toEqual(await list(customer));
  });

  it('finds a provider’s list of one request by the request, and checks the provider on it', () => {
    const provider: Party = { role: 'provider', provider_id: 'prv_1' };
    // The request's few documents are the lookup; the provider's whole history is not.
    expect(listFilter(provider, { request_id: 'req_1', status: 'submitted' })).toEqual({
      request_id: 'req_1',
      $and: [{ provider_id: 'prv_1' }, { status: 'submitted' }],
    });
    expect(listFilter(provider, { job_id: 'job_1', request_id: undefined })).toEqual({
      job_id: 'job_1',
      $and: [{ provider_id: 'prv_1' }],
    });
    // Without a narrower key, the provider is the lookup and a status is checked on it.
    expect(listFilter(provider, { status: 'open' })).toEqual({
      provider_id: 'prv_1',
      $and: [{ status: 'open' }],
    });
    expect(listFilter(provider, {})).toEqual({ provider_id: 'prv_1' });
    // Staff's list by status alone has nothing narrower.
    expect(listFilter({ role: 'staff', actor: 'a' }, { status: 'open' })).toEqual({
      status: 'open',
    });
    const customer: Party = { role: 'customer', request_id: 'req_1' };
    expect(listFilter(customer, { status: 'open' })).toEqual({
      request_id: 'req_1',
      $and: [{ status: 'open' }],
    });
    expect(listFilter(customer, { request_id: 'req_2' })).toBeNull();
  });

  it('pages a request’s proposals newest first', async () => {
    const request_id = await work.newRequest();
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) ids.push((await propose(request_id)).id);
    const party: Party = { role: 'customer', request_id };
    const first = await work.call(proposalOps.list, { party, limit: 2 });
    expect(first.data.map((p) => p.id)).toEqual([ids[2], ids[1]]);
    expect(first.has_more).toBe(true);
    const rest = await work.call(proposalOps.list, { party, limit: 2, starting_after: ids[1] });
    expect(rest.data.map((p) => p.id)).toEqual([ids[0]]);
    expect(rest.has_more).toBe(false);
  });
});

describe('the decision deadline', () => {
  it('expires submitted proposals once 14 days have passed, and nothing else', async () => {
    const request_id = await work.newRequest();
    const waiting = await propose(request_id);
    const decided = await propose(request_id);
    await work.call(proposalOps.decline, { id: decided.id, request_id });
    const decidedBefore = await raw(decided.id);
    const deadline = new Date(waiting.deadline_at ?? 0);

    // Not yet: a day before the deadline nothing moves.
    await sweepProposals(work.service, new Date(deadline.getTime() - DAY));
    expect((await raw(waiting.id))?.status).toBe('submitted');

    const now = new Date(deadline.getTime() + 1);
    expect(await sweepProposals(work.service, now)).toBeGreaterThanOrEqual(1);
    expect(await raw(waiting.id)).toMatchObject({
      status: 'expired',
      deadline_at: null,
      decided_at: now,
    });
    expect(await raw(decided.id)).toEqual(decidedBefore);
    await work.caughtUp();
    expect(work.eventsAbout(waiting.id).map((e) => e.type)).toEqual(['proposal.received']);
  });
});
