import {
  OfferDecline,
  ProviderMe,
  ProviderRequest,
  ProviderSelfPatch,
  providerOps,
  routingOps,
  type Provider,
} from '@handoff/contracts';
import { defineRoute, type RouteContext } from '../http/route.ts';
import { IdParams } from './ids.ts';

/**
 * A provider's answers to the offers automatic routing makes it, and its own routing profile
 * (languages and availability; staff set its capacity).
 */

const PROVIDER = { kind: 'provider' } as const;
const OFFER = {
  tags: ['provider', 'routing'],
  access: PROVIDER,
  params: IdParams,
  status: 200,
  response: ProviderRequest,
  notFound: ['request_not_found', 'offer_not_found'],
  conflicts: ['offer_not_pending'],
} as const;

/** The provider as it sees itself, with the key or session it called with. */
export const providerMe = (
  ctx: RouteContext<'provider'>,
  provider: Pick<
    Provider,
    'id' | 'name' | 'categories' | 'capacity' | 'languages' | 'availability' | 'load'
  >,
) => ({
  object: 'provider' as const,
  id: provider.id,
  name: provider.name,
  categories: provider.categories,
  capacity: provider.capacity,
  languages: provider.languages,
  availability: provider.availability,
  load: provider.load,
  key_id: ctx.provider.key_id,
  expires_at: ctx.provider.expires_at,
});

/**
 * The request as the provider may see it (404 `request_not_found` otherwise: no existence
 * oracle); an answer to an offer asks it first, so only then does it say whether there is one.
 */
export const visibleRequest = (ctx: RouteContext<'provider', { id: string }>) =>
  ctx.call(providerOps.request, {
    provider_id: ctx.provider.provider_id,
    request_id: ctx.params.id,
  });

export const providerOfferRoutes = [
  defineRoute({
    ...OFFER,
    method: 'post',
    path: '/v1/provider/requests/{id}/offer/accept',
    operationId: 'acceptOffer',
    summary:
      'Accept the offer of a request before its `respond_by`: the request stays routed to the provider, who proposes next',
    handle: async (ctx) => {
      await visibleRequest(ctx);
      return ctx.call(routingOps.accept, {
        provider_id: ctx.provider.provider_id,
        request_id: ctx.params.id,
      });
    },
  }),
  defineRoute({
    ...OFFER,
    method: 'post',
    path: '/v1/provider/requests/{id}/offer/decline',
    operationId: 'declineOffer',
    summary: 'Decline the offer of a request (optionally saying why): it goes to the next provider',
    body: OfferDecline,
    handle: async (ctx) => {
      await visibleRequest(ctx);
      return ctx.call(routingOps.decline, {
        provider_id: ctx.provider.provider_id,
        request_id: ctx.params.id,
        input: ctx.body,
      });
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/v1/provider/me',
    operationId: 'updateProviderMe',
    summary: 'Set the languages the provider works in and whether it takes new requests',
    tags: ['provider', 'routing'],
    access: PROVIDER,
    body: ProviderSelfPatch,
    status: 200,
    response: ProviderMe,
    notFound: ['provider_not_found'],
    handle: async (ctx) =>
      providerMe(
        ctx,
        await ctx.call(routingOps.updateSelf, {
          provider_id: ctx.provider.provider_id,
          patch: ctx.body,
        }),
      ),
  }),
];
