import type { CollectionPlan } from '@handoff/store';

/** The collections this service owns. No other service reads or writes them. */
export const collections: CollectionPlan = {
  webhook_endpoints: [
    { key: { integration_id: 1, created_at: -1 }, options: { name: 'integration_created' } },
  ],
  deliveries: [
    {
      key: { event_id: 1, endpoint_id: 1 },
      options: { name: 'event_endpoint_unique', unique: true },
    },
    { key: { status: 1, next_attempt_at: 1 }, options: { name: 'due' } },
  ],
};
