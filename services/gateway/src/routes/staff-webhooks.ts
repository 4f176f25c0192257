import { WEBHOOK_DEFAULTS, webhookOps } from '@handoff/contracts';
import { z } from 'zod';
import { defineRoute, type RouteDefinition } from '../http/route.ts';
import { Id, IdParams } from './ids.ts';
import { audit } from './parties.ts';
import { gracePeriod, BOTH_SIDES } from './webhooks.ts';

/**
 * Staff's view of an integration's webhooks: the same dispatcher operations as the integration's
 * own routes (webhooks.ts), with the integration from the path. Rotations and redeliveries carry
 * the staff actor, and the dispatcher audits them.
 */

/** What every route here shares. */
const STAFF = { tags: ['staff', 'webhooks'], access: { kind: 'staff' } } as const;
const BASE = '/v1/staff/integrations/{id}';
const EndpointParams = z.strictObject({ id: Id, endpoint_id: Id });
const EventParams = z.strictObject({ id: Id, event_id: Id });

export const staffWebhookRoutes: RouteDefinition[] = [
  defineRoute({
    ...BOTH_SIDES.list,
    path: `${BASE}/webhook-endpoints`,
    operationId: 'listWebhookEndpointsAsStaff',
    summary: "An integration's webhook endpoints, newest first (no secrets)",
    ...STAFF,
    params: IdParams,
    handle: (ctx) => ctx.call(webhookOps.list, { integration_id: ctx.params.id, query: ctx.query }),
  }),
  defineRoute({
    ...BOTH_SIDES.attempts,
    path: `${BASE}/webhook-endpoints/{endpoint_id}/attempts`,
    operationId: 'listWebhookAttemptsAsStaff',
    summary: "Delivery attempts to one of an integration's endpoints, newest first",
    ...STAFF,
    params: EndpointParams,
    handle: (ctx) =>
      ctx.call(webhookOps.attempts, {
        integration_id: ctx.params.id,
        id: ctx.params.endpoint_id,
        query: ctx.query,
      }),
  }),
  defineRoute({
    ...BOTH_SIDES.rotateSecret,
    path: `${BASE}/webhook-endpoints/{endpoint_id}/rotate-secret`,
    operationId: 'rotateWebhookEndpointSecretAsStaff',
    summary: `Issue a new signing secret for an integration's endpoint, shown only in this answer; the old one also signs for \`grace_period_seconds\` (default ${WEBHOOK_DEFAULTS.rotationGraceSeconds}). Audited`,
    ...STAFF,
    params: EndpointParams,
    handle: (ctx) =>
      ctx.call(webhookOps.rotateSecret, {
        integration_id: ctx.params.id,
        id: ctx.params.endpoint_id,
        ...gracePeriod(ctx.body),
        staff: audit(ctx),
      }),
  }),
  defineRoute({
    ...BOTH_SIDES.redeliver,
    path: `${BASE}/events/{event_id}/redeliver`,
    operationId: 'redeliverEventAsStaff',
    summary:
      "Deliver one of an integration's events again (same `webhook-id`) to its enabled endpoints subscribed to the type. Audited",
    ...STAFF,
    params: EventParams,
    handle: (ctx) =>
      ctx.call(webhookOps.redeliver, {
        integration_id: ctx.params.id,
        id: ctx.params.event_id,
        staff: audit(ctx),
      }),
  }),
];
