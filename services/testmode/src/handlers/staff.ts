// What staff would do on a live request, done by test mode on a test one (actor
// `system:test-mode`), so that no test payment request waits for staff and no test payment waits
// for a payment processor: approvals at once, payments settled as the scenario says.
import { BusError } from '@handoff/bus';
import {
  paymentOps,
  paymentRecordOps,
  type PaymentRequest,
  type TestScenario,
} from '@handoff/contracts';
import { paymentFails, TEST_FAILURE_REASON, TEST_MODE_ACTOR } from '../domain/scenarios.ts';
import { CHECK_LIMIT, unlessRefused, type Acting } from './acting.ts';

/** A payment request of a test request (the provider's or the agent's) is approved at once. */
export async function approvePaymentRequest(a: Acting, paymentRequest: PaymentRequest) {
  if (paymentRequest.status !== 'pending_approval') return;
  await unlessRefused(
    a.call(paymentOps.decide, {
      id: paymentRequest.id,
      actor: TEST_MODE_ACTOR,
      decision: { decision: 'approved' },
    }),
    // Decided meanwhile, or the request closed: nothing left to approve.
    'invalid_state_transition',
    'request_closed',
  );
}

/**
 * The payment of an approved payment request is settled: failed in `payment_fails` (the first
 * payment of the request only, so a new payment request the agent proposes is paid), else
 * completed. Only a `test` payment is touched: one a processor charges is never settled here.
 */
export async function settlePayment(
  a: Acting,
  paymentRequest: PaymentRequest,
  scenario: TestScenario,
) {
  if (paymentRequest.status !== 'approved') return;
  const payments = await a.call(paymentRecordOps.list, {
    request_id: paymentRequest.request_id,
    limit: CHECK_LIMIT,
  });
  const payment = payments.data.find((p) => p.payment_request_id === paymentRequest.id);
  if (!payment) {
    // Written right after the approval; until then the event is tried again.
    throw new BusError('service_unavailable', 'the approved payment is not written yet');
  }
  if (payment.status !== 'pending' || payment.provider !== 'test') return;
  const failedBefore = payments.data.some((p) => p.status === 'failed');
  const settle = paymentFails(scenario, failedBefore)
    ? a.call(paymentRecordOps.fail, {
        id: payment.id,
        actor: TEST_MODE_ACTOR,
        reason: TEST_FAILURE_REASON,
      })
    : a.call(paymentRecordOps.confirm, {
        id: payment.id,
        actor: TEST_MODE_ACTOR,
        reference: 'test',
      });
  await unlessRefused(settle, 'invalid_state_transition');
}
