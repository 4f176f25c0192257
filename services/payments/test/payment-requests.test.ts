import { describe, expect, it } from '@jest/globals';
import { call } from '@handoff/bus';
import { EventEnvelope, paymentOps, subjects } from '@handoff/contracts';
import { eventually } from '@handoff/testkit';
import { integration_id, opts, staff, useStack } from './support/stack.ts';

// The real intake beside payments: it owns requests and hands out their event sequence numbers.
const stack = useStack('payment_requests');
const PAYMENT_REQUESTED = subjects.event('payment.requested');

const rawEventsOf = (requestId: string) =>
  stack.received.filter((e) => e.payload.data?.request_id === requestId);

/** Waits until `count` events of the request have arrived on HANDOFF_EVENTS, each a valid envelope. */
function eventsOf(requestId: string, count: number) {
  return eventually(
    () => {
      const mine = rawEventsOf(requestId);
      if (mine.length < count) return undefined;
      return mine.map((e) => ({ subject: e.subject, event: EventEnvelope.parse(e.payload) }));
    },
    { what: `${count} events of ${requestId}` },
  );
}

describe('creating payment requests', () => {
  it('stores USD, JPY and KWD amounts as integer minor units and answers in major units', async () => {
    const requestId = await stack.newRequest();
    const cases = [
      { amount: 19.99, currency: 'USD', minor: 1999 },
      { amount: 12_500, currency: 'JPY', minor: 12_500 },
      { amount: 12.345, currency: 'KWD', minor: 12_345 },
      { amount: 0.1, currency: 'BHD', minor: 100 },
    ];
    for (const { amount, currency, minor } of cases) {
      const created = await stack.createPaymentRequest(requestId, { amount, currency });
      expect(created).toMatchObject({
        object: 'payment_request',
        request_id: requestId,
        amount,
        currency,
        description: 'Deposit',
        reference: null,
        status: 'pending_approval',
        rejection_reason: null,
        decided_at: null,
      });
      expect(created.id).toMatch(/^prq_/);
      const raw = await stack.rawRequests().findOne({ _id: created.id });
      expect(raw).toMatchObject({ amount_minor: minor, currency, integration_id });
      expect(Number.isInteger(raw?.amount_minor)).toBe(true);
      expect(raw).not.toHaveProperty('amount');
    }
    const listed = await call(
      stack.nc,
      paymentOps.list,
      { status: 'pending_approval', limit: 100 },
      opts,
    );
    const amounts = listed.data.filter((p) => p.request_id === requestId).map((p) => p.amount);
    expect(amounts).toEqual([0.1, 12.345, 12_500, 19.99]);
  });

  it('defaults the currency to USD and keeps the reference', async () => {
    const requestId = await stack.newRequest();
    const created = await call(
      stack.nc,
      paymentOps.create,
      {
        request_id: requestId,
        integration_id,
        input: { amount: 250, description: 'Design work', reference: 'INV-7' },
      },
      opts,
    );
    expect(created).toMatchObject({ amount: 250, currency: 'USD', reference: 'INV-7' });
    expect(await stack.rawRequests().findOne({ _id: created.id })).toMatchObject({
      amount_minor: 25_000,
      currency: 'USD',
    });
  });

  it("refuses an amount finer than the currency's precision, naming the allowed decimals", async () => {
    const requestId = await stack.newRequest();
    const before = await stack.rawRequests().countDocuments({ request_id: requestId });
    await expect(
      stack.createPaymentRequest(requestId, { amount: 10.005, currency: 'USD' }),
    ).rejects.toMatchObject({
      code: 'validation_failed',
      message: expect.stringMatching(/USD allows at most 2 decimal places/),
      details: { currency: 'USD', max_decimals: 2 },
    });
    await expect(
      stack.createPaymentRequest(requestId, { amount: 100.5, currency: 'JPY' }),
    ).rejects.toMatchObject({
      code: 'validation_failed',
      message: expect.stringMatching(/JPY has no minor unit/),
      details: { currency: 'JPY', max_decimals: 0 },
    });
    await expect(
      stack.createPaymentRequest(requestId, { amount: 1.0005, currency: 'KWD' }),
    ).rejects.toMatchObject({
      code: 'validation_failed',
      message: expect.stringMatching(/KWD allows at most 3 decimal places/),
    });
    await expect(stack.createPaymentRequest(requestId, { amount: 1e-9 })).rejects.toMatchObject({
      code: 'validation_failed',
      message: expect.stringMatching(/below the smallest unit of USD/),
    });
    expect(await stack.rawRequests().countDocuments({ request_id: requestId })).toBe(before);
  });
});

