import type { CollectionPlan } from '@handoff/store';

/** The collections this service owns. No other service reads or writes them. */
export const collections: CollectionPlan = {
  messages: [
    { key: { request_id: 1, _id: 1 }, options: { name: 'request_order' } },
    { key: { 'outbox.created_at': 1 }, options: { name: 'outbox_pending' } },
  ],
};
