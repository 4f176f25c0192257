import {
  toMajorUnits,
  type Payment,
  type PAYMENT_PROVIDERS,
  type PaymentRequest,
} from '@handoff/contracts';
import type { OutboxFields } from '@handoff/runtime';
import type { PaymentRequestStatus, PaymentStatus } from '../domain/states.ts';

export type PaymentProcessorName = (typeof PAYMENT_PROVIDERS)[number];

export interface PaymentRequestDoc extends OutboxFields {
  _id: string;
  request_id: string;
  /** The integration that proposed it: the tenant it belongs to. */
  integration_id: string;
  /** Integer minor units of `currency` (cents for USD, yen for JPY), never a float of major units. */
  amount_minor: number;
  currency: string;
  description: string;
  reference: string | null;
  status: PaymentRequestStatus;
  rejection_reason: string | null;
  created_at: Date;
  decided_at: Date | null;
  /** Staff's `sub`, or `system` for an expiry. */
  decided_by: string | null;
  /** When staff run out of time to decide (`pending_approval` only; null in final states). */
  deadline_at?: Date | null;
  /**
   * The payment an approval creates. The approval stores the id in the same write that approves,
   * so creating the payment document afterwards is an idempotent follow-up (insert with this
   * `_id`) that the recovery sweep retries until `payment_created` is true.
   */
  payment_id?: string | null;
  payment_created?: boolean;
}

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

export function paymentRequestView(doc: PaymentRequestDoc): PaymentRequest {
  return {
    object: 'payment_request',
    id: doc._id,
    request_id: doc.request_id,
    amount: toMajorUnits(doc.amount_minor, doc.currency),
    currency: doc.currency,
    description: doc.description,
    reference: doc.reference,
    status: doc.status,
    rejection_reason: doc.rejection_reason,
    created_at: doc.created_at.toISOString(),
    decided_at: doc.decided_at?.toISOString() ?? null,
  };
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
