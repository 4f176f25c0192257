import { BusError, createAccessCache, implement, type Endpoint } from '@handoff/bus';
import {
  accessSubjects,
  emailKey,
  generateProviderKey,
  newId,
  providerOps,
  type Provider,
} from '@handoff/contracts';
import { auditMessage, type AuditRecord, type OutboxMessage, pushOutbox } from '@handoff/runtime';
import { byIdWhere, paginate } from '@handoff/store';
import type { Filter } from 'mongodb';
import type { Env as IntakeEnv } from '../env.ts';
import { findOr404, insertAnnounced } from '../store/documents.ts';
import {
  broadcastAccessInvalidation,
  issueStoredKey,
  revokeStoredKey,
  verifyStoredKey,
  type AccessDeps,
} from './keys.ts';
import { requestCollection } from '../store/requests.ts';
import { heldRequests } from './held-requests.ts';
import { endProviderSessions } from '../store/workspace.ts';
import {
  providerCollections,
  providerKeyView,
  providerRequestView,
  providerSnapshot,
  providerView,
  relationOf,
  visibleTo,
  type ProviderDoc,
} from '../store/providers.ts';

/** How many of a provider's keys its view lists, newest first. */
const KEYS_SHOWN = 100;
const MAX_ATTEMPTS = 20;

/**
 * Providers' staff actions are announced on the audit stream (`handoff.audit.intake.provider.*`)
 * with their audit entry. The access stream's event kinds are a closed list for applications,
 * integrations and agent keys, and providers have no domain event kind in the spec, so the audit
 * stream is where staff tools see them, exactly as payments announce a rejected payment request.
 */
export function audited(
  who: { actor: string; callId: string | null },
  action: string,
  target: { type: 'provider' | 'provider_key' | 'provider_session'; id: string },
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
    call_id: who.callId,
    before,
    after,
  };
  return auditMessage('intake', action, record);
}

