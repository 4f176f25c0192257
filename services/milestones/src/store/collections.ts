import type { CollectionPlan } from '@handoff/store';

/** The collections this service owns. No other service reads or writes them. */
export const collections: CollectionPlan = {
  milestones: [{ key: { request_id: 1, created_at: 1 }, options: { name: 'request_created' } }],
  disputes: [{ key: { request_id: 1, created_at: -1 }, options: { name: 'request_created' } }],
};
