import { z } from 'zod';
import { BusPage, listOf, StaffAction } from './common.ts';
import { Provider, ProviderRequest } from './engagement.ts';
import { MarketplaceReview, RequestStatus, Routing } from './requests.ts';
import {
  AutoRoutingState,
  CategoryParam,
  CategoryRouting,
  CategoryRoutingPatch,
  CategoryRoutingSummary,
  OfferDecline,
  ProviderSelfPatch,
  RoutingCandidate,
  RoutingOverride,
  StaffRequest,
} from './routing.ts';
import { intakeOp } from './service-ops.ts';

const Id = z.string().max(64);

/** The filters of staff's request list and its counts. */
export const StaffRequestFilters = z.object({
  status: RequestStatus.optional(),
  routing: Routing.shape.mode.optional(),
  routing_state: AutoRoutingState.optional(),
  marketplace_review: MarketplaceReview.optional(),
  category: CategoryParam.optional(),
  integration_id: z.string().max(64).optional(),
  created_after: z.string().optional(),
  created_before: z.string().optional(),
});

/** How many requests of the filter are in each status and routing state. */
export const RequestCounts = z.object({
  object: z.literal('request_counts'),
  total: z.number().int().min(0),
  by_status: z.record(RequestStatus, z.number().int().min(0)),
  by_routing_state: z.record(AutoRoutingState, z.number().int().min(0)),
});

/** The rules' choice for a request if they ran now: nothing is offered or held. */
export const RoutingSuggestions = z.object({
  object: z.literal('routing_suggestions'),
  request_id: z.string(),
  category: z.string().nullable(),
  paused: z.boolean(),
  summary: z.string(),
  candidates: z.array(RoutingCandidate),
  excluded: z.record(z.string(), z.number().int().min(0)),
});

/** Intake: staff's view of requests and routing, and the providers' answers to offers. */
export const routingOps = {
  /** Staff: every request, newest first, with where automatic routing stands. */
  list: intakeOp(
    'routing.requests',
    BusPage.extend(StaffRequestFilters.shape),
    listOf(StaffRequest),
  ),
  counts: intakeOp('routing.counts', StaffRequestFilters, RequestCounts),
  get: intakeOp('routing.request', z.object({ id: Id }), StaffRequest),
  /** Staff's hand in one request's routing: offer to a provider, run the rules again, or stop. */
  override: intakeOp(
    'routing.override',
    StaffAction.extend({ id: Id, override: RoutingOverride }),
    StaffRequest,
  ),
  suggestions: intakeOp('routing.suggestions', z.object({ id: Id }), RoutingSuggestions),
  categories: intakeOp('routing.categories', z.object({}), listOf(CategoryRoutingSummary)),
  updateCategory: intakeOp(
    'routing.update_category',
    StaffAction.extend({ category: CategoryParam, patch: CategoryRoutingPatch }),
    CategoryRouting,
  ),
  /** The provider accepts its pending offer of the request. */
  accept: intakeOp(
    'routing.accept',
    z.object({ provider_id: Id, request_id: Id }),
    ProviderRequest,
  ),
  decline: intakeOp(
    'routing.decline',
    z.object({ provider_id: Id, request_id: Id, input: OfferDecline }),
    ProviderRequest,
  ),
  /** The provider's own languages and availability. */
  updateSelf: intakeOp(
    'routing.update_provider',
    z.object({ provider_id: Id, patch: ProviderSelfPatch }),
    Provider,
  ),
} as const;
