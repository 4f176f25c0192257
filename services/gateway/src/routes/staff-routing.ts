import {
  AutoRoutingState,
  CategoryParam,
  CategoryRouting,
  CategoryRoutingPatch,
  CategoryRoutingSummary,
  listOf,
  MarketplaceReview,
  RequestCounts,
  RequestStatus,
  Routing,
  RoutingOverride,
  RoutingSuggestions,
  routingOps,
  StaffRequest,
  Timestamp,
} from '@handoff/contracts';
import { z } from 'zod';
import { defineRoute } from '../http/route.ts';
import { Id, IdParams } from './ids.ts';
import { filteredList, given } from './paging.ts';
import { audit } from './parties.ts';

/**
 * Staff's requests and automatic routing: the Requests screen's list and counts, one request
 * with where its routing stands and why, staff's hand in it (audited), and category settings.
 */

const STAFF = { tags: ['staff', 'routing'], access: { kind: 'staff' } } as const;

const FILTERS = {
  status: RequestStatus.optional(),
  routing: Routing.shape.mode.optional(),
  routing_state: AutoRoutingState.optional(),
  marketplace_review: MarketplaceReview.optional(),
  category: CategoryParam.optional(),
  integration_id: Id.optional(),
  created_after: Timestamp.optional().meta({
    description: 'Only requests created after this time (an age filter: younger than).',
  }),
  created_before: Timestamp.optional().meta({
    description: 'Only requests created before this time (an age filter: older than).',
  }),
};
const REQUESTS = filteredList(FILTERS);
const COUNT_QUERY = z.strictObject(FILTERS);

const CategoryParams = z.object({ category: CategoryParam });

export const staffRoutingRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/staff/requests',
    operationId: 'listRequestsAsStaff',
    summary:
      'Every request, newest first, with where its automatic routing stands; by status, routing, routing state, category, age, marketplace review or integration',
    ...STAFF,
    query: REQUESTS.query,
    status: 200,
    response: listOf(StaffRequest),
    handle: ({ query, call }) => call(routingOps.list, REQUESTS.input(query)),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/staff/request-counts',
    operationId: 'countRequestsAsStaff',
    summary: 'How many requests of a filter are in each status and each routing state',
    ...STAFF,
    query: COUNT_QUERY,
    status: 200,
    response: RequestCounts,
    handle: ({ query, call }) => call(routingOps.counts, given(query)),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/staff/requests/{id}',
    operationId: 'getRequestAsStaff',
    summary:
      'Any request, without its token, with where its automatic routing stands: its offers and why each provider was chosen',
    ...STAFF,
    params: IdParams,
    status: 200,
    response: StaffRequest,
    notFound: ['request_not_found'],
    handle: ({ params, call }) => call(routingOps.get, { id: params.id }),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/staff/requests/{id}/routing',
    operationId: 'overrideRequestRouting',
    summary:
      "Take a hand in a request's routing (audited with the reason): offer it to a provider, run the rules again, or stop them",
    ...STAFF,
    params: IdParams,
    body: RoutingOverride,
    status: 200,
    response: StaffRequest,
    notFound: ['request_not_found'],
    conflicts: ['invalid_state_transition', 'routing_mode_mismatch'],
    handle: (ctx) =>
      ctx.call(routingOps.override, { id: ctx.params.id, override: ctx.body, ...audit(ctx) }),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/staff/requests/{id}/routing/suggestions',
    operationId: 'suggestRequestRouting',
    summary:
      'The providers the rules would choose for a request now, with the reasons; nothing is offered',
    ...STAFF,
    params: IdParams,
    status: 200,
    response: RoutingSuggestions,
    notFound: ['request_not_found'],
    handle: ({ params, call }) => call(routingOps.suggestions, { id: params.id }),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/staff/routing/categories',
    operationId: 'listRoutingCategories',
    summary:
      'Every category with its routing settings, its providers (and how many take requests) and its queued requests',
    ...STAFF,
    status: 200,
    response: listOf(CategoryRoutingSummary),
    handle: ({ call }) => call(routingOps.categories, {}),
  }),
  defineRoute({
    method: 'patch',
    path: '/v1/staff/routing/categories/{category}',
    operationId: 'updateRoutingCategory',
    summary:
      "Pause or resume a category's automatic routing (a reason to pause), or set its response window and offer limit",
    ...STAFF,
    params: CategoryParams,
    body: CategoryRoutingPatch,
    status: 200,
    response: CategoryRouting,
    handle: (ctx) =>
      ctx.call(routingOps.updateCategory, {
        category: ctx.params.category,
        patch: ctx.body,
        ...audit(ctx),
      }),
  }),
];
