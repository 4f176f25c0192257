import { auditCollectionName, auditIndexes } from '@handoff/runtime';
import type { CollectionPlan, Store } from '@handoff/store';
import type { Collection } from 'mongodb';
import { deliveryCollections, type AttemptDoc, type DeliveryDoc } from './deliveries.ts';
import { endpointCollections, type EndpointDoc } from './endpoints.ts';
import { eventCollections, type EventDoc } from './events.ts';

/** The collections this service owns. No other service reads or writes them. */
export const collections: CollectionPlan = {
  webhook_endpoints: [
    { key: { integration_id: 1, _id: -1 }, options: { name: 'integration_newest' } },
  ],
  webhook_deliveries: [
    // Finished records are deleted an hour's bucket at a time, by equality.
    { key: { expires_bucket: 1 }, options: { name: 'expiry' } },
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
  // Staff's rotations and redeliveries (the integration's own are not audited).
  [auditCollectionName('webhook-dispatcher')]: auditIndexes,
};

export interface Collections {
  endpoints: Collection<EndpointDoc>;
  deliveries: Collection<DeliveryDoc>;
  attempts: Collection<AttemptDoc>;
  events: Collection<EventDoc>;
}

/** Every resource's collections, in one object. */
export function collectionsOf(store: Store): Collections {
  return {
    ...endpointCollections(store),
    ...deliveryCollections(store),
    ...eventCollections(store),
  };
}
