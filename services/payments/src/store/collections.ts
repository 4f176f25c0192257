import type { CollectionPlan } from '@handoff/store';

/** The collections this service owns. No other service reads or writes them. */
export const collections: CollectionPlan = {
  payment_requests: [
    { key: { request_id: 1, created_at: -1 }, options: { name: 'request_created' } },
  ],
  payments: [
    { key: { payment_request_id: 1 }, options: { name: 'payment_request_unique', unique: true } },
  ],
};
