import { describe, expect, it } from '@jest/globals';
import { newId, providerOps, requestOps } from '@handoff/contracts';
import { natsOptions } from '@handoff/testkit';
import { sequenceAllocator, sha256Hex } from '@handoff/runtime';
import { jetstream } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { adoptLegacySequences } from '../src/store/legacy-sequences.ts';
import { requestEvents, useIntake } from './support/stack.ts';

const staff = { actor: 'ops@handoff.test' };
const token = sha256Hex('hrt_token');

const intake = useIntake('requests');

const create = (input: Record<string, unknown> = {}) =>
  intake.call(requestOps.create, {
    integration_id: 'int_a',
    token_hash: token,
    input: { message: 'Need a plumber', ...input },
  });

const eventsOf = (requestId: string) => requestEvents(intake.nc, requestId);

describe('requests', () => {
  it('creates a request and announces it as sequence 1', async () => {
    const created = await create({
      marketplace_opt_in: true,
      email: 'c@example.com',
      budget_min: 10,
      budget_max: 20,
    });
    expect(created).toMatchObject({
      status: 'submitted',
      marketplace: { opted_in: true, review: 'pending_review' },
      customer: { email: 'c@example.com', name: null },
      routing: { mode: 'unassigned', provider_ids: [] },
    });
    const events = await eventsOf(created.id);
    expect(events.map((e) => [e.type, e.data.sequence])).toEqual([['request.created', 1]]);
    expect(events[0]?.data.object).toMatchObject({ id: created.id });
  });

  it('tells the owning integration of a request, and nothing of an unknown one', async () => {
    const created = await create();
    await expect(intake.call(requestOps.owner, { request_id: created.id })).resolves.toEqual({
      integration_id: 'int_a',
    });
    await expect(intake.call(requestOps.owner, { request_id: 'req_none' })).rejects.toMatchObject({
      code: 'request_not_found',
    });
  });

  it('reads only for the owning integration, and gives the gateway the hash its token check compares', async () => {
    const created = await create();
    const access = { request_id: created.id, integration_id: 'int_a' };
    await expect(intake.call(requestOps.get, access)).resolves.toMatchObject({
      id: created.id,
    });
    await expect(
      intake.call(requestOps.get, { ...access, integration_id: 'int_b' }),
    ).rejects.toMatchObject({ code: 'request_not_found' });
    // A wrong token is refused by the gateway, once (gateway test/requests.test.ts), against this.
    await expect(intake.call(requestOps.authorize, { request_id: created.id })).resolves.toEqual({
      integration_id: 'int_a',
      token_hash: token,
    });
    await expect(
      intake.call(requestOps.authorize, { request_id: 'req_missing' }),
    ).rejects.toMatchObject({ code: 'request_not_found' });
    await expect(
      intake.call(requestOps.get, { ...access, request_id: 'req_missing' }),
    ).rejects.toMatchObject({ code: 'request_not_found' });
  });

  it('moves along the state machine and refuses illegal moves with the allowed ones', async () => {
    const created = await create();
    const provider = await intake.call(providerOps.create, {
      actor: staff.actor,
      input: { name: 'Pipe Works', email: 'pipes@example.com', categories: ['plumbing'] },
    });
    const routed = await intake.call(requestOps.update, {
      id: created.id,
      patch: { status: 'routed', routing: { mode: 'direct', provider_ids: [provider.id] } },
      ...staff,
    });
    expect(routed).toMatchObject({
      status: 'routed',
      routing: { mode: 'direct', provider_ids: [provider.id] },
    });
    await expect(
      intake.call(requestOps.update, { id: created.id, patch: { status: 'completed' }, ...staff }),
    ).rejects.toMatchObject({
      code: 'invalid_state_transition',
      details: {
        resource: 'request',
        current_state: 'routed',
        action: 'complete',
        allowed_actions: ['start', 'unroute', 'cancel', 'update', 'review_marketplace'],
      },
    });
    await intake.call(requestOps.update, {
      id: created.id,
      patch: { status: 'in_progress' },
      ...staff,
    });
    await intake.call(requestOps.update, {
      id: created.id,
      patch: { status: 'completed' },
      ...staff,
    });
    await expect(
      intake.call(requestOps.update, { id: created.id, patch: { status: 'cancelled' }, ...staff }),
    ).rejects.toMatchObject({
      code: 'invalid_state_transition',
      details: { current_state: 'completed', action: 'cancel', allowed_actions: [] },
    });
    const events = await eventsOf(created.id);
    expect(events.map((e) => `${e.type}#${e.data.sequence}`)).toEqual([
      'request.created#1',
      'request.updated#2',
      'request.updated#3',
      'request.updated#4',
    ]);
  });

  it('reviews marketplace publication only when the customer opted in', async () => {
    const optedOut = await create();
    await expect(
      intake.call(requestOps.decideMarketplace, {
        id: optedOut.id,
        decision: { decision: 'approved' },
        ...staff,
      }),
    ).rejects.toMatchObject({
      code: 'invalid_state_transition',
      details: { current_state: 'not_requested' },
    });
    const optedIn = await create({ marketplace_opt_in: true });
    const approved = await intake.call(requestOps.decideMarketplace, {
      id: optedIn.id,
      decision: { decision: 'approved' },
      ...staff,
    });
    expect(approved).toMatchObject({
      marketplace: { review: 'approved' },
      routing: { mode: 'marketplace' },
    });
    const other = await create({ marketplace_opt_in: true });
    const rejected = await intake.call(requestOps.decideMarketplace, {
      id: other.id,
      decision: { decision: 'rejected', reason: 'Off-topic' },
      ...staff,
    });
    expect(rejected.marketplace).toEqual({
      opted_in: true,
      review: 'rejected',
      reason: 'Off-topic',
    });
  });

  it('allocates sequences once per event id, without gaps, under concurrency from several services', async () => {
    const created = await create();
    // The intake service's own allocator and two more on their own connections, as the
    // conversation and payments services allocate for the same request.
    const others = await Promise.all([connect(natsOptions()), connect(natsOptions())]);
    try {
      const allocators = [
        intake.service.sequences,
        ...others.map((c) => sequenceAllocator(jetstream(c))),
      ];
      const ids = Array.from({ length: 60 }, () => newId('evt'));
      const allocate = (round: number) =>
        Promise.all(
          ids.map((eventId, index) => {
            const allocator = allocators[(index + round) % allocators.length];
            if (!allocator) throw new Error('no allocator');
            return allocator(created.id, eventId);
          }),
        );
      const first = await allocate(0);
      // Asked again, each through another service than the first time: the same numbers.
      const again = await allocate(1);
      expect(again).toEqual(first);
      // request.created took 1.
      expect([...first].sort((x, y) => x - y)).toEqual(
        Array.from({ length: ids.length }, (_, i) => i + 2),
      );
    } finally {
      await Promise.all(others.map((c) => c.close()));
    }
  });

  it('continues the numbers a request document counted before the sequence bucket', async () => {
    const created = await create();
    const raw = intake.service.store.db.collection('requests');
    const earlier = newId('evt');
    // As an earlier version stored it: its own counter and the numbers it handed out.
    await raw.updateOne({ _id: created.id } as never, {
      $set: { event_sequence: 40, sequences: { [earlier]: 40 } },
    });
    expect(await adoptLegacySequences(intake.service)).toBe(1);
    expect(await intake.service.sequences(created.id, earlier)).toBe(40);
    expect(await intake.service.sequences(created.id, newId('evt'))).toBe(41);
    const doc = await raw.findOne({ _id: created.id } as never);
    expect(doc).not.toHaveProperty('event_sequence');
    expect(doc).not.toHaveProperty('sequences');
    expect(await adoptLegacySequences(intake.service)).toBe(0);
  });

  it('audits staff changes of requests', async () => {
    const created = await create();
    await intake.call(requestOps.update, {
      id: created.id,
      patch: { status: 'cancelled', reason: 'duplicate' },
      ...staff,
    });
    await intake.service.outbox.sweep();
    const audit = await intake.service.store.db
      .collection('intake_audit_log')
      .find({ target_id: created.id })
      .toArray();
    expect(audit).toEqual([
      expect.objectContaining({
        actor: staff.actor,
        action: 'request.updated',
        target_type: 'request',
      }),
    ]);
  });
});
