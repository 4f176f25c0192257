// A test clock's operations on payments: the soonest deadline ahead of some requests, their
// deadlines moved earlier, and what fell due fired as the sweep does, for those requests only.
import { beforeAll, describe, expect, it } from '@jest/globals';
import { call } from '@handoff/bus';
import { paymentsClockOps } from '@handoff/contracts';
import { opts, useStack } from './support/stack.ts';

const stack = useStack('clocks');

const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;

let pendingRequest: { requestId: string; id: string };
let pendingPayment: { requestId: string; id: string };
let elsewhere: { requestId: string; id: string };
const scope = () => ({ request_ids: [pendingRequest.requestId, pendingPayment.requestId] });

const next = async () => (await call(stack.nc, paymentsClockOps.next, scope(), opts)).next;
const shift = (by_ms: number) =>
  call(stack.nc, paymentsClockOps.shift, { ...scope(), by_ms }, opts);
const fire = () => call(stack.nc, paymentsClockOps.fire, scope(), opts);

beforeAll(async () => {
  const waitingRequest = async () => {
    const requestId = await stack.newRequest();
    return { requestId, id: (await stack.createPaymentRequest(requestId)).id };
  };
  pendingRequest = await waitingRequest();
  elsewhere = await waitingRequest();
  const approved = await stack.approvedPayment();
  pendingPayment = { requestId: approved.requestId, id: approved.payment.id };
});

describe('test clocks on payments', () => {
  it('names the soonest deadline ahead: the pending payment (7 days) before the request (14)', async () => {
    const soonest = await next();
    expect(soonest).toMatchObject({ resource: 'payment', id: pendingPayment.id });
    expect(soonest?.in_ms).toBeGreaterThan(7 * DAY - HOUR);
  });

  it('moves the requests’ deadlines earlier, no other’s, and fires what fell due', async () => {
    const deadlineOf = async (id: string) =>
      (await stack.rawRequests().findOne({ _id: id }))?.deadline_at?.getTime() ?? 0;
    const before = {
      mine: await deadlineOf(pendingRequest.id),
      other: await deadlineOf(elsewhere.id),
    };
    const soonest = await next();
    expect(await shift(soonest?.in_ms ?? 0)).toEqual({ shifted: 2 });
    expect(await deadlineOf(pendingRequest.id)).toBe(before.mine - (soonest?.in_ms ?? 0));
    expect(await deadlineOf(elsewhere.id)).toBe(before.other);

    expect(await fire()).toEqual({ fired: 1 });
    expect(await stack.rawPayments().findOne({ _id: pendingPayment.id })).toMatchObject({
      status: 'failed',
      failure_reason: 'deadline_passed',
    });
    await stack.waitForEvents(pendingPayment.id, 'payment.failed');
  });

  it('expires the pending payment request when its time comes, leaving the other request’s', async () => {
    const soonest = await next();
    expect(soonest).toMatchObject({ resource: 'payment_request', id: pendingRequest.id });
    await shift(soonest?.in_ms ?? 0);
    expect(await fire()).toEqual({ fired: 1 });
    expect((await stack.rawRequests().findOne({ _id: pendingRequest.id }))?.status).toBe('expired');
    expect((await stack.rawRequests().findOne({ _id: elsewhere.id }))?.status).toBe(
      'pending_approval',
    );
    await stack.auditEntry(pendingRequest.id, 'payment_request.expired');
    expect(await next()).toBeNull();
  });
});
