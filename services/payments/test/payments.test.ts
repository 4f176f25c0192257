// Payments with the default (manual) processor: created once by an approval, crash-safe, confirmed
// or failed by staff, read and listed.
import { describe, expect, it } from '@jest/globals';
import { call } from '@handoff/bus';
import { newId, Payment, paymentRecordOps, subjects } from '@handoff/contracts';
import type { PaymentRequestDoc } from '../src/store/payment-requests.ts';
import { RECOVERY_GRACE_MS } from '../src/domain/payments.ts';
import { integration_id, opts, staff, useStack } from './support/stack.ts';

const stack = useStack('payments');

const confirm = (id: string, reference?: string) =>
  call(
    stack.nc,
    paymentRecordOps.confirm,
    { id, actor: staff.actor, ...(reference ? { reference } : {}) },
    opts,
  );
const later = () => new Date(Date.now() + RECOVERY_GRACE_MS + 60_000);

describe('approval creates a payment', () => {
  it('exactly once: a second approval is refused and creates nothing', async () => {
    const requestId = await stack.newRequest();
    const created = await stack.createPaymentRequest(requestId, { amount: 250, currency: 'JPY' });
    await stack.decide(created.id, 'approved');
    await expect(stack.decide(created.id, 'approved')).rejects.toMatchObject({
      code: 'invalid_state_transition',
      details: { current_state: 'approved', allowed_actions: [] },
    });
    await stack.service.sweeps.idle();

    const payments = await stack.paymentsOf(requestId);
    expect(payments).toHaveLength(1);
    const [payment] = payments;
    expect(Payment.parse(payment)).toMatchObject({
      object: 'payment',
      payment_request_id: created.id,
      request_id: requestId,
      amount: 250,
      currency: 'JPY',
      provider: 'manual',
      provider_reference: null,
      status: 'pending',
      failure_reason: null,
      completed_at: null,
    });
    expect(payment?.id).toMatch(/^pay_/);
    const raw = await stack.rawRequests().findOne({ _id: created.id });
    // The approval itself named the payment; the payment document followed.
    expect(raw).toMatchObject({
      payment_id: payment?.id,
      payment_created: true,
      deadline_at: null,
    });
    expect(await stack.rawPayments().findOne({ _id: payment?.id ?? '' })).toMatchObject({
      amount_minor: 250,
      integration_id,
      charged_at: expect.any(Date),
    });
    // Nothing more for the sweep to do.
    expect(await stack.service.sweeps.recover(later())).toEqual({ created: 0, charged: 0 });
    expect(await stack.paymentsOf(requestId)).toHaveLength(1);
  });

  it('once, whichever of two concurrent approvals wins', async () => {
    const requestId = await stack.newRequest();
    const created = await stack.createPaymentRequest(requestId);
    const outcomes = await Promise.allSettled([
      stack.decide(created.id, 'approved'),
      stack.decide(created.id, 'approved'),
    ]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
    await stack.service.sweeps.idle();
    expect(await stack.paymentsOf(requestId)).toHaveLength(1);
  });

  it('never for a rejected payment request', async () => {
    const requestId = await stack.newRequest();
    const created = await stack.createPaymentRequest(requestId);
    await stack.decide(created.id, 'rejected', 'no');
    await stack.service.sweeps.idle();
    expect(await stack.paymentsOf(requestId)).toEqual([]);
  });
});

describe('crash recovery', () => {
  /** An approval as a crash right after its write leaves it: named payment, no document. */
  async function strandedApproval() {
    const requestId = await stack.newRequest();
    const paymentId = newId('pay');
    const approvedAt = new Date();
    const doc: PaymentRequestDoc = {
      _id: newId('prq'),
      request_id: requestId,
      integration_id,
      amount_minor: 1999,
      currency: 'USD',
      description: 'Left behind',
      reference: null,
      status: 'approved',
      rejection_reason: null,
      created_at: approvedAt,
      decided_at: approvedAt,
      decided_by: staff.actor,
      deadline_at: null,
      payment_id: paymentId,
      payment_created: false,
      outbox: [],
    };
    await stack.rawRequests().insertOne(doc);
    return { requestId, paymentId, paymentRequestId: doc._id };
  }

  it('the sweep creates the payment an approval named, once', async () => {
    const { requestId, paymentId, paymentRequestId } = await strandedApproval();
    // Within the grace period the sweep leaves it to the call that is still creating it.
    await stack.service.sweeps.recover(new Date());
    expect(await stack.rawPayments().countDocuments({ _id: paymentId })).toBe(0);

    const result = await stack.service.sweeps.recover(later());
    expect(result.created).toBeGreaterThanOrEqual(1);
    const [payment, ...others] = await stack.paymentsOf(requestId);
    expect(others).toEqual([]);
    expect(payment).toMatchObject({
      id: paymentId,
      payment_request_id: paymentRequestId,
      amount: 19.99,
      status: 'pending',
    });
    expect(await stack.rawRequests().findOne({ _id: paymentRequestId })).toMatchObject({
      payment_created: true,
    });
    expect(await stack.rawPayments().findOne({ _id: paymentId })).toMatchObject({
      charged_at: expect.any(Date),
    });
    await stack.service.sweeps.recover(later());
    expect(await stack.paymentsOf(requestId)).toHaveLength(1);
  });

  it('a payment written before the crash is not written twice', async () => {
    const { requestId, paymentId, paymentRequestId } = await strandedApproval();
    // The document was written, but the crash came before the flag.
    await stack.service.sweeps.recover(later());
    await stack
      .rawRequests()
      .updateOne({ _id: paymentRequestId }, { $set: { payment_created: false } });
    await stack.service.sweeps.recover(later());
    expect(await stack.paymentsOf(requestId)).toHaveLength(1);
    expect(await stack.rawRequests().findOne({ _id: paymentRequestId })).toMatchObject({
      payment_id: paymentId,
      payment_created: true,
    });
  });

  it('the sweep asks the processor to charge a payment nobody charged', async () => {
    const { payment } = await stack.approvedPayment();
    await stack.rawPayments().updateOne({ _id: payment.id }, { $set: { charged_at: null } });
    const result = await stack.service.sweeps.recover(later());
    expect(result.charged).toBeGreaterThanOrEqual(1);
    expect(await stack.rawPayments().findOne({ _id: payment.id })).toMatchObject({
      status: 'pending',
      charged_at: expect.any(Date),
    });
  });
});

describe('staff settle manual payments', () => {
  it('confirm completes it and publishes payment.completed with the payment', async () => {
    const { payment, requestId } = await stack.approvedPayment(10.5);
    const confirmed = await confirm(payment.id, 'WIRE-2024-17');
    expect(confirmed).toMatchObject({
      id: payment.id,
      status: 'completed',
      provider_reference: 'WIRE-2024-17',
      failure_reason: null,
      deadline_at: null,
      completed_at: expect.any(String),
    });
    const [completed, ...more] = await stack.waitForEvents(payment.id, 'payment.completed');
    expect(more).toEqual([]);
    expect(completed).toMatchObject({
      subject: subjects.event('payment.completed'),
      event: { type: 'payment.completed', data: { request_id: requestId, object: confirmed } },
    });
    // request.created, payment.requested twice (created, approved), payment.completed.
    expect(completed?.event.data.sequence).toBe(4);
    expect(Payment.parse(completed?.event.data.object)).toEqual(confirmed);

    await expect(confirm(payment.id)).rejects.toMatchObject({
      code: 'invalid_state_transition',
      details: { current_state: 'completed', allowed_actions: [] },
    });
    expect(await stack.auditEntry(payment.id, 'payment.completed')).toMatchObject({
      actor: staff.actor,
      call_id: expect.any(String),
      after: confirmed,
    });
  });

  it('fail records the reason and publishes payment.failed', async () => {
    const { payment } = await stack.approvedPayment();
    const failed = await call(
      stack.nc,
      paymentRecordOps.fail,
      { id: payment.id, actor: staff.actor, reason: 'The bank returned the transfer.' },
      opts,
    );
    expect(failed).toMatchObject({
      status: 'failed',
      failure_reason: 'The bank returned the transfer.',
      completed_at: null,
    });
    await stack.settle();
    expect(stack.eventsAbout(payment.id)).toEqual([
      expect.objectContaining({
        subject: 'handoff.events.payment.failed',
        event: expect.objectContaining({
          type: 'payment.failed',
          data: expect.objectContaining({ object: failed }),
        }),
      }),
    ]);
  });

  it('refuses to confirm a payment its processor reports itself (provider_confirms)', async () => {
    const { payment } = await stack.approvedPayment();
    await stack
      .rawPayments()
      .updateOne(
        { _id: payment.id },
        { $set: { provider: 'stripe', provider_reference: 'pi_elsewhere' } },
      );
    // Published messages leave the outbox in a batch; compare settled documents.
    await stack.service.outbox.flush();
    const before = await stack.rawPayments().findOne({ _id: payment.id });
    await expect(confirm(payment.id)).rejects.toMatchObject({
      code: 'provider_confirms',
      details: { provider: 'stripe' },
    });
    expect(await stack.rawPayments().findOne({ _id: payment.id })).toEqual(before);
  });

  it('a deployment without Stripe refuses Stripe webhooks', async () => {
    await expect(
      call(
        stack.nc,
        paymentRecordOps.stripeWebhook,
        { payload: '{}', signature: 't=1,v1=00' },
        opts,
      ),
      // As any signature that does not verify: the deployment's settings are not told.
    ).rejects.toMatchObject({
      code: 'signature_invalid',
      message: 'The Stripe-Signature header does not verify for this body.',
    });
  });
});

describe('reading payments', () => {
  it('gets one, and answers payment_not_found for an unknown id', async () => {
    const { payment } = await stack.approvedPayment();
    expect(await call(stack.nc, paymentRecordOps.get, { id: payment.id }, opts)).toEqual(payment);
    await expect(
      call(stack.nc, paymentRecordOps.get, { id: 'pay_unknown' }, opts),
    ).rejects.toMatchObject({ code: 'payment_not_found' });
  });

  it('lists newest first, filtered by status and request, in pages', async () => {
    const requestId = await stack.newRequest();
    const ids: string[] = [];
    for (const amount of [1, 2, 3]) {
      const created = await stack.createPaymentRequest(requestId, { amount });
      await stack.decide(created.id, 'approved');
      await stack.service.sweeps.idle();
      ids.push(((await stack.paymentsOf(requestId))[0] as Payment).id);
    }
    await confirm(ids[0] ?? '');
    const list = (query: Record<string, unknown>) =>
      call(stack.nc, paymentRecordOps.list, { limit: 10, request_id: requestId, ...query }, opts);

    expect((await list({})).data.map((p) => p.id)).toEqual([...ids].reverse());
    expect((await list({ status: 'completed' })).data.map((p) => p.id)).toEqual([ids[0]]);
    expect((await list({ status: 'pending' })).data.map((p) => p.id)).toEqual([ids[2], ids[1]]);
    const first = await list({ limit: 2 });
    expect(first).toMatchObject({ object: 'list', has_more: true });
    const next = await list({ limit: 2, starting_after: first.data.at(-1)?.id });
    expect(next.data.map((p) => p.id)).toEqual([ids[0]]);
    const completedAnywhere = await call(
      stack.nc,
      paymentRecordOps.list,
      { limit: 100, status: 'completed' },
      opts,
    );
    expect(completedAnywhere.data.every((p) => p.status === 'completed')).toBe(true);
  });
});
