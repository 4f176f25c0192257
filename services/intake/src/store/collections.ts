import { auditCollectionName, auditIndexes, CREATED_BY_OPERATION_INDEX } from '@handoff/runtime';
import type { CollectionPlan, Store } from '@handoff/store';
import type { Collection } from 'mongodb';
import type { ApplicationDoc, IntegrationDoc, KeyDoc } from './access.ts';
import type { ProviderDoc, ProviderKeyDoc } from './providers.ts';
import { requestCollection, type RequestDoc } from './requests.ts';
import type { SessionDoc, SignInLinkDoc } from './workspace.ts';

/**
 * The collections this service owns. No other service reads or writes them. The outbox's index
 * comes from the runtime, on every collection the outbox sweeps.
 */
export const collections: CollectionPlan = {
  requests: [
    { key: { integration_id: 1, _id: -1 }, options: { name: 'integration_newest' } },
    // A retried create finds what its first attempt made (runtime's created-once.ts).
    CREATED_BY_OPERATION_INDEX,
    // What a provider sees: routed to them, engaged with them, or on the marketplace in a category.
    { key: { 'routing.provider_ids': 1, _id: -1 }, options: { name: 'routed_newest' } },
    { key: { engaged_provider_id: 1, _id: -1 }, options: { name: 'engaged_newest' } },
    {
      key: { 'marketplace.review': 1, category: 1, _id: -1 },
      options: { name: 'marketplace_category_newest' },
    },
    // Staff's list by status, newest first; and the waits staff's deadlines show, oldest first.
    { key: { status: 1, _id: -1 }, options: { name: 'status_newest' } },
    {
      key: { status: 1, 'routing.mode': 1, created_at: 1 },
      options: { name: 'unrouted_oldest' },
    },
    {
      key: { 'marketplace.review': 1, created_at: 1 },
      options: { name: 'review_oldest' },
    },
    // Staff's Requests screen by routing state, and a category's queue (its counts, a resume).
    { key: { 'auto_routing.state': 1, _id: -1 }, options: { name: 'routing_state_newest' } },
    {
      key: { category: 1, 'auto_routing.state': 1, created_at: 1 },
      options: { name: 'category_routing_oldest' },
    },
    // Staff's deadlines: the offers waiting for an answer, soonest first.
    {
      key: { 'auto_routing.state': 1, 'auto_routing.respond_by': 1, _id: 1 },
      options: { name: 'offers_soonest' },
    },
    // A test clock's requests (test mode); sparse, since live requests have no clock.
    { key: { test_clock: 1, _id: 1 }, options: { name: 'test_clock_oldest', sparse: true } },
  ],
  access_applications: [{ key: { status: 1, _id: -1 }, options: { name: 'status_newest' } }],
  integrations: [
    { key: { application_id: 1 }, options: { name: 'application_unique', unique: true } },
  ],
  api_keys: [
    { key: { key_hash: 1 }, options: { name: 'key_hash_unique', unique: true } },
    { key: { integration_id: 1, _id: -1 }, options: { name: 'integration_newest' } },
  ],
  providers: [
    { key: { status: 1, _id: -1 }, options: { name: 'status_newest' } },
    { key: { categories: 1, _id: -1 }, options: { name: 'category_newest' } },
    // Sign-in finds a provider by its address.
    { key: { email_key: 1 }, options: { name: 'email_key' } },
    // The rules weigh a category's providers in rotation order; a request's holders are found by it.
    { key: { categories: 1, turn: 1, _id: 1 }, options: { name: 'category_turn' } },
    { key: { held: 1 }, options: { name: 'held' } },
  ],
  routing_categories: [],
  provider_keys: [
    { key: { key_hash: 1 }, options: { name: 'key_hash_unique', unique: true } },
    { key: { provider_id: 1, _id: -1 }, options: { name: 'provider_newest' } },
  ],
  // The workspace: links by their token's hash (`_id`), deleted by the hour they expire in;
  // sessions by their cookie's hash, and a provider's newest first.
  provider_sign_in_links: [{ key: { expires_hour: 1 }, options: { name: 'expires_hour' } }],
  provider_sessions: [
    { key: { session_hash: 1 }, options: { name: 'session_hash_unique', unique: true } },
    { key: { provider_id: 1, _id: -1 }, options: { name: 'provider_newest' } },
  ],
  [auditCollectionName('intake')]: auditIndexes,
};

/** The collections whose documents carry outbox messages. */
export const OUTBOX_COLLECTIONS = [
  'requests',
  'access_applications',
  'integrations',
  'api_keys',
  'providers',
  'provider_keys',
  'provider_sessions',
] as const;

/** Intake's collections, by what they hold. */
export interface IntakeCollections {
  applications: Collection<ApplicationDoc>;
  integrations: Collection<IntegrationDoc>;
  apiKeys: Collection<KeyDoc>;
  providers: Collection<ProviderDoc>;
  providerKeys: Collection<ProviderKeyDoc>;
  requests: Collection<RequestDoc>;
  signInLinks: Collection<SignInLinkDoc>;
  sessions: Collection<SessionDoc>;
}

export function intakeCollections(store: Store): IntakeCollections {
  const { db } = store;
  return {
    applications: db.collection<ApplicationDoc>('access_applications'),
    integrations: db.collection<IntegrationDoc>('integrations'),
    apiKeys: db.collection<KeyDoc>('api_keys'),
    providers: db.collection<ProviderDoc>('providers'),
    providerKeys: db.collection<ProviderKeyDoc>('provider_keys'),
    requests: requestCollection(store),
    signInLinks: db.collection<SignInLinkDoc>('provider_sign_in_links'),
    sessions: db.collection<SessionDoc>('provider_sessions'),
  };
}
