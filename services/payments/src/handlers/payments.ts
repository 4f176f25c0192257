import { BusError, implement, type Endpoint } from '@handoff/bus';
import { deadlineFor, paymentRecordOps } from '@handoff/contracts';
import { byIdWhere, insertOnce } from '@handoff/store';
import type { Collection, Document, Filter, WithId } from 'mongodb';
import {
  STRIPE_SIGNATURE_INVALID,
  type ChargeResult,
  type PaymentProcessor,
  type ProcessorNotification,
} from '../adapters/index.ts';
import { manualProcessor } from '../adapters/manual.ts';
import { testProcessor } from '../adapters/test.ts';
import { movePayment } from './moves.ts';
import { RECOVERY_GRACE_MS, TEST_PROCESSOR } from '../domain/payments.ts';
import { PAYMENT_MACHINE } from '../domain/states.ts';
import type { PaymentRequestDoc } from '../store/payment-requests.ts';
import { findPayment, paymentView, type PaymentDoc } from '../store/payments.ts';
import { listPage } from '../store/queries.ts';
import { safeError, type PaymentContext } from './context.ts';

/** Payments (staff's reads and moves) and payment processor webhooks. */
export function paymentEndpoints(ctx: PaymentContext): Record<string, Endpoint> {
  return {
    ...implement(paymentRecordOps.list, (query) => listPage(ctx.payments, query, paymentView)),

    ...implement(paymentRecordOps.get, async ({ id }) => paymentView(await findPayment(ctx, id))),

    ...implement(paymentRecordOps.confirm, async ({ id, actor, reference }, { callId }) => {
      const moved = await movePayment(ctx, id, 'complete', {
        actor,
        call_id: callId,
        ...(reference ? { provider_reference: reference } : {}),
        guard: (payment) => {
          // A test payment is settled like a manual one, by test mode (`system:test-mode`).
          if (payment.provider !== 'manual' && payment.provider !== TEST_PROCESSOR) {
            throw new BusError(
              'provider_confirms',
              `This payment goes through ${payment.provider}, which reports its completion itself; staff cannot confirm it.`,
              { details: { provider: payment.provider } },
            );
          }
        },
      });
      return paymentView(moved);
    }),

    ...implement(paymentRecordOps.fail, async ({ id, actor, reason }, { callId }) =>
      paymentView(
        await movePayment(ctx, id, 'fail', {
          actor,
          call_id: callId,
          failure_reason: reason,
        }),
      ),
    ),

    ...implement(paymentRecordOps.stripeWebhook, async ({ payload, signature }) => {
      const { processor } = ctx;
      if (processor.name !== 'stripe' || !processor.parseWebhook) {
        // No secret here to verify one with: to the sender, as any signature that does not
        // verify (the deployment's configuration is not the public's to learn).
        throw new BusError('signature_invalid', STRIPE_SIGNATURE_INVALID);
      }
      return applyNotification(ctx, processor.parseWebhook(payload, signature));
    }),
  };
}

const RECOVERY_BATCH = 200;

/**
 * Writes the payment an approval named. Idempotent: the payment's `_id` is the approval's
 * `payment_id` (and `payment_request_id` is unique), so a second attempt finds a duplicate key and
 * is done. Returns the payment id, or undefined when the payment request has none to create.
 */
export async function materializePayment(
  ctx: PaymentContext,
  request: PaymentRequestDoc,
): Promise<string | undefined> {
  const paymentId = request.payment_id;
  if (request.status !== 'approved' || !paymentId) return undefined;
  if (!request.payment_created) {
    const approvedAt = request.decided_at ?? new Date();
    const status = PAYMENT_MACHINE.initial;
    const doc: PaymentDoc = {
      _id: paymentId,
      payment_request_id: request._id,
      request_id: request.request_id,
      integration_id: request.integration_id,
      amount_minor: request.amount_minor,
      currency: request.currency,
      description: request.description,
      // A test request's payment never reaches the configured processor (Stripe, staff).
      provider: (await ctx.isLive(request.request_id)) ? ctx.processor.name : TEST_PROCESSOR,
      provider_reference: null,
      status,
      failure_reason: null,
      deadline_at: deadlineFor(PAYMENT_MACHINE, status, approvedAt),
      created_at: approvedAt,
      updated_at: new Date(),
      completed_at: null,
      charged_at: null,
      decided_by: null,
    };
    await insertOnce(ctx.payments, doc);
    await ctx.store.serialize(ctx.requests, request._id, () =>
      ctx.requests.updateOne({ _id: request._id }, { $set: { payment_created: true } }),
    );
  }
  return paymentId;
}

/** The processor that charges a payment: the one it was created with (its `provider` field). */
function processorOf(ctx: PaymentContext, payment: PaymentDoc): PaymentProcessor | undefined {
  if (payment.provider === ctx.processor.name) return ctx.processor;
  // Manual payments need no settings, so they stay chargeable whatever is configured now.
  if (payment.provider === 'manual') return manualProcessor();
  if (payment.provider === TEST_PROCESSOR) return testProcessor();
  return undefined;
}

/**
 * Asks the payment's processor to charge it, once: `charged_at` records that it was asked. A
 * processor that refuses outright (a declined card) fails the payment. Throws on transient
 * failures, leaving the payment for the recovery sweep. Returns whether the processor was asked.
 */
