// `providers.requests`, `.request`: the requests a provider may see, as it sees them.
import { BusError, createAccessCache, implement, type Endpoint } from '@handoff/bus';
import { accessSubjects, providerOps } from '@handoff/contracts';
import { heldRequests, type RequestCache } from '@handoff/runtime';
import { paginate } from '@handoff/store';
import {
  providerRequestView,
  relationOf,
  visibleTo,
  type ProviderDoc,
} from '../../store/providers.ts';
import type { IntakeContext } from '../context.ts';

/** Finds an active provider; `missing` says what a suspended or unknown one is answered as. */
type ActiveProvider = (id: string, missing: 'provider' | 'request') => Promise<ProviderDoc>;

/**
 * The providers that the request reads check, cached like the gateway's keys: a provider's every
 * step reads its request, and the provider itself rarely changes. A change drops it on every
 * replica by the access broadcast, this one included before the change is answered. Only an
 * active provider sees requests; a suspended or unknown one sees nothing at all, and is answered
 * as `missing` says: the provider, or the request it asks for.
 */
function activeProviders(ctx: IntakeContext): ActiveProvider {
  const directory = createAccessCache<ProviderDoc>({
    nc: ctx.bus.nc,
    ttlMs: ctx.env.ACCESS_CACHE_TTL_MS,
    subject: accessSubjects.invalidate,
    fetch: (id) => ctx.collections.providers.findOne({ _id: id }),
    invalidatedBy: (provider, { provider_ids = [] }) => provider_ids.includes(provider._id),
  });
  return async (id, missing) => {
    let doc = await directory.lookup(id);
    // A refusal is never taken from memory: a change made through another replica may not have
    // reached this one's cache yet (its broadcast is milliseconds behind).
    if (!doc || doc.status !== 'active') doc = await ctx.collections.providers.findOne({ _id: id });
    if (!doc || doc.status !== 'active') {
      throw missing === 'provider'
        ? new BusError('provider_not_found', 'No such provider.')
        : new BusError('request_not_found', 'No such request.');
    }
    return doc;
  };
}

/** The request as stored now, without its kept events. */
async function storedRequest(ctx: IntakeContext, requestId: string) {
  const found = await ctx.collections.requests.findOne(
    { _id: requestId },
    { projection: { outbox: 0 } },
  );
  if (!found) throw new BusError('request_not_found', 'No such request.');
  return found;
}

/** The request as held between its events (only what exists is kept: see heldRequests). */
function heldRequest(ctx: IntakeContext, held: RequestCache, requestId: string) {
  return held.view(requestId, () => storedRequest(ctx, requestId));
}

export function visibleRequestEndpoints(ctx: IntakeContext): Record<string, Endpoint> {
  const activeProvider = activeProviders(ctx);
  // Listening from the start, so that no `request.updated` after the first read goes unheard.
  const held = heldRequests(ctx.bus.nc);
  return {
    ...implement(providerOps.requests, async ({ provider_id, ...page }) => {
      const provider = await activeProvider(provider_id, 'provider');
      const result = await paginate(ctx.collections.requests, visibleTo(provider), page);
      return {
        object: 'list' as const,
        data: result.data.flatMap((doc) => {
          const relation = relationOf(doc, provider);
          return relation ? [providerRequestView(doc, relation, provider._id)] : [];
        }),
        has_more: result.has_more,
      };
    }),

    ...implement(providerOps.request, async ({ provider_id, request_id }) => {
      // Both usually from memory (the provider until it changes, the request until its next
      // `request.updated`), else read at once.
      const [provider, heldDoc] = await Promise.all([
        activeProvider(provider_id, 'request'),
        heldRequest(ctx, held, request_id),
      ]);
      let doc = heldDoc;
      let relation = relationOf(doc, provider);
      if (!relation) {
        // Not from memory either: the request may have been routed to this provider through
        // another replica a moment ago, its `request.updated` not yet heard here.
        held.drop(request_id);
        doc = await storedRequest(ctx, request_id);
        relation = relationOf(doc, provider);
      }
      // Another provider's request looks exactly like a missing one: no existence oracle.
      if (!relation) throw new BusError('request_not_found', 'No such request.');
      return {
        ...providerRequestView(doc, relation, provider._id),
        integration_id: doc.integration_id,
        provider_name: provider.name,
      };
    }),
  };
}
