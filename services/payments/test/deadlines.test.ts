// What waits on a deadline (`deadlines.list`) and what the sweep does when one passes, with the
// clock moved forward through the sweep's `now`.
import { beforeAll, describe, expect, it } from '@jest/globals';
import { call } from '@handoff/bus';
import {
  DeadlineItem,
  PAYMENT_MACHINE,
  PAYMENT_REQUEST_MACHINE,
  paymentRecordOps,
} from '@handoff/contracts';
import { opts, useStack } from './support/stack.ts';

const stack = useStack('deadlines');

const DAY = 24 * 60 * 60 * 1000;
const inDays = (days: number) => new Date(Date.now() + days * DAY);
const deadlines = (query: { before?: string; overdue?: boolean; limit?: number } = {}) =>
  call(stack.nc, paymentRecordOps.deadlines, { limit: 100, ...query }, opts);

describe('deadlines', () => {
  let pendingRequest: string;
  let pendingPayment: string;

  beforeAll(async () => {
    const requestId = await stack.newRequest();
    pendingRequest = (await stack.createPaymentRequest(requestId)).id;
    pendingPayment = (await stack.approvedPayment()).payment.id;
  });

  it('lists pending payment requests and pending payments, soonest first', async () => {
    const list = await deadlines();
    expect(list).toMatchObject({ object: 'list', has_more: false });
    for (const item of list.data) DeadlineItem.parse(item);
    const times = list.data.map((item) => item.deadline_at);
    expect(times).toEqual([...times].sort());

    const waiting = PAYMENT_MACHINE.waiting.pending;
    expect(list.data.find((item) => item.id === pendingPayment)).toEqual({
      object: 'deadline',
      resource: 'payment',
      id: pendingPayment,
      request_id: expect.stringMatching(/^req_/),
      state: 'pending',
      waiting_on: waiting?.waiting_on,
      deadline_at: expect.any(String),
      overdue: false,
      consequence: waiting?.consequence,
    });
    expect(list.data.find((item) => item.id === pendingRequest)).toMatchObject({
      resource: 'payment_request',
      state: 'pending_approval',
      waiting_on: 'staff',
      overdue: false,
      consequence: PAYMENT_REQUEST_MACHINE.waiting.pending_approval?.consequence,
    });
    // Payments wait 7 days, payment requests 14: the payment comes first.
    const ids = list.data.map((item) => item.id);
    expect(ids.indexOf(pendingPayment)).toBeLessThan(ids.indexOf(pendingRequest));
    const payment = await stack.rawPayments().findOne({ _id: pendingPayment });
    expect(list.data.find((item) => item.id === pendingPayment)?.deadline_at).toBe(
      payment?.deadline_at?.toISOString(),
    );
  });

  it('filters by `before` and `overdue`, and pages with `limit`', async () => {
    const soon = await deadlines({ before: inDays(10).toISOString() });
    expect(soon.data.map((item) => item.id)).toContain(pendingPayment);
    expect(soon.data.map((item) => item.id)).not.toContain(pendingRequest);
    expect((await deadlines({ overdue: true })).data).toEqual([]);
    expect((await deadlines({ overdue: false })).data.length).toBeGreaterThanOrEqual(2);
    const one = await deadlines({ limit: 1 });
    expect(one.data).toHaveLength(1);
    expect(one.has_more).toBe(true);
  });

  it('marks what is past its deadline as overdue', async () => {
    const { payment } = await stack.approvedPayment();
    const passed = new Date(Date.now() - 60_000);
    await stack.rawPayments().updateOne({ _id: payment.id }, { $set: { deadline_at: passed } });
    const overdue = await deadlines({ overdue: true });
    expect(overdue.data.map((item) => [item.id, item.overdue])).toEqual([[payment.id, true]]);
    await stack.rawPayments().updateOne({ _id: payment.id }, { $set: { deadline_at: inDays(7) } });
  });
});

describe('the deadline sweep', () => {
  it('does nothing before any deadline', async () => {
    expect(await stack.service.sweeps.deadlines(new Date())).toEqual({ expired: 0, failed: 0 });
  });

  it('fails pending payments after 7 days and expires payment requests after 14', async () => {
    const requestId = await stack.newRequest();
    const request = await stack.createPaymentRequest(requestId);
    const { payment } = await stack.approvedPayment();
    await stack.settle();

    const week = await stack.service.sweeps.deadlines(inDays(7.5));
    expect(week.expired).toBe(0);
    expect(week.failed).toBeGreaterThanOrEqual(1);
    expect(await stack.rawPayments().findOne({ _id: payment.id })).toMatchObject({
      status: 'failed',
      failure_reason: 'deadline_passed',
      decided_by: 'system',
      deadline_at: null,
    });
    expect(await stack.rawRequests().findOne({ _id: request.id })).toMatchObject({
      status: 'pending_approval',
    });

    const fortnight = await stack.service.sweeps.run(inDays(14.5));
    expect(fortnight.expired).toBeGreaterThanOrEqual(1);
    expect(await stack.rawRequests().findOne({ _id: request.id })).toMatchObject({
      status: 'expired',
      decided_by: 'system',
      decided_at: expect.any(Date),
      deadline_at: null,
    });
    // Expiry is in the audit log, and on HANDOFF_EVENTS as the extension kind
    // `payment.request_expired` (the payment's failure as `payment.failed`).
    expect(await stack.auditEntry(request.id, 'payment_request.expired')).toMatchObject({
      actor: 'system',
      call_id: null,
      after: { status: 'expired' },
    });
    await stack.settle();
    const statuses = (id: string) => stack.eventsAbout(id).map((e) => e.event.data.object.status);
    expect(statuses(request.id)).toEqual(['pending_approval', 'expired']);
    expect(statuses(payment.id)).toEqual(['failed']);
    expect(stack.eventsAbout(request.id).map((e) => e.event.type)).toEqual([
      'payment.requested',
      'payment.request_expired',
    ]);

    // Nothing waits any more, and a second sweep finds nothing.
    expect((await deadlines()).data).toEqual([]);
    expect(await stack.service.sweeps.deadlines(inDays(30))).toEqual({ expired: 0, failed: 0 });
  });
});
