import { toMajorUnits, type PaymentRequest } from '@handoff/contracts';
import type { OutboxFields } from '@handoff/runtime';
import type { PaymentRequestStatus } from '../domain/states.ts';

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
