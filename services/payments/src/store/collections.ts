import { auditCollectionName, auditIndexes, CREATED_BY_OPERATION_INDEX } from '@handoff/runtime';
import type { CollectionPlan, Store } from '@handoff/store';
import type { Collection } from 'mongodb';
import type { PaymentRequestDoc } from './payment-requests.ts';
import type { PaymentDoc } from './payments.ts';

export const PAYMENT_REQUESTS = 'payment_requests';
export const PAYMENTS = 'payments';

/**
 * The collections this service owns. No other service reads or writes them. The outbox's index
 * comes from the runtime, on every collection the outbox sweeps.
 */
export const collections: CollectionPlan = {
  [PAYMENT_REQUESTS]: [
    // A retried create finds what its first attempt made (runtime's created-once.ts).
    CREATED_BY_OPERATION_INDEX,
    // A request's approved payment requests, oldest first (`list_approved`).
    { key: { request_id: 1, status: 1, _id: 1 }, options: { name: 'request_status_oldest' } },
    // The staff queue by status, newest first (`list`).
    { key: { status: 1, _id: -1 }, options: { name: 'status_newest' } },
    // One request's payment requests, newest first (`list` with `request_id`, the agent's list).
    { key: { request_id: 1, _id: -1 }, options: { name: 'request_newest' } },
    // Deadlines: pending ones soonest first (`deadlines.list`, the deadline sweep).
    { key: { status: 1, deadline_at: 1 }, options: { name: 'status_deadline' } },
    // Approvals whose payment document a crash left unwritten (the recovery sweep).
    {
      key: { status: 1, payment_created: 1, decided_at: 1 },
      options: { name: 'approved_without_payment' },
    },
  ],
  [auditCollectionName('payments')]: auditIndexes,
  [PAYMENTS]: [
    { key: { payment_request_id: 1 }, options: { name: 'payment_request_unique', unique: true } },
    // Stripe webhooks find their payment by PaymentIntent id.
    { key: { provider_reference: 1 }, options: { name: 'provider_reference' } },
    { key: { status: 1, _id: -1 }, options: { name: 'status_newest' } },
    { key: { request_id: 1, _id: -1 }, options: { name: 'request_newest' } },
    { key: { status: 1, deadline_at: 1 }, options: { name: 'status_deadline' } },
    // Payments the processor was not yet asked to charge (the recovery sweep).
    { key: { status: 1, charged_at: 1, created_at: 1 }, options: { name: 'uncharged' } },
  ],
};

export function paymentRequests(store: Store): Collection<PaymentRequestDoc> {
  return store.db.collection<PaymentRequestDoc>(PAYMENT_REQUESTS);
}

export function payments(store: Store): Collection<PaymentDoc> {
  return store.db.collection<PaymentDoc>(PAYMENTS);
}
