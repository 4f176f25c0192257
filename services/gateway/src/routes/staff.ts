import {
  accessOps,
  Application,
  ApplicationList,
  ApplicationListQuery,
  ApproveBody,
  AuditList,
  Integration,
  IntegrationPatch,
  IssuedKey,
  KeySummary,
  ListQuery,
  NewKeyBody,
  RejectBody,
} from '@handoff/contracts';
import { z } from 'zod';
import { defineRoute, type RouteContext } from '../http/route.ts';

const IdParams = z.strictObject({ id: z.string().max(64) });
const KeyParams = z.strictObject({ key_id: z.string().max(64) });

/** Who acted, for the audit log: the JWT `sub`, and the call's request id. */
const by = (ctx: RouteContext<unknown, unknown, unknown>) => ({
  actor: ctx.staff?.sub ?? 'unknown',
  request_id: ctx.requestId,
});

/** Staff decisions on access (conventions §1), every one audited by the intake service. */
export const staffRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/staff/access-applications',
    operationId: 'listAccessApplications',
    summary: 'List access applications, newest first',
    tags: ['staff'],
    access: { kind: 'staff' },
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
    tags: ['staff'],
    access: { kind: 'staff' },
    params: IdParams,
    status: 200,
    response: Application,
    notFound: 'application_not_found',
    handle: ({ params, call }) => call(accessOps.get, { id: params.id }),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/staff/access-applications/{id}/approve',
    operationId: 'approveAccessApplication',
    summary: 'Approve with the scopes staff choose; an integration is created',
    tags: ['staff'],
    access: { kind: 'staff' },
    params: IdParams,
    body: ApproveBody,
    status: 200,
    response: Application,
    notFound: 'application_not_found',
    handle: (ctx) =>
      ctx.call(accessOps.approve, { id: ctx.params.id, scopes: ctx.body.scopes, ...by(ctx) }),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/staff/access-applications/{id}/reject',
    operationId: 'rejectAccessApplication',
    summary: 'Reject with a reason the applicant will see',
    tags: ['staff'],
    access: { kind: 'staff' },
    params: IdParams,
    body: RejectBody,
    status: 200,
    response: Application,
    notFound: 'application_not_found',
    handle: (ctx) =>
      ctx.call(accessOps.reject, { id: ctx.params.id, reason: ctx.body.reason, ...by(ctx) }),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/staff/integrations/{id}',
    operationId: 'getIntegration',
    summary: 'An integration with its scopes and keys (prefix and last four only)',
    tags: ['staff'],
    access: { kind: 'staff' },
    params: IdParams,
    status: 200,
    response: Integration,
    notFound: 'integration_not_found',
    handle: ({ params, call }) => call(accessOps.getIntegration, { integration_id: params.id }),
  }),
  defineRoute({
    method: 'patch',
    path: '/v1/staff/integrations/{id}',
    operationId: 'updateIntegration',
    summary: "Change an integration's scopes; every key follows at once",
    tags: ['staff'],
    access: { kind: 'staff' },
    params: IdParams,
    body: IntegrationPatch,
    status: 200,
    response: Integration,
    notFound: 'integration_not_found',
    handle: (ctx) =>
      ctx.call(accessOps.updateIntegration, {
        integration_id: ctx.params.id,
        scopes: ctx.body.scopes,
        ...by(ctx),
      }),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/staff/integrations/{id}/keys',
    operationId: 'issueApiKey',
    summary: 'Issue a further key (rotation); the old keys keep working until revoked',
    tags: ['staff'],
    access: { kind: 'staff' },
    params: IdParams,
    body: NewKeyBody,
    bodyOptional: true,
    status: 201,
    response: IssuedKey,
    notFound: 'integration_not_found',
    handle: (ctx) =>
      ctx.call(accessOps.issueKey, {
        integration_id: ctx.params.id,
        ...(ctx.body.expires_in_days === undefined
          ? {}
          : { expires_in_days: ctx.body.expires_in_days }),
        ...by(ctx),
      }),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/staff/keys/{key_id}/revoke',
    operationId: 'revokeApiKey',
    summary: 'Revoke a key; every gateway replica refuses it within a second',
    tags: ['staff'],
    access: { kind: 'staff' },
    params: KeyParams,
    status: 200,
    response: KeySummary,
    notFound: 'key_not_found',
    handle: (ctx) => ctx.call(accessOps.revokeKey, { key_id: ctx.params.key_id, ...by(ctx) }),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/staff/audit-log',
    operationId: 'listAuditLog',
    summary: 'Every staff action, newest first',
    tags: ['staff'],
    access: { kind: 'staff' },
    query: ListQuery,
    status: 200,
    response: AuditList,
    handle: ({ query, call }) => call(accessOps.audit, { query }),
  }),
];
