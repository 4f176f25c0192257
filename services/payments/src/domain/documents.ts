import { toMajorUnits, type PaymentRequest } from '@handoff/contracts';
import type { OutboxMessage } from '@handoff/runtime';
import type { PaymentRequestStatus } from './states.ts';

export interface PaymentRequestDoc {
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
  decided_by: string | null;
  outbox?: OutboxMessage[];
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
