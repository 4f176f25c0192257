import {
  ListQuery,
  listOf,
  Redelivery,
  RotateSecretBody,
  WEBHOOK_DEFAULTS,
  WebhookAttempt,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
  webhookOps,
} from '@handoff/contracts';
import { z } from 'zod';
import { defineRoute, type RouteContext, type RouteDefinition } from '../http/route.ts';
import { Id, staffActor } from './lifecycle-shared.ts';

/**
 * Staff's view of an integration's webhooks: the same dispatcher operations as the integration's
 * own routes (webhooks.ts), with the integration from the path. Rotations and redeliveries carry
 * the staff actor, and the dispatcher audits them.
 */

const STAFF = { kind: 'staff' } as const;
const BASE = '/v1/staff/integrations/{id}';
const IntegrationParams = z.strictObject({ id: Id });
const EndpointParams = z.strictObject({ id: Id, endpoint_id: Id });
const EventParams = z.strictObject({ id: Id, event_id: Id });

const by = (ctx: RouteContext<'staff'>) => ({
  staff: { actor: staffActor(ctx), call_id: ctx.requestId },
});

export const staffWebhookRoutes: RouteDefinition[] = [
  defineRoute({
    method: 'get',
    path: `${BASE}/webhook-endpoints`,
    operationId: 'listWebhookEndpointsAsStaff',
    summary: "An integration's webhook endpoints, newest first (no secrets)",
    tags: ['staff', 'webhooks'],
    access: STAFF,
    params: IntegrationParams,
    query: ListQuery,
    status: 200,
    response: listOf(WebhookEndpoint),
    handle: (ctx) => ctx.call(webhookOps.list, { integration_id: ctx.params.id, query: ctx.query }),
  }),
  defineRoute({
    method: 'get',
    path: `${BASE}/webhook-endpoints/{endpoint_id}/attempts`,
    operationId: 'listWebhookAttemptsAsStaff',
    summary: "Delivery attempts to one of an integration's endpoints, newest first",
    tags: ['staff', 'webhooks'],
    access: STAFF,
    params: EndpointParams,
    query: ListQuery,
    status: 200,
    response: listOf(WebhookAttempt),
    notFound: 'webhook_endpoint_not_found',
    handle: (ctx) =>
      ctx.call(webhookOps.attempts, {
        integration_id: ctx.params.id,
        id: ctx.params.endpoint_id,
        query: ctx.query,
      }),
  }),
  defineRoute({
    method: 'post',
    path: `${BASE}/webhook-endpoints/{endpoint_id}/rotate-secret`,
    operationId: 'rotateWebhookEndpointSecretAsStaff',
    summary: `Issue a new signing secret for an integration's endpoint, shown only in this answer; the old one also signs for \`grace_period_seconds\` (default ${WEBHOOK_DEFAULTS.rotationGraceSeconds}). Audited`,
    tags: ['staff', 'webhooks'],
    access: STAFF,
    params: EndpointParams,
    body: RotateSecretBody,
    bodyOptional: true,
    status: 200,
    response: WebhookEndpointWithSecret,
    notFound: 'webhook_endpoint_not_found',
    handle: (ctx) =>
      ctx.call(webhookOps.rotateSecret, {
        integration_id: ctx.params.id,
        id: ctx.params.endpoint_id,
        grace_period_seconds:
          ctx.body.grace_period_seconds ?? WEBHOOK_DEFAULTS.rotationGraceSeconds,
        ...by(ctx),
      }),
  }),
  defineRoute({
    method: 'post',
    path: `${BASE}/events/{event_id}/redeliver`,
    operationId: 'redeliverEventAsStaff',
    summary:
      "Deliver one of an integration's events again (same `webhook-id`) to its enabled endpoints subscribed to the type. Audited",
    tags: ['staff', 'webhooks'],
    access: STAFF,
    params: EventParams,
    status: 202,
    response: Redelivery,
    notFound: 'event_not_found',
    handle: (ctx) =>
      ctx.call(webhookOps.redeliver, {
        integration_id: ctx.params.id,
        id: ctx.params.event_id,
        ...by(ctx),
      }),
  }),
];