export function providerEndpoints(
  deps: AccessDeps & { env: Pick<IntakeEnv, 'ACCESS_CACHE_TTL_MS'> },
): Record<string, Endpoint> {
  const c = providerCollections(deps.store);
  const requests = requestCollection(deps.store);
  // The caller's change is already durable; a failed publish is left to the sweep.
  const publish = deps.outbox.publishOrLeave;

  const held = heldRequests(deps.bus.nc);

  const findProvider = (id: string) => findOr404(c.providers, id, 'No such provider.');

  const keysOf = (providerId: string) =>
    c.keys.find({ provider_id: providerId }).sort({ _id: -1 }).limit(KEYS_SHOWN).toArray();

  const withKeys = async (doc: ProviderDoc): Promise<Provider> =>
    providerView(doc, await keysOf(doc._id));

  /**
   * The providers that the request reads check, cached like the gateway's keys: a provider's every
   * step reads its request, and the provider itself rarely changes. A change drops it on every
   * replica by the access broadcast, this one included before the change is answered.
   */
  const directory = createAccessCache<ProviderDoc>({
    nc: deps.bus.nc,
    ttlMs: deps.env.ACCESS_CACHE_TTL_MS,
    subject: accessSubjects.invalidate,
    fetch: (id) => c.providers.findOne({ _id: id }),
    invalidatedBy: (provider, { provider_ids = [] }) => provider_ids.includes(provider._id),
  });

  /** Only an active provider sees requests; a suspended or unknown one sees nothing at all. */
  const activeProvider = async (id: string, missing: string) => {
    const doc = await directory.lookup(id);
    if (!doc || doc.status !== 'active') throw new BusError('not_found', missing);
    return doc;
  };

  return {
    ...implement(providerOps.create, async ({ actor, input }, { callId }) => {
      const now = new Date();
      const doc: ProviderDoc = {
        _id: newId('prv'),
        name: input.name,
        email: input.email,
        email_key: emailKey(input.email),
        categories: input.categories,
        status: 'active',
        created_at: now,
        updated_at: now,
      };
      const message = audited(
        { actor, callId },
        'provider.created',
        { type: 'provider', id: doc._id },
        null,
        providerSnapshot(doc),
      );
      await insertAnnounced(deps, c.providers, doc, message);
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

    ...implement(providerOps.update, async ({ id, actor, patch }, { callId }) => {
      const { updated, message, statusChanged } = await deps.store.serialize(
        c.providers,
        id,
        async () => {
          for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
            const before = await findProvider(id);
            const change: Partial<ProviderDoc> = {
              ...(patch.name === undefined ? {} : { name: patch.name }),
              ...(patch.email === undefined
                ? {}
                : { email: patch.email, email_key: emailKey(patch.email) }),
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
              { actor, callId },
              action,
              { type: 'provider', id },
              providerSnapshot(before),
              providerSnapshot(after),
            );
            // The old `updated_at` makes this a compare-and-set against another replica's change.
            const updated = await c.providers.findOneAndUpdate(
              byIdWhere<ProviderDoc>(id, { updated_at: before.updated_at }),
              pushOutbox({ $set: change }, [message]),
              { returnDocument: 'after' },
            );
            if (updated) return { updated, message, statusChanged };
          }
          throw new BusError('unavailable', 'The provider is changing too often; try again.');
        },
      );
      await publish(c.providers, id, [message]);
      // Every replica drops the provider (this one before it answers: the broadcast is flushed on
      // the connection its cache listens on); a suspension also stops every key of the provider at
      // once (and a reactivation drops the cached refusals): the gateway asks again and learns
      // the provider's status. The key ids are for gateways that predate `provider_ids`.
      // A suspension also ends the provider's workspace sessions (the gateway refuses them by
      // the provider's status already; this records why they ended).
      const keys = statusChanged
        ? await c.keys.find({ provider_id: id }, { projection: { _id: 1 } }).toArray()
        : [];
      const sessions =
        statusChanged && updated.status === 'suspended'
          ? await endProviderSessions(deps.store, id)
          : [];
      const dropped = [...keys.map((key) => key._id), ...sessions];
      await broadcastAccessInvalidation(deps.bus, {
        provider_ids: [id],
        ...(dropped.length > 0 ? { key_ids: dropped } : {}),
      });
      return withKeys(updated);
    }),

    ...implement(providerOps.issueKey, async ({ id, actor, input }, { callId }) => {
      const provider = await findProvider(id);
      if (provider.status !== 'active') {
        throw new BusError('conflict', 'A suspended provider cannot be given a key.', {
          details: { code: 'provider_suspended' },
        });
      }
      const generated = generateProviderKey();
      const { doc, shown } = await issueStoredKey(
        deps,
        c.keys,
        { prefix: 'pvk', generated, expiresInDays: input.expires_in_days },
        { provider_id: id },
        (issued) =>
          audited(
            { actor, callId },
            'provider_key.issued',
            { type: 'provider_key', id: issued._id },
            null,
            providerKeyView(issued),
          ),
      );
      return {
        object: 'provider_key' as const,
        api_key: generated.key,
        key_id: doc._id,
        provider_id: id,
        ...shown,
      };
    }),

    ...implement(providerOps.revokeKey, async ({ key_id, actor }, { callId }) => {
      const key = await revokeStoredKey(
        deps,
        c.keys,
        key_id,
        'No such provider key.',
        (before, revokedAt) =>
          audited(
            { actor, callId },
            'provider_key.revoked',
            { type: 'provider_key', id: key_id },
            providerKeyView(before),
            providerKeyView({ ...before, revoked_at: revokedAt }),
          ),
      );
      return withKeys(await findProvider(key.provider_id));
    }),

    ...implement(providerOps.verifyKey, async ({ key_hash }) => {
      const { key, owner, verified } = await verifyStoredKey(c.keys, key_hash, (found) =>
        c.providers.findOne({ _id: found.provider_id }, { projection: { status: 1 } }),
      );
      return { ...verified, provider_id: key.provider_id, provider_status: owner.status };
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
      // Both usually from memory (the provider until it changes, the request until its next
      // `request.updated`), else read at once. The kept events are not needed here.
      const [provider, doc] = await Promise.all([
        activeProvider(provider_id, 'No such request.'),
        held.view(request_id, async () => {
          const found = await requests.findOne({ _id: request_id }, { projection: { outbox: 0 } });
          // Only what exists is kept (see heldRequests).
          if (!found) throw new BusError('not_found', 'No such request.');
          return found;
        }),
      ]);
      const relation = relationOf(doc, provider);
      // Another provider's request looks exactly like a missing one: no existence oracle.
      if (!relation) throw new BusError('not_found', 'No such request.');
      return {
        ...providerRequestView(doc, relation),
        integration_id: doc.integration_id,
        provider_name: provider.name,
      };
    }),
  };
}
