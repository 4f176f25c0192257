import { BusError, implement, type Bus, type Endpoint } from '@handoff/bus';
import {
  digestsEqual,
  generateProviderKey,
  KEY_LIFETIME_DAYS,
  newId,
  providerOps,
  type AccessInvalidation,
  type Provider,
} from '@handoff/contracts';
import type { Logger } from '@handoff/observability';
import {
  auditMessage,
  type AuditRecord,
  type Outbox,
  type OutboxMessage,
  withOutbox,
  pushOutbox,
} from '@handoff/runtime';
import { paginate, type Store } from '@handoff/store';
import type { Filter } from 'mongodb';
import { keyStatus } from '../domain/access.ts';
import { broadcastAccessInvalidation } from './access.ts';
import { requestCollection } from '../store/requests.ts';
import {
  providerCollections,
  providerKeyView,
  providerRequestView,
  providerSnapshot,
  providerView,
  relationOf,
  visibleTo,
  type ProviderDoc,
  type ProviderKeyDoc,
} from '../store/providers.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** How many of a provider's keys its view lists, newest first. */
const KEYS_SHOWN = 100;
const MAX_ATTEMPTS = 20;

export interface ProviderDeps {
  store: Store;
  bus: Bus;
  logger: Logger;
  outbox: Outbox;
}

/**
 * Providers' staff actions are announced on the audit stream (`handoff.audit.intake.provider.*`)
 * with their audit entry. The access stream's event kinds are a closed list for applications,
 * integrations and agent keys, and providers have no domain event kind in the spec, so the audit
 * stream is where staff tools see them, exactly as payments announce a rejected payment request.
 */
function audited(
  who: { actor: string; requestId: string },
  action: string,
  target: { type: 'provider' | 'provider_key'; id: string },
  before: Record<string, unknown> | null,
  after: Record<string, unknown>,
): OutboxMessage {
  const record: AuditRecord = {
    actor: who.actor,
    action,
    target_type: target.type,
    target_id: target.id,
    at: new Date(),
    // The call's Request-Id (the bus carries the HTTP request's), as access actions record it.
    call_id: who.requestId,
    before,
    after,
  };
  return auditMessage('intake', action, record);
}

