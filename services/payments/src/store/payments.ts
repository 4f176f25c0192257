import { BusError } from '@handoff/bus';
import { toMajorUnits, type Payment } from '@handoff/contracts';
import type { OutboxFields } from '@handoff/runtime';
import type { Collection } from 'mongodb';
import type { PaymentProcessorName } from '../domain/payments.ts';
import type { PaymentStatus } from '../domain/states.ts';

export interface PaymentDoc extends OutboxFields {
  _id: string;
  payment_request_id: string;
  request_id: string;
  integration_id: string;
  /** Integer minor units of `currency`, copied from the approved payment request. */
  amount_minor: number;
  currency: string;
  description: string;
  /** The payment processor configured when the payment was created; it stays with the payment. */
  provider: PaymentProcessorName;
  /** The processor's own id (a Stripe PaymentIntent `pi_…`), or the reference staff confirmed with. */
  provider_reference: string | null;
  status: PaymentStatus;
  failure_reason: string | null;
  deadline_at: Date | null;
  created_at: Date;
  updated_at: Date;
  completed_at: Date | null;
  /**
   * When the processor was asked to charge (null: not yet). The charge is a follow-up of the
   * creation, retried by the recovery sweep; Stripe receives the payment id as idempotency key,
   * so a retried charge never charges twice.
   */
  charged_at: Date | null;
  /** Staff's `sub` or `system`, for the last move. */
  decided_by: string | null;
}

export function paymentView(doc: PaymentDoc): Payment {
  return {
    object: 'payment',
    id: doc._id,
    payment_request_id: doc.payment_request_id,
    request_id: doc.request_id,
    amount: toMajorUnits(doc.amount_minor, doc.currency),
    currency: doc.currency,
    provider: doc.provider,
    provider_reference: doc.provider_reference,
    status: doc.status,
    failure_reason: doc.failure_reason,
    deadline_at: doc.deadline_at?.toISOString() ?? null,
    created_at: doc.created_at.toISOString(),
    updated_at: doc.updated_at.toISOString(),
    completed_at: doc.completed_at?.toISOString() ?? null,
  };
}

export async function findPayment(
  ctx: { payments: Collection<PaymentDoc> },
  id: string,
): Promise<PaymentDoc> {
  const doc = await ctx.payments.findOne({ _id: id });
  if (!doc) throw new BusError('payment_not_found', 'No such payment.');
  return doc;
}
