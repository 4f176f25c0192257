import type { CollectionPlan } from '@handoff/store';

/**
 * The collections this service owns (no other service reads or writes them), prefixed `mail_`
 * since services may share a database. Every hot read is by `_id`: a mail by its de-duplication
 * key, an address, a provider's settings or inbox, an object's deadline.
 */
export const MAIL_COLLECTIONS = {
  log: 'mail_log',
  addresses: 'mail_addresses',
  settings: 'mail_settings',
  inbox: 'mail_inbox',
  deadlines: 'mail_deadlines',
} as const;

export const collections: CollectionPlan = {
  // Entries are deleted an hour's bucket at a time, by equality (FerretDB 1.x has no TTL index).
  [MAIL_COLLECTIONS.log]: [{ key: { expires_bucket: 1 }, options: { name: 'expiry' } }],
  [MAIL_COLLECTIONS.addresses]: [],
  [MAIL_COLLECTIONS.settings]: [],
  [MAIL_COLLECTIONS.inbox]: [],
  [MAIL_COLLECTIONS.deadlines]: [],
};