describe('deciding payment requests', () => {
  it('approves once, announcing the approved snapshot; a second decision is refused', async () => {
    const requestId = await stack.newRequest();
    const created = await stack.createPaymentRequest(requestId, { amount: 42.5 });
    const approved = await stack.decide(created.id, 'approved');
    expect(approved).toMatchObject({
      id: created.id,
      status: 'approved',
      amount: 42.5,
      rejection_reason: null,
    });
    expect(approved.decided_at).not.toBeNull();
    expect(await stack.rawRequests().findOne({ _id: created.id })).toMatchObject({
      status: 'approved',
      decided_by: staff.actor,
      decided_at: expect.any(Date),
    });

    for (const decision of ['approved', 'rejected'] as const) {
      await expect(stack.decide(created.id, decision, 'again')).rejects.toMatchObject({
        code: 'invalid_state_transition',
        details: { current_state: 'approved', allowed_actions: [] },
      });
    }

    const mine = await eventsOf(requestId, 3);
    const payments = mine.filter((e) => e.subject === PAYMENT_REQUESTED);
    expect(payments.map((e) => e.event.data.object)).toEqual([created, approved]);
    expect(payments.every((e) => e.event.type === 'payment.requested')).toBe(true);
  });

  it('rejects with a reason, publishing payment.request_rejected, and refuses to approve afterwards', async () => {
    const requestId = await stack.newRequest();
    const created = await stack.createPaymentRequest(requestId, { amount: 5, currency: 'EUR' });
    const rejected = await stack.decide(created.id, 'rejected', 'Not agreed with the customer');
    expect(rejected).toMatchObject({
      status: 'rejected',
      rejection_reason: 'Not agreed with the customer',
    });
    expect(await stack.rawRequests().findOne({ _id: created.id })).toMatchObject({
      status: 'rejected',
      rejection_reason: 'Not agreed with the customer',
      decided_by: staff.actor,
    });
    await expect(stack.decide(created.id, 'approved')).rejects.toMatchObject({
      code: 'invalid_state_transition',
      details: { current_state: 'rejected', allowed_actions: [] },
    });
    await expect(stack.decide('prq_unknown', 'approved')).rejects.toMatchObject({
      code: 'payment_request_not_found',
    });

    // request.created, the creation's payment.requested, and the rejection's extension kind.
    const mine = await eventsOf(requestId, 3);
    expect(mine.map((e) => e.event.type)).toEqual([
      'request.created',
      'payment.requested',
      'payment.request_rejected',
    ]);
    expect(mine[2]?.event.data.object).toMatchObject({
      id: created.id,
      status: 'rejected',
      rejection_reason: 'Not agreed with the customer',
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(rawEventsOf(requestId)).toHaveLength(3);
  });

  it('lets exactly one of two concurrent decisions win', async () => {
    const requestId = await stack.newRequest();
    const created = await stack.createPaymentRequest(requestId, { amount: 1 });
    const outcomes = await Promise.allSettled([
      stack.decide(created.id, 'approved'),
      stack.decide(created.id, 'rejected', 'race'),
    ]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    expect(outcomes.filter((o) => o.status === 'rejected')).toEqual([
      expect.objectContaining({
        reason: expect.objectContaining({ code: 'invalid_state_transition' }),
      }),
    ]);
  });
});

describe('listing payment requests', () => {
  it('lists only approved ones of a request to agents, oldest first', async () => {
    const requestId = await stack.newRequest();
    const other = await stack.newRequest();
    const first = await stack.createPaymentRequest(requestId, { amount: 1 });
    const pending = await stack.createPaymentRequest(requestId, { amount: 2 });
    const rejected = await stack.createPaymentRequest(requestId, { amount: 3 });
    const second = await stack.createPaymentRequest(requestId, { amount: 4 });
    const elsewhere = await stack.createPaymentRequest(other, { amount: 5 });
    await stack.decide(second.id, 'approved');
    await stack.decide(first.id, 'approved');
    await stack.decide(rejected.id, 'rejected');
    await stack.decide(elsewhere.id, 'approved');

    const list = await call(stack.nc, paymentOps.listApproved, { request_id: requestId }, opts);
    expect(list).toMatchObject({ object: 'list', has_more: false });
    expect(list.data.map((p) => p.id)).toEqual([first.id, second.id]);
    expect(list.data.map((p) => p.id)).not.toContain(pending.id);
    expect(list.data.every((p) => p.status === 'approved')).toBe(true);

    expect(await call(stack.nc, paymentOps.listApproved, { request_id: 'req_none' }, opts)).toEqual(
      {
        object: 'list',
        data: [],
        has_more: false,
      },
    );
  });

  it('pages staff lists by status, newest first', async () => {
    const requestId = await stack.newRequest();
    const oldest = (await stack.createPaymentRequest(requestId, { amount: 1 })).id;
    const middle = (await stack.createPaymentRequest(requestId, { amount: 2 })).id;
    const newest = (await stack.createPaymentRequest(requestId, { amount: 3 })).id;
    await stack.decide(middle, 'rejected', 'no');

    const page = await call(stack.nc, paymentOps.list, { status: 'rejected', limit: 1 }, opts);
    expect(page.data.map((p) => p.id)).toEqual([middle]);

    const all = await call(stack.nc, paymentOps.list, { limit: 2 }, opts);
    expect(all.data.map((p) => p.id)).toEqual([newest, middle]);
    expect(all.has_more).toBe(true);
    const next = await call(
      stack.nc,
      paymentOps.list,
      { limit: 2, starting_after: all.data.at(-1)?.id },
      opts,
    );
    expect(next.data[0]?.id).toBe(oldest);
    const back = await call(stack.nc, paymentOps.list, { limit: 2, ending_before: oldest }, opts);
    expect(back.data.map((p) => p.id)).toEqual([newest, middle]);
  });
});

describe('events on HANDOFF_EVENTS', () => {
  it('are valid envelopes whose sequence grows by one per request', async () => {
    const requestId = await stack.newRequest();
    const a = await stack.createPaymentRequest(requestId, { amount: 10 });
    const b = await stack.createPaymentRequest(requestId, { amount: 20, currency: 'JPY' });
    await stack.decide(a.id, 'approved');
    await stack.decide(b.id, 'rejected', 'duplicate');

    // request.created, two creations, one approval and one rejection (an extension kind).
    const mine = await eventsOf(requestId, 5);
    expect(mine.map((e) => e.event.type)).toEqual([
      'request.created',
      'payment.requested',
      'payment.requested',
      'payment.requested',
      'payment.request_rejected',
    ]);
    expect(mine.map((e) => e.event.data.sequence)).toEqual([1, 2, 3, 4, 5]);
    expect(mine.slice(1, 4).every((e) => e.subject === PAYMENT_REQUESTED)).toBe(true);
    expect(mine.map((e) => e.event.data.object.id)).toEqual([requestId, a.id, b.id, a.id, b.id]);
    expect(mine[2]?.event.data.object).toMatchObject({ amount: 20, currency: 'JPY' });
    expect(mine[3]?.event.data.object).toMatchObject({ status: 'approved', amount: 10 });
    // Published messages leave the documents' outboxes (with the next batch of removals).
    await stack.service.outbox.flush();
    const docs = await stack.rawRequests().find({ request_id: requestId }).toArray();
    expect(docs.map((d) => d.outbox ?? [])).toEqual([[], []]);
  });

  it('a message a crash left in the outbox is published by the sweep and removed', async () => {
    const requestId = await stack.newRequest();
    await eventsOf(requestId, 1);
    const id = `prq_${'crashtest'.padEnd(26, '0')}`;
    const eventId = `evt_${'crashtest'.padEnd(26, '0')}`;
    const createdAt = new Date(Date.now() - 60_000);
    const object = {
      object: 'payment_request',
      id,
      request_id: requestId,
      amount: 7.25,
      currency: 'USD',
      description: 'Left behind',
      reference: null,
      status: 'pending_approval',
      rejection_reason: null,
      created_at: createdAt.toISOString(),
      decided_at: null,
    };
    await stack.rawRequests().insertOne({
      _id: id,
      request_id: requestId,
      integration_id,
      amount_minor: 725,
      currency: 'USD',
      description: 'Left behind',
      reference: null,
      status: 'pending_approval',
      rejection_reason: null,
      created_at: createdAt,
      decided_at: null,
      decided_by: null,
      outbox: [
        {
          id: eventId,
          subject: PAYMENT_REQUESTED,
          payload: {
            id: eventId,
            type: 'payment.requested',
            timestamp: createdAt.toISOString(),
            data: { request_id: requestId, object },
          },
          created_at: createdAt,
        },
      ],
      // What the write before a crash leaves: the message and the pending marker.
      outbox_pending: true,
    });
    // The periodic sweep may get there first; either way it is published once and removed.
    await stack.service.outbox.sweep();
    expect((await stack.rawRequests().findOne({ _id: id }))?.outbox).toEqual([]);
    const mine = await eventsOf(requestId, 2);
    expect(mine).toHaveLength(2);
    expect(mine[1]).toMatchObject({
      subject: PAYMENT_REQUESTED,
      event: { id: eventId, data: { request_id: requestId, sequence: 2, object } },
    });
    expect(await stack.service.outbox.sweep()).toBe(0);
  });
});
