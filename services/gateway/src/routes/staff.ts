import {
  accessOps,
  Application,
  AUDITED_SERVICES,
  auditOps,
  ApplicationList,
  ApplicationListQuery,
  ApproveBody,
  AuditList,
  Integration,
  IntegrationPatch,
  IssuedKey,
  KeySummary,
  ListQuery,
  MarketplaceDecision,
  NewKeyBody,
  PaymentRequest,
  PaymentRequestStatus,
  paymentOps,
  RejectBody,
  Request,
  RequestPatch,
  requestOps,
  Scope,
  StaffRequest,
  listOf,
} from '@handoff/contracts';
import { defineRoute } from '../http/route.ts';
import { IdParams, KeyParams } from './ids.ts';
import { filteredList } from './paging.ts';
import { audit } from './parties.ts';

/** What every route here shares. */
const STAFF = { tags: ['staff'], access: { kind: 'staff' } } as const;

/** Staff's lists and their filters. */
const INTEGRATIONS = filteredList({ scope: Scope.optional() });
const PAYMENT_REQUESTS = filteredList({ status: PaymentRequestStatus.optional() });

/** Staff decisions on access (conventions §1), every one audited by the intake service. */
export const staffRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/staff/access-applications',
    operationId: 'listAccessApplications',
    summary: 'List access applications, newest first',
    ...STAFF,
    query: ApplicationListQuery,
    status: 200,
    response: ApplicationList,
    handle: ({ query, call }) => call(accessOps.list, { query }),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/staff/access-applications/{id}',
    operationId: 'getAccessApplicationAsStaff',
    summary: 'One access application',
    ...STAFF,
    params: IdParams,
    status: 200,
    response: Application,
    notFound: ['application_not_found'],
    handle: ({ params, call }) => call(accessOps.get, { id: params.id }),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/staff/access-applications/{id}/approve',
    operationId: 'approveAccessApplication',
    summary: 'Approve with the scopes staff choose; an integration is created',
    ...STAFF,
    params: IdParams,
    body: ApproveBody,
    status: 200,
    response: Application,
    notFound: ['application_not_found'],
    handle: (ctx) =>
      ctx.call(accessOps.approve, {
        id: ctx.params.id,
        scopes: ctx.body.scopes,
        ...audit(ctx),
      }),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/staff/access-applications/{id}/reject',
    operationId: 'rejectAccessApplication',
    summary: 'Reject with a reason the applicant will see',
    ...STAFF,
    params: IdParams,
    body: RejectBody,
    status: 200,
    response: Application,
    notFound: ['application_not_found'],
    handle: (ctx) =>
      ctx.call(accessOps.reject, { id: ctx.params.id, reason: ctx.body.reason, ...audit(ctx) }),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/staff/integrations',
    operationId: 'listIntegrations',
    summary: 'Integrations, newest first, optionally those holding a scope',
    ...STAFF,
    query: INTEGRATIONS.query,
    status: 200,
    response: listOf(Integration),
    handle: ({ query, call }) => call(accessOps.listIntegrations, INTEGRATIONS.input(query)),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/staff/integrations/{id}',
    operationId: 'getIntegration',
    summary: 'An integration with its scopes and keys (prefix and last four only)',
    ...STAFF,
    params: IdParams,
    status: 200,
    response: Integration,
    notFound: ['integration_not_found'],
    handle: ({ params, call }) => call(accessOps.getIntegration, { integration_id: params.id }),
  }),
  defineRoute({
    method: 'patch',
    path: '/v1/staff/integrations/{id}',
    operationId: 'updateIntegration',
    summary: "Change an integration's scopes; every key follows at once",
    ...STAFF,
    params: IdParams,
    body: IntegrationPatch,
    status: 200,
    response: Integration,
    notFound: ['integration_not_found'],
    handle: (ctx) =>
      ctx.call(accessOps.updateIntegration, {
        integration_id: ctx.params.id,
        scopes: ctx.body.scopes,
        ...audit(ctx),
      }),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/staff/integrations/{id}/keys',
    operationId: 'issueApiKey',
    summary: 'Issue a further key (rotation); the old keys keep working until revoked',
    ...STAFF,
    params: IdParams,
    body: NewKeyBody,
    bodyOptional: true,
    status: 201,
    response: IssuedKey,
    notFound: ['integration_not_found'],
    handle: (ctx) =>
      ctx.call(accessOps.issueKey, {
        integration_id: ctx.params.id,
        ...(ctx.body.expires_in_days === undefined
          ? {}
          : { expires_in_days: ctx.body.expires_in_days }),
        ...(ctx.body.livemode === undefined ? {} : { livemode: ctx.body.livemode }),
        ...audit(ctx),
      }),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/staff/keys/{key_id}/revoke',
    operationId: 'revokeApiKey',
    summary: 'Revoke a key; every gateway replica refuses it within a second',
    ...STAFF,
    params: KeyParams,
    status: 200,
    response: KeySummary,
    notFound: ['key_not_found'],
    handle: (ctx) => ctx.call(accessOps.revokeKey, { key_id: ctx.params.key_id, ...audit(ctx) }),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/staff/audit-log',
    operationId: 'listAuditLog',
    summary: 'Every staff action, newest first',
    ...STAFF,
    query: ListQuery,
    status: 200,
    response: AuditList,
    // Each service keeps the audit of its own staff actions; the pages merge by id (ids sort by time).
    handle: async ({ query, call }) => {
      const pages = await Promise.all(
        AUDITED_SERVICES.map((service) => call(auditOps[service], { query })),
      );
      const merged = pages.flatMap((page) => page.data).sort((a, b) => (a.id < b.id ? 1 : -1));
      // Towards newer entries, the ones next to the cursor are the oldest of the merged list.
      const data = query.ending_before ? merged.slice(-query.limit) : merged.slice(0, query.limit);
      return {
        object: 'list' as const,
        data,
        has_more: merged.length > query.limit || pages.some((p) => p.has_more),
      };
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/v1/staff/requests/{id}',
    operationId: 'updateRequest',
    summary: "Change a request's status and/or routing along its state machine",
    ...STAFF,
    params: IdParams,
    body: RequestPatch,
    status: 200,
    response: StaffRequest,
    notFound: ['request_not_found'],
    // A test request goes to the simulated provider only, a live one never (test mode).
    conflicts: ['routing_mode_mismatch'],
    handle: (ctx) =>
      ctx.call(requestOps.update, { id: ctx.params.id, patch: ctx.body, ...audit(ctx) }),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/staff/requests/{id}/marketplace-review',
    operationId: 'reviewMarketplacePublication',
    summary: 'Approve or reject marketplace publication of a request whose customer opted in',
    ...STAFF,
    params: IdParams,
    body: MarketplaceDecision,
    status: 200,
    response: Request,
    notFound: ['request_not_found'],
    handle: (ctx) =>
      ctx.call(requestOps.decideMarketplace, {
        id: ctx.params.id,
        decision: ctx.body,
        ...audit(ctx),
      }),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/staff/payment-requests',
    operationId: 'listPaymentRequests',
    summary: 'Payment requests, newest first, by status',
    ...STAFF,
    query: PAYMENT_REQUESTS.query,
    status: 200,
    response: listOf(PaymentRequest),
    handle: ({ query, call }) => call(paymentOps.list, PAYMENT_REQUESTS.input(query)),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/staff/payment-requests/{id}/approve',
    operationId: 'approvePaymentRequest',
    summary: 'Approve a pending payment request; only approved ones appear in reads',
    ...STAFF,
    params: IdParams,
    status: 200,
    response: PaymentRequest,
    notFound: ['payment_request_not_found'],
    conflicts: ['request_closed'],
    handle: (ctx) =>
      ctx.call(paymentOps.decide, {
        id: ctx.params.id,
        decision: { decision: 'approved' },
        ...audit(ctx),
      }),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/staff/payment-requests/{id}/reject',
    operationId: 'rejectPaymentRequest',
    summary: 'Reject a pending payment request, with a reason',
    ...STAFF,
    params: IdParams,
    body: RejectBody,
    status: 200,
    response: PaymentRequest,
    notFound: ['payment_request_not_found'],
    handle: (ctx) =>
      ctx.call(paymentOps.decide, {
        id: ctx.params.id,
        decision: { decision: 'rejected', reason: ctx.body.reason },
        ...audit(ctx),
      }),
  }),
];