export async function chargePayment(ctx: PaymentContext, paymentId: string): Promise<boolean> {
  const asked = await ctx.store.serialize(ctx.payments, paymentId, async () => {
    const payment = await ctx.payments.findOne({ _id: paymentId });
    if (!payment || payment.status !== 'pending' || payment.charged_at) return undefined;
    const processor = processorOf(ctx, payment);
    if (!processor) {
      ctx.logger.warn(
        { payment_id: paymentId, provider: payment.provider },
        'the payment provider of this payment is not configured; it waits for staff',
      );
      return undefined;
    }
    const result: ChargeResult = await processor.charge({
      payment_id: payment._id,
      payment_request_id: payment.payment_request_id,
      request_id: payment.request_id,
      amount_minor: payment.amount_minor,
      currency: payment.currency,
      description: payment.description,
    });
    const now = new Date();
    await ctx.payments.updateOne(byIdWhere<PaymentDoc>(paymentId, { status: 'pending' }), {
      $set: {
        charged_at: now,
        updated_at: now,
        provider_reference: result.provider_reference ?? payment.provider_reference,
      },
    });
    return result;
  });
  if (asked?.outcome === 'failed') {
    await movePayment(ctx, paymentId, 'fail', {
      actor: 'system',
      call_id: null,
      failure_reason: asked.failure_reason,
      provider_reference: asked.provider_reference,
      idempotent: true,
    });
  }
  return asked !== undefined;
}

/**
 * After an approval: the payment is written before the call answers (a local write), and the
 * processor is asked to charge after it (an outside call that must not hold up staff).
 */
export async function afterApproval(ctx: PaymentContext, request: PaymentRequestDoc) {
  let paymentId: string | undefined;
  try {
    paymentId = await materializePayment(ctx, request);
  } catch (error) {
    ctx.logger.warn(
      { err: error, payment_request_id: request._id },
      'creating the payment failed; the recovery sweep retries',
    );
    return;
  }
  if (paymentId !== undefined) {
    const id = paymentId;
    ctx.later('charging the payment', () => chargePayment(ctx, id), { payment_id: id });
  }
}

/**
 * The recovery sweep: payments that approvals named but a crash left unwritten, and payments
 * that the processor was never asked to charge. Only work older than RECOVERY_GRACE_MS before
 * `now` is taken, so that the calls still doing it are not raced.
 */
export async function recoverPayments(ctx: PaymentContext, now: Date = new Date()) {
  const before = new Date(now.getTime() - RECOVERY_GRACE_MS);
  const created = await recoverEach(
    ctx.requests,
    { status: 'approved', payment_created: false, decided_at: { $lt: before } },
    async (request) => (await materializePayment(ctx, request)) !== undefined,
    (request, error) =>
      ctx.logger.warn({ err: error, payment_request_id: request._id }, 'recovery: create failed'),
  );
  const charged = await recoverEach(
    ctx.payments,
    { status: 'pending', charged_at: null, created_at: { $lt: before } },
    (payment) => chargePayment(ctx, payment._id),
    (payment, error) =>
      ctx.logger.warn(
        { payment_id: payment._id, error: safeError(error) },
        'recovery: charge failed',
      ),
  );
  return { created, charged };
}

/**
 * Runs `step` on each of the first RECOVERY_BATCH documents that `filter` finds and counts the
 * ones it did; a failure goes to `failed` and the others still run (the next sweep tries again).
 */
async function recoverEach<D extends Document>(
  collection: Collection<D>,
  filter: Filter<D>,
  step: (doc: WithId<D>) => Promise<boolean>,
  failed: (doc: WithId<D>, error: unknown) => void,
): Promise<number> {
  let done = 0;
  for (const doc of await collection.find(filter).limit(RECOVERY_BATCH).toArray()) {
    try {
      if (await step(doc)) done += 1;
    } catch (error) {
      failed(doc, error);
    }
  }
  return done;
}

/**
 * A verified processor notification: completes or fails the payment it names (by the processor's
 * reference, or by our id in its metadata). Replays answer unchanged.
 */
export async function applyNotification(
  ctx: PaymentContext,
  notification: ProcessorNotification,
): Promise<{ received: true; payment_id: string | null }> {
  if (notification.kind === 'ignored') return { received: true, payment_id: null };
  const processor = ctx.processor.name;
  const payment =
    (await ctx.payments.findOne({
      provider: processor,
      provider_reference: notification.provider_reference,
    })) ??
    (notification.payment_id === null
      ? null
      : await ctx.payments.findOne({ _id: notification.payment_id, provider: processor }));
  if (!payment) {
    // Another system's charge on the same account: acknowledged, so the processor stops resending.
    ctx.logger.info(
      { provider_reference: notification.provider_reference },
      'provider notification for no payment of ours',
    );
    return { received: true, payment_id: null };
  }
  if (
    notification.amount_minor !== payment.amount_minor ||
    notification.currency.toUpperCase() !== payment.currency.toUpperCase()
  ) {
    throw new BusError(
      'amount_mismatch',
      `The provider reports ${notification.amount_minor} ${notification.currency} for a payment of ${payment.amount_minor} ${payment.currency} (minor units).`,
      { details: { payment_id: payment._id } },
    );
  }
  const moved = await movePayment(
    ctx,
    payment._id,
    notification.kind === 'succeeded' ? 'complete' : 'fail',
    {
      actor: 'system',
      call_id: null,
      provider_reference: notification.provider_reference,
      failure_reason: notification.failure_reason ?? undefined,
      idempotent: true,
    },
  );
  return { received: true, payment_id: moved._id };
}
