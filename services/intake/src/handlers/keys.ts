import { BusError, type Bus } from '@handoff/bus';
import {
  accessSubjects,
  KEY_LIFETIME_DAYS,
  newId,
  type AccessInvalidation,
  type IdPrefix,
  type NotFoundCode,
} from '@handoff/contracts';
import {
  pushOutbox,
  type Outbox,
  type OutboxMessage,
  digestsEqual,
  type GeneratedKey,
} from '@handoff/runtime';
import type { Store } from '@handoff/store';
import type { Collection, Filter, UpdateFilter, WithId } from 'mongodb';
import { keyStatus } from '../domain/access.ts';
import type { StoredKey } from '../store/access.ts';
import { findOr404, insertAnnounced } from '../store/single-document.ts';

// What agent keys (access.ts) and provider keys (providers.ts) share: how one is issued, written
// and revoked, and how the gateways learn of a change.

const DAY_MS = 24 * 60 * 60 * 1000;

/** What the access and provider handlers use: the store, the outbox, and the bus for invalidations. */
export interface AccessDeps {
  store: Store;
  bus: Bus;
  outbox: Outbox;
}

/**
 * Tells every gateway replica to drop what it cached of these agent or provider keys (or of an
 * integration), so a revocation, suspension or scope change applies at once.
 */
export async function broadcastAccessInvalidation(
  bus: Bus,
  invalidation: AccessInvalidation,
): Promise<void> {
  bus.nc.publish(accessSubjects.invalidate, JSON.stringify(invalidation));
  await bus.nc.flush();
}

/**
 * Revokes a key once, in its turn: `announce` makes the message of the revocation from the key
 * before and the time; a key revoked already is left as it is. The gateways are told every time,
 * so that a retried revoke also reaches a replica that missed the first. Returns the key as it
 * was found.
 */
export async function revokeStoredKey<K extends StoredKey>(
  deps: AccessDeps,
  keys: Collection<K>,
  id: string,
  notFound: NotFoundCode,
  notFoundMessage: string,
  announce: (before: WithId<K>, revokedAt: Date) => OutboxMessage,
): Promise<WithId<K>> {
  const { before, revocation } = await deps.store.serialize(keys, id, async () => {
    const before = await findOr404(keys, id, notFound, notFoundMessage);
    if (before.revoked_at) return { before, revocation: undefined };
    const revokedAt = new Date();
    const message = announce(before, revokedAt);
    const updated = await keys.findOneAndUpdate(
      { _id: id, revoked_at: null } as Filter<K>,
      pushOutbox({ $set: { revoked_at: revokedAt } }, [message]) as UpdateFilter<K>,
      { returnDocument: 'after' },
    );
    return { before, revocation: updated ? message : undefined };
  });
  if (revocation) await deps.outbox.publishOrLeave(keys, id, [revocation]);
  await broadcastAccessInvalidation(deps.bus, { key_ids: [id] });
  return before;
}

/**
 * Issues a key of `owner` (its owner's id field): a fresh secret, stored by hash with its display
 * parts and lifetime, announced by `announce`. Returns the stored key and the tail of the
 * answer that shows the secret once.
 */
export async function issueStoredKey<K extends StoredKey>(
  deps: Pick<AccessDeps, 'outbox'>,
  keys: Collection<K>,
  key: { prefix: IdPrefix; generated: GeneratedKey; expiresInDays: number | undefined },
  owner: Omit<K, keyof StoredKey>,
  announce: (doc: K) => OutboxMessage,
) {
  const { generated } = key;
  const now = new Date();
  const days = key.expiresInDays ?? KEY_LIFETIME_DAYS.default;
  const doc = {
    _id: newId(key.prefix),
    ...owner,
    key_hash: generated.hash,
    prefix: generated.prefix,
    last4: generated.last4,
    created_at: now,
    expires_at: new Date(now.getTime() + days * DAY_MS),
    revoked_at: null,
  } as K;
  await insertAnnounced(deps, keys, doc, announce(doc));
  return {
    doc,
    shown: {
      prefix: doc.prefix,
      last4: doc.last4,
      created_at: doc.created_at.toISOString(),
      expires_at: doc.expires_at.toISOString(),
    },
  };
}

/**
 * The key whose hash the gateway presents, with its owner (`ownerOf`), and the answer's fields
 * about the key itself; `api_key_invalid` "Unknown key." when either is missing. The lookup is by hash;
 * the comparison that decides is in constant time all the same.
 */
export async function verifyStoredKey<K extends StoredKey, O>(
  keys: Collection<K>,
  keyHash: string,
  ownerOf: (key: WithId<K>) => Promise<O | null>,
) {
  const key = await keys.findOne({ key_hash: keyHash } as Filter<K>);
  const owner = key && digestsEqual(key.key_hash, keyHash) ? await ownerOf(key) : null;
  if (!key || !owner) throw new BusError('api_key_invalid', 'Unknown key.');
  return {
    key,
    owner,
    verified: { key_id: key._id, status: keyStatus(key), expires_at: key.expires_at.toISOString() },
  };
}