export function providerEndpoints(deps: ProviderDeps): Record<string, Endpoint> {
  const c = providerCollections(deps.store);
  const requests = requestCollection(deps.store);
  // The caller's change is already durable; a failed publish is left to the sweep.
  const publish = deps.outbox.publishOrLeave;

  const broadcastInvalidation = (invalidation: AccessInvalidation) =>
    broadcastAccessInvalidation(deps.bus, invalidation);

  const findProvider = async (id: string) => {
    const doc = await c.providers.findOne({ _id: id });
    if (!doc) throw new BusError('not_found', 'No such provider.');
    return doc;
  };

  const keysOf = (providerId: string) =>
    c.keys.find({ provider_id: providerId }).sort({ _id: -1 }).limit(KEYS_SHOWN).toArray();

  const withKeys = async (doc: ProviderDoc): Promise<Provider> =>
    providerView(doc, await keysOf(doc._id));

  /** Only an active provider sees requests; a suspended or unknown one sees nothing at all. */
  const activeProvider = async (id: string, missing: string) => {
    const doc = await c.providers.findOne({ _id: id });
    if (!doc || doc.status !== 'active') throw new BusError('not_found', missing);
    return doc;
  };

  return {
    ...implement(providerOps.create, async ({ actor, input }, { requestId }) => {
      const now = new Date();
      const doc: ProviderDoc = {
        _id: newId('prv'),
        name: input.name,
        email: input.email,
        categories: input.categories,
        status: 'active',
        created_at: now,
        updated_at: now,
      };
      const message = audited(
        { actor, requestId },
        'provider.created',
        { type: 'provider', id: doc._id },
        null,
        providerSnapshot(doc),
      );
      await c.providers.insertOne(withOutbox(doc, [message]));
      await publish(c.providers, doc._id, [message]);
      return providerView(doc, []);
    }),

    ...implement(providerOps.list, async ({ status, category, ...page }) => {
      const filter: Filter<ProviderDoc> = {};
      if (status) filter.status = status;
      if (category) filter.categories = category;
      const result = await paginate(c.providers, filter, page);
      const keys = await c.keys
        .find({ provider_id: { $in: result.data.map((doc) => doc._id) } })
        .sort({ _id: -1 })
        .toArray();
      return {
        object: 'list' as const,
        data: result.data.map((doc) =>
          providerView(doc, keys.filter((key) => key.provider_id === doc._id).slice(0, KEYS_SHOWN)),
        ),
        has_more: result.has_more,
      };
    }),

    ...implement(providerOps.get, async ({ id }) => withKeys(await findProvider(id))),

    ...implement(providerOps.update, async ({ id, actor, patch }, { requestId }) => {
      const { updated, message, statusChanged } = await deps.store.serialize(
        c.providers,
        id,
        async () => {
          for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
            const before = await findProvider(id);
            const change: Partial<ProviderDoc> = {
              ...(patch.name === undefined ? {} : { name: patch.name }),
              ...(patch.email === undefined ? {} : { email: patch.email }),
              ...(patch.categories === undefined ? {} : { categories: patch.categories }),
              ...(patch.status === undefined ? {} : { status: patch.status }),
              updated_at: new Date(),
            };
            const after: ProviderDoc = { ...before, ...change };
            const statusChanged = after.status !== before.status;
            const action = !statusChanged
              ? 'provider.updated'
              : after.status === 'suspended'
                ? 'provider.suspended'
                : 'provider.reactivated';
            const message = audited(
              { actor, requestId },
              action,
              { type: 'provider', id },
              providerSnapshot(before),
              providerSnapshot(after),
            );
            // The old `updated_at` makes this a compare-and-set against another replica's change.
            const updated = await c.providers.findOneAndUpdate(
              { _id: id, updated_at: before.updated_at },
              pushOutbox({ $set: change }, [message]),
              { returnDocument: 'after' },
            );
            if (updated) return { updated, message, statusChanged };
          }
          throw new BusError('unavailable', 'The provider is changing too often; try again.');
        },
      );
      await publish(c.providers, id, [message]);
      const keys = await c.keys.find({ provider_id: id }, { projection: { _id: 1 } }).toArray();
      // A suspension stops every key of the provider at once (and a reactivation drops the
      // cached refusals); the gateway asks again and learns the provider's status.
      if (statusChanged && keys.length > 0) {
        await broadcastInvalidation({ key_ids: keys.map((key) => key._id) });
      }
      return withKeys(updated);
    }),

    ...implement(providerOps.issueKey, async ({ id, actor, input }, { requestId }) => {
      const provider = await findProvider(id);
      if (provider.status !== 'active') {
        throw new BusError('conflict', 'A suspended provider cannot be given a key.', {
          details: { code: 'provider_suspended' },
        });
      }
      const generated = generateProviderKey();
      const now = new Date();
      const days = input.expires_in_days ?? KEY_LIFETIME_DAYS.default;
      const doc: ProviderKeyDoc = {
        _id: newId('pvk'),
        provider_id: id,
        key_hash: generated.hash,
        prefix: generated.prefix,
        last4: generated.last4,
        created_at: now,
        expires_at: new Date(now.getTime() + days * DAY_MS),
        revoked_at: null,
      };
      const message = audited(
        { actor, requestId },
        'provider_key.issued',
        { type: 'provider_key', id: doc._id },
        null,
        providerKeyView(doc),
      );
      await c.keys.insertOne(withOutbox(doc, [message]));
      await publish(c.keys, doc._id, [message]);
      return {
        object: 'provider_key' as const,
        api_key: generated.key,
        key_id: doc._id,
        provider_id: id,
        prefix: doc.prefix,
        last4: doc.last4,
        created_at: doc.created_at.toISOString(),
        expires_at: doc.expires_at.toISOString(),
      };
    }),

    ...implement(providerOps.revokeKey, async ({ key_id, actor }, { requestId }) => {
      const { revocation, providerId } = await deps.store.serialize(c.keys, key_id, async () => {
        const before = await c.keys.findOne({ _id: key_id });
        if (!before) throw new BusError('not_found', 'No such provider key.');
        if (before.revoked_at) return { revocation: undefined, providerId: before.provider_id };
        const revokedAt = new Date();
        const message = audited(
          { actor, requestId },
          'provider_key.revoked',
          { type: 'provider_key', id: key_id },
          providerKeyView(before),
          providerKeyView({ ...before, revoked_at: revokedAt }),
        );
        const updated = await c.keys.findOneAndUpdate(
          { _id: key_id, revoked_at: null },
          pushOutbox({ $set: { revoked_at: revokedAt } }, [message]),
          { returnDocument: 'after' },
        );
        return { revocation: updated ? message : undefined, providerId: before.provider_id };
      });
      if (revocation) await publish(c.keys, key_id, [revocation]);
      // Always broadcast, so that a retried revoke also reaches a replica that missed the first.
      await broadcastInvalidation({ key_ids: [key_id] });
      return withKeys(await findProvider(providerId));
    }),

    ...implement(providerOps.verifyKey, async ({ key_hash }) => {
      const key = await c.keys.findOne({ key_hash });
      // The lookup is by hash; the comparison that decides is in constant time all the same.
      if (!key || !digestsEqual(key.key_hash, key_hash)) {
        throw new BusError('not_found', 'Unknown key.');
      }
      const provider = await c.providers.findOne(
        { _id: key.provider_id },
        { projection: { status: 1 } },
      );
      if (!provider) throw new BusError('not_found', 'Unknown key.');
      return {
        key_id: key._id,
        provider_id: key.provider_id,
        provider_status: provider.status,
        status: keyStatus(key),
        expires_at: key.expires_at.toISOString(),
      };
    }),

    ...implement(providerOps.requests, async ({ provider_id, ...page }) => {
      const provider = await activeProvider(provider_id, 'No such provider.');
      const result = await paginate(requests, visibleTo(provider), page);
      return {
        object: 'list' as const,
        data: result.data.flatMap((doc) => {
          const relation = relationOf(doc, provider);
          return relation ? [providerRequestView(doc, relation)] : [];
        }),
        has_more: result.has_more,
      };
    }),

    ...implement(providerOps.request, async ({ provider_id, request_id }) => {
      const provider = await activeProvider(provider_id, 'No such request.');
      const doc = await requests.findOne({ _id: request_id });
      const relation = doc ? relationOf(doc, provider) : null;
      // Another provider's request looks exactly like a missing one: no existence oracle.
      if (!doc || !relation) throw new BusError('not_found', 'No such request.');
      return {
        ...providerRequestView(doc, relation),
        integration_id: doc.integration_id,
        provider_name: provider.name,
      };
    }),
  };
}
