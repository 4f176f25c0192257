import type { CollectionPlan } from '@handoff/store';

/** The collections this service owns. No other service reads or writes them. */
export const collections: CollectionPlan = {
  webhook_endpoints: [
    { key: { integration_id: 1, _id: -1 }, options: { name: 'integration_newest' } },
  ],
  webhook_deliveries: [
    { key: { status: 1, next_attempt_at: 1 }, options: { name: 'due' } },
    { key: { endpoint_id: 1, status: 1 }, options: { name: 'endpoint_status' } },
  ],
  webhook_attempts: [{ key: { endpoint_id: 1, _id: -1 }, options: { name: 'endpoint_newest' } }],
  webhook_events: [
    { key: { integration_id: 1, _id: -1 }, options: { name: 'integration_newest' } },
    { key: { integration_id: 1, type: 1, _id: -1 }, options: { name: 'integration_type_newest' } },
    {
      key: { integration_id: 1, request_id: 1, _id: -1 },
      options: { name: 'integration_request_newest' },
    },
    { key: { created_at: 1 }, options: { name: 'created' } },
  ],
  /** One document per delivery attempt claimed by a replica: the unique _id is the lock. */
  webhook_leases: [{ key: { expires_at: 1 }, options: { name: 'expiry' } }],
};
