import type { CollectionPlan } from '@handoff/store';

/** The collections this service owns. No other service reads or writes them. */
export const collections: CollectionPlan = {
  requests: [
    { key: { integration_id: 1, created_at: -1 }, options: { name: 'integration_created' } },
    {
      key: { request_token_hash: 1 },
      options: { name: 'request_token_hash_unique', unique: true },
    },
  ],
  outbox: [{ key: { published_at: 1, created_at: 1 }, options: { name: 'unpublished_first' } }],
};
