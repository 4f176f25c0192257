import { CREATED_BY_OPERATION_INDEX } from '@handoff/runtime';
import type { CollectionPlan } from '@handoff/store';

/**
 * The collections this service owns. No other service reads or writes them. The outbox's index
 * comes from the runtime, on every collection the outbox sweeps.
 */
export const collections: CollectionPlan = {
  messages: [
    { key: { request_id: 1, _id: 1 }, options: { name: 'request_order' } },
    // A retried create finds what its first attempt made (runtime's created-once.ts).
    CREATED_BY_OPERATION_INDEX,
  ],
};
