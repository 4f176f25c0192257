// A closed request's payment requests: staff approval is refused from a fresh status read of the
// request in intake, and the closure consumer rejects the pending ones as the system. Real intake,
// real payments, real NATS.
import { describe, expect, it } from '@jest/globals';
import { BusError, call } from '@handoff/bus';
import { requestOps } from '@handoff/contracts';
import { eventually } from '@handoff/testkit';
import { opts, staff, useStack } from './support/stack.ts';

const stack = useStack('payclosure');

const closeRequest = (request_id: string, status: 'cancelled' | 'completed') =>
  call(stack.nc, requestOps.update, { id: request_id, patch: { status }, ...staff }, opts);

describe('a cancelled request’s payment requests', () => {
  it('rejects the pending ones as the system, with the reason; decided ones stay', async () => {
    const request_id = await stack.newRequest();
    const pending = await stack.createPaymentRequest(request_id, { amount: 10 });
    const approved = await stack.createPaymentRequest(request_id, { amount: 20 });
    await stack.decide(approved.id, 'approved');
    await closeRequest(request_id, 'cancelled');
    const rejected = await eventually(async () => {
      const doc = await stack.rawRequests().findOne({ _id: pending.id });
      return doc?.status === 'rejected' ? doc : undefined;
    });
    expect(rejected).toMatchObject({
      decided_by: 'system',
      rejection_reason: 'the request was cancelled',
    });
    expect(await stack.rawRequests().findOne({ _id: approved.id })).toMatchObject({
      status: 'approved',
    });
  });

  it('refuses staff approval with request_closed, naming the state; no payment is made', async () => {
    const request_id = await stack.newRequest();
    const before = await stack.createPaymentRequest(request_id, { amount: 10 });
    await closeRequest(request_id, 'cancelled');
    // The closure consumer has settled the cancel once it rejected the one pending before it;
    // until then it could reject the late one too, and the test would see that instead.
    await eventually(async () => {
      const doc = await stack.rawRequests().findOne({ _id: before.id });
      return doc?.status === 'rejected' ? doc : undefined;
    });
    // Created after the cancel was settled (as one that crossed the cancel would be): only the
    // fresh status read stands between it and a payment.
    const late = await stack.createPaymentRequest(request_id);
    const approval = stack.decide(late.id, 'approved');
    await expect(approval).rejects.toBeInstanceOf(BusError);
    await expect(approval).rejects.toMatchObject({
      code: 'request_closed',
      details: { current_state: 'cancelled' },
      message: expect.stringContaining('The request is cancelled'),
    });
    expect(await stack.rawRequests().findOne({ _id: late.id })).toMatchObject({
      status: 'pending_approval',
    });
    expect(await stack.paymentsOf(request_id)).toEqual([]);
    // A rejection moves no money and stays possible.
    expect(await stack.decide(late.id, 'rejected', 'No work was done.')).toMatchObject({
      status: 'rejected',
    });
  });
});

describe('a completed request’s payment requests', () => {
  it('are closed the same way', async () => {
    const request_id = await stack.newRequest();
    const pending = await stack.createPaymentRequest(request_id);
    await call(
      stack.nc,
      requestOps.update,
      { id: request_id, patch: { status: 'in_progress' }, ...staff },
      opts,
    );
    await closeRequest(request_id, 'completed');
    const rejected = await eventually(async () => {
      const doc = await stack.rawRequests().findOne({ _id: pending.id });
      return doc?.status === 'rejected' ? doc : undefined;
    });
    expect(rejected).toMatchObject({ rejection_reason: 'the request was completed' });
  });
});
