import { auditCollectionName, auditIndexes } from '@handoff/runtime';
import type { CollectionPlan } from '@handoff/store';

const pendingOutbox = {
  key: { 'outbox.created_at': 1 },
  options: { name: 'outbox_pending' },
} as const;

/** The collections this service owns. No other service reads or writes them. */
export const collections: CollectionPlan = {
  requests: [
    { key: { integration_id: 1, _id: -1 }, options: { name: 'integration_newest' } },
    pendingOutbox,
  ],
  access_applications: [
    { key: { status: 1, _id: -1 }, options: { name: 'status_newest' } },
    pendingOutbox,
  ],
  integrations: [
    { key: { application_id: 1 }, options: { name: 'application_unique', unique: true } },
    pendingOutbox,
  ],
  api_keys: [
    { key: { key_hash: 1 }, options: { name: 'key_hash_unique', unique: true } },
    { key: { integration_id: 1, _id: -1 }, options: { name: 'integration_newest' } },
    pendingOutbox,
  ],
  [auditCollectionName('intake')]: auditIndexes,
};
