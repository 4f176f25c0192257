import { listOf, type Scope } from '@handoff/contracts';
import type { z } from 'zod';
import { defineRoute, type RouteDefinition } from '../http/route.ts';
import { ENGAGEMENT_RESOURCES, type EngagementResource } from './engagement-resources.ts';
import { child, childIds, Id, IdParams, RequestParams } from './ids.ts';
import { filteredList } from './paging.ts';
import { customerParty, providerParty } from './parties.ts';

/**
 * The summaries of one side's two reads of a resource in the OpenAPI document. Their operation
 * ids follow the resource: `listJobs` and `getJob` for the customer, `listProviderJobs` and
 * `getProviderJob` for the provider.
 */
export interface ReadSummaries {
  list: string;
  get: string;
}

/**
 * What a side's two reads of a resource share, whoever reads: their OpenAPI fields, and the list's
 * bus input from the side's party, the page and the filters that were given.
 */
function reads(
  plural: EngagementResource,
  side: '' | 'Provider',
  summaries: ReadSummaries,
  tags: readonly string[],
  sideFilters: z.ZodRawShape = {},
) {
  const resource = ENGAGEMENT_RESOURCES[plural];
  const name = `${side}${plural[0]?.toUpperCase()}${plural.slice(1)}`;
  const filtered = filteredList({ ...resource.filters, ...sideFilters });
  return {
    resource,
    list: {
      method: 'get' as const,
      operationId: `list${name}`,
      summary: summaries.list,
      tags,
      query: filtered.query,
      status: 200,
      response: listOf(resource.item),
    },
    get: {
      method: 'get' as const,
      operationId: `get${name.slice(0, -1)}`,
      summary: summaries.get,
      tags,
      status: 200,
      response: resource.item,
      notFound: [resource.notFound],
    },
    listInput: (party: object, query: unknown) => ({
      party,
      ...filtered.input(query as z.output<typeof filtered.query>),
    }),
  };
}

/**
 * The customer's reads of one resource under `/v1/request/{id}/<plural>`: the pipeline checks the
 * request token first, then the milestones service answers for that request only.
 */
export function customerReads(
  plural: EngagementResource,
  scope: Scope,
  summaries: ReadSummaries,
): RouteDefinition[] {
  const { resource, list, get, listInput } = reads(plural, '', summaries, [plural]);
  const access = { kind: 'agent' as const, scopes: [scope] };
  const base = `/v1/request/{id}/${plural}`;
  return [
    defineRoute({
      ...list,
      path: base,
      access,
      requestToken: 'owner',
      params: RequestParams,
      notFound: ['request_not_found'],
      handle: (ctx) =>
        ctx.call(resource.ops.list, listInput(customerParty(ctx.request.id), ctx.query)),
    }),
    defineRoute({
      ...get,
      path: `${base}/{${resource.idParam}}`,
      access,
      requestToken: 'owner',
      notFound: [resource.notFound, 'request_not_found'],
      params: child(resource.idParam),
      handle: (ctx) => {
        const { child: item } = childIds(ctx.params, resource.idParam);
        return ctx.call(resource.ops.get, { id: item, party: customerParty(ctx.request.id) });
      },
    }),
  ];
}

/**
 * A provider's lists span every request it worked on; this one narrows a list to one request's
 * items (the workspace's request page), found by the request and checked for the provider in
 * the milestones service, so its cost does not grow with the provider's history.
 */
const ONE_REQUEST = {
  request_id: Id.optional().meta({
    description: "Only the items of this request (the provider's own, as always).",
  }),
};

/** A provider's reads of its own resources under `/v1/provider/<plural>`. */
export function providerReads(
  plural: EngagementResource,
  summaries: ReadSummaries,
): RouteDefinition[] {
  const { resource, list, get, listInput } = reads(
    plural,
    'Provider',
    summaries,
    ['provider', plural],
    ONE_REQUEST,
  );
  const access = { kind: 'provider' as const };
  const base = `/v1/provider/${plural}`;
  return [
    defineRoute({
      ...list,
      path: base,
      access,
      handle: (ctx) => ctx.call(resource.ops.list, listInput(providerParty(ctx), ctx.query)),
    }),
    defineRoute({
      ...get,
      path: `${base}/{id}`,
      access,
      params: IdParams,
      handle: (ctx) => ctx.call(resource.ops.get, { id: ctx.params.id, party: providerParty(ctx) }),
    }),
  ];
}
