import { auditCollectionName, auditIndexes } from '@handoff/runtime';
import type { CollectionPlan } from '@handoff/store';

const pendingOutbox = {
  key: { 'outbox.created_at': 1 },
  options: { name: 'outbox_pending' },
} as const;

/** The collections this service owns. No other service reads or writes them. */
export const collections: CollectionPlan = {
  payment_requests: [
    // A request's approved payment requests, oldest first (`list_approved`).
    { key: { request_id: 1, status: 1, _id: 1 }, options: { name: 'request_status_oldest' } },
    // The staff queue by status, newest first (`list`).
    { key: { status: 1, _id: -1 }, options: { name: 'status_newest' } },
    pendingOutbox,
  ],
  [auditCollectionName('payments')]: auditIndexes,
  payments: [
    { key: { payment_request_id: 1 }, options: { name: 'payment_request_unique', unique: true } },
  ],
};
