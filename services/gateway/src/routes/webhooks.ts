import {
  DeletedWebhookEndpoint,
  EventEnvelope,
  EventListQuery,
  ListQuery,
  listOf,
  Redelivery,
  RotateSecretBody,
  WEBHOOK_DEFAULTS,
  WebhookAttempt,
  WebhookEndpoint,
  WebhookEndpointCreate,
  WebhookEndpointUpdate,
  WebhookEndpointWithSecret,
  webhookOps,
} from '@handoff/contracts';
import { defineRoute, type RouteContext, type RouteDefinition } from '../http/route.ts';
import { IdParams } from './ids.ts';

const MANAGE = { kind: 'agent', scopes: ['webhooks:manage'] } as const;
const READ_EVENTS = { kind: 'agent', scopes: ['events:read'] } as const;

/** Every dispatcher operation is scoped to the calling integration (no existence oracle). */
const owner = (ctx: RouteContext<'agent'>) => ({
  integration_id: ctx.agent.integration_id,
});

/**
 * What the integration's own routes and staff's (staff-webhooks.ts) share of the dispatcher
 * operations that both offer: their answers, and the rotation's grace period.
 */
export const BOTH_SIDES = {
  list: { method: 'get', query: ListQuery, status: 200, response: listOf(WebhookEndpoint) },
  attempts: {
    method: 'get',
    query: ListQuery,
    status: 200,
    response: listOf(WebhookAttempt),
    notFound: ['webhook_endpoint_not_found'],
  },
  rotateSecret: {
    method: 'post',
    body: RotateSecretBody,
    bodyOptional: true,
    status: 200,
    response: WebhookEndpointWithSecret,
    notFound: ['webhook_endpoint_not_found'],
  },
  redeliver: { method: 'post', status: 202, response: Redelivery, notFound: ['event_not_found'] },
} as const;

export const gracePeriod = (body: { grace_period_seconds?: number | undefined }) => ({
  grace_period_seconds: body.grace_period_seconds ?? WEBHOOK_DEFAULTS.rotationGraceSeconds,
});

/** Webhook endpoints and the event feed (conventions §3), served by the webhook dispatcher. */
export const webhookRoutes: RouteDefinition[] = [
  defineRoute({
    method: 'post',
    path: '/v1/webhook-endpoints',
    conflicts: ['limit_reached'],
    operationId: 'createWebhookEndpoint',
    summary:
      'Register a webhook endpoint; its signing secret (`whsec_...`) is returned only here and on rotation',
    tags: ['webhooks'],
    access: MANAGE,
    body: WebhookEndpointCreate,
    status: 201,
    response: WebhookEndpointWithSecret,
    handle: (ctx) => ctx.call(webhookOps.create, { ...owner(ctx), input: ctx.body }),
  }),
  defineRoute({
    ...BOTH_SIDES.list,
    path: '/v1/webhook-endpoints',
    operationId: 'listWebhookEndpoints',
    summary: "The integration's webhook endpoints, newest first",
    tags: ['webhooks'],
    access: MANAGE,
    handle: (ctx) => ctx.call(webhookOps.list, { ...owner(ctx), query: ctx.query }),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/webhook-endpoints/{id}',
    operationId: 'getWebhookEndpoint',
    summary: 'One webhook endpoint, without its secret',
    tags: ['webhooks'],
    access: MANAGE,
    params: IdParams,
    status: 200,
    response: WebhookEndpoint,
    notFound: ['webhook_endpoint_not_found'],
    handle: (ctx) => ctx.call(webhookOps.get, { ...owner(ctx), id: ctx.params.id }),
  }),
  defineRoute({
    method: 'patch',
    path: '/v1/webhook-endpoints/{id}',
    operationId: 'updateWebhookEndpoint',
    summary:
      'Change the URL, event types or description, or disable (`enabled: false`) or re-enable an endpoint',
    tags: ['webhooks'],
    access: MANAGE,
    params: IdParams,
    body: WebhookEndpointUpdate,
    status: 200,
    response: WebhookEndpoint,
    notFound: ['webhook_endpoint_not_found'],
    handle: (ctx) =>
      ctx.call(webhookOps.update, { ...owner(ctx), id: ctx.params.id, patch: ctx.body }),
  }),
  defineRoute({
    method: 'delete',
    path: '/v1/webhook-endpoints/{id}',
    operationId: 'deleteWebhookEndpoint',
    summary: 'Delete an endpoint; no further deliveries or retries go to it',
    tags: ['webhooks'],
    access: MANAGE,
    params: IdParams,
    status: 200,
    response: DeletedWebhookEndpoint,
    notFound: ['webhook_endpoint_not_found'],
    handle: (ctx) => ctx.call(webhookOps.remove, { ...owner(ctx), id: ctx.params.id }),
  }),
  defineRoute({
    ...BOTH_SIDES.rotateSecret,
    path: '/v1/webhook-endpoints/{id}/rotate-secret',
    operationId: 'rotateWebhookEndpointSecret',
    summary: `Issue a new signing secret; the old one also signs for \`grace_period_seconds\` (default ${WEBHOOK_DEFAULTS.rotationGraceSeconds})`,
    tags: ['webhooks'],
    access: MANAGE,
    params: IdParams,
    handle: (ctx) =>
      ctx.call(webhookOps.rotateSecret, {
        ...owner(ctx),
        id: ctx.params.id,
        ...gracePeriod(ctx.body),
      }),
  }),
  defineRoute({
    ...BOTH_SIDES.attempts,
    path: '/v1/webhook-endpoints/{id}/attempts',
    operationId: 'listWebhookAttempts',
    summary: 'Delivery attempts to an endpoint, newest first, with status code and duration',
    tags: ['webhooks'],
    access: MANAGE,
    params: IdParams,
    handle: (ctx) =>
      ctx.call(webhookOps.attempts, { ...owner(ctx), id: ctx.params.id, query: ctx.query }),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/events',
    operationId: 'listEvents',
    summary: `Events of the integration's requests from the last ${WEBHOOK_DEFAULTS.eventRetentionDays} days, newest first, by type and request`,
    tags: ['events'],
    access: READ_EVENTS,
    query: EventListQuery,
    status: 200,
    response: listOf(EventEnvelope),
    handle: (ctx) => ctx.call(webhookOps.listEvents, { ...owner(ctx), query: ctx.query }),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/events/{id}',
    operationId: 'getEvent',
    summary: 'One event, exactly as webhooks deliver it',
    tags: ['events'],
    access: READ_EVENTS,
    params: IdParams,
    status: 200,
    response: EventEnvelope,
    notFound: ['event_not_found'],
    handle: (ctx) => ctx.call(webhookOps.getEvent, { ...owner(ctx), id: ctx.params.id }),
  }),
  defineRoute({
    ...BOTH_SIDES.redeliver,
    path: '/v1/events/{id}/redeliver',
    operationId: 'redeliverEvent',
    summary:
      'Deliver an event again (same `webhook-id`) to every enabled endpoint subscribed to its type; ' +
      'needs `webhooks:manage`, not `events:read`, because it causes deliveries',
    tags: ['events'],
    access: MANAGE,
    params: IdParams,
    handle: (ctx) => ctx.call(webhookOps.redeliver, { ...owner(ctx), id: ctx.params.id }),
  }),
];
