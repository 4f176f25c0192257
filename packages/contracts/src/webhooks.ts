import { z } from 'zod';
import { A2aPushTarget, A2aPushView } from './a2a.ts';
import { livemodeField } from './test-mode.ts';
import { ListQuery, listOf, listQueryWith, StaffAction, Timestamp } from './common.ts';
import { EventEnvelope, EventType } from './events.ts';
import { dispatcherOp } from './service-ops.ts';
import { trimmedText } from './text.ts';

/** Defaults of conventions §3; `WEBHOOK_RETRY_SCHEDULE` and `WEBHOOK_TIMEOUT_MS` override them. */
export const WEBHOOK_DEFAULTS = {
  /** Seconds to wait before each retry: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h. */
  retryScheduleSeconds: [5, 300, 1_800, 7_200, 18_000, 36_000, 50_400, 72_000, 86_400],
  timeoutMs: 15_000,
  /** An endpoint that fails for this long without any success is disabled. */
  disableAfterSeconds: 5 * 24 * 60 * 60,
  /** Both secrets sign during a rotation's grace period. */
  rotationGraceSeconds: 24 * 60 * 60,
  /** Response bodies kept in the attempts log, in bytes. */
  responseBodyLimit: 2_048,
  /** How long the event feed goes back. */
  eventRetentionDays: 30,
} as const;

export const WEBHOOK_SIGNATURE_SCHEME = 'standard-webhooks-v1';

/** Endpoints one integration may register unless WEBHOOK_MAX_ENDPOINTS says otherwise. */
export const WEBHOOK_MAX_ENDPOINTS_DEFAULT = 20;

const url = z.url({ protocol: /^https?$/ }).max(2_048);
const eventTypes = z
  .array(EventType)
  .min(1)
  .max(EventType.options.length)
  .refine((list) => new Set(list).size === list.length, { message: 'event types must not repeat' })
  .meta({ uniqueItems: true });

export const WebhookEndpointCreate = z.strictObject({
  url,
  /** Every event type when left out. */
  event_types: eventTypes.optional(),
  description: trimmedText(500).optional(),
});

export const WebhookEndpointUpdate = z
  .strictObject({
    url: url.optional(),
    event_types: eventTypes.optional(),
    description: trimmedText(500).nullable().optional(),
    enabled: z.boolean().optional(),
  })
  .refine((patch) => Object.keys(patch).length > 0, {
    message: 'give at least one field to change',
  })
  .meta({ minProperties: 1 });

export const RotateSecretBody = z.strictObject({
  grace_period_seconds: z
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 60 * 60)
    .optional(),
});

export const DisabledReason = z.enum(['gone', 'failing', 'manual']);

export const WebhookEndpoint = z.object({
  object: z.literal('webhook_endpoint'),
  ...livemodeField,
  id: z.string(),
  url: z.string(),
  event_types: z.array(EventType),
  description: z.string().nullable(),
  enabled: z.boolean(),
  /** Why a disabled endpoint stopped: a 410 answer, 5 days of failures, or a PATCH. */
  disabled_reason: DisabledReason.nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
  /** Until then the previous secret signs too. */
  previous_secret_expires_at: Timestamp.nullable(),
  a2a: A2aPushView.optional().meta({
    description:
      'Extension: present on an endpoint an A2A push notification config made (docs/a2a.md): it ' +
      "delivers only that task's request's events, each as the A2A update it implies.",
  }),
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

/** Create and rotate answers: the only times the secret (`whsec_` + base64 of 32 bytes) is shown. */
export const WebhookEndpointWithSecret = WebhookEndpoint.extend({
  secret: z.string().regex(/^whsec_[A-Za-z0-9+/]{43}=$/),
});

export const DeletedWebhookEndpoint = z.object({
  object: z.literal('webhook_endpoint'),
  ...livemodeField,
  id: z.string(),
  deleted: z.literal(true),
});

export const WebhookAttempt = z.object({
  object: z.literal('webhook_attempt'),
  ...livemodeField,
  id: z.string(),
  endpoint_id: z.string(),
  event_id: z.string(),
  event_type: EventType,
  /** 1 for the first try. */
  attempt: z.number().int().positive(),
  attempted_at: Timestamp,
  status_code: z.number().int().nullable(),
  duration_ms: z.number().nonnegative(),
  error: z.string().nullable(),
  /** At most `responseBodyLimit` bytes of what the receiver answered. */
  response_body: z.string().nullable(),
  /** When the next try is due; null when this one succeeded or it was the last. */
  next_attempt_at: Timestamp.nullable(),
});
export type WebhookAttempt = z.infer<typeof WebhookAttempt>;

export const EventListQuery = listQueryWith({
  type: EventType.optional(),
  request_id: z.string().max(64).optional(),
});

export const Redelivery = z.object({
  object: z.literal('redelivery'),
  ...livemodeField,
  event_id: z.string(),
  /** Endpoints that will receive the event again (enabled and subscribed to its type). */
  endpoints: z.number().int().nonnegative(),
});

/**
 * The delivery settings the webhook dispatcher runs with (its `WEBHOOK_*` environment), as it
 * reports them: the gateway's `GET /v1/capabilities` shows these, not the defaults.
 */
export const WebhookSettings = z.object({
  retry_schedule_seconds: z.array(z.number().positive()),
  /** Attempts per event: the first one and one per step of the schedule. */
  max_attempts: z.number().int().positive(),
  timeout_ms: z.number().int().positive(),
  disable_after_seconds: z.number().int().positive(),
  event_retention_days: z.number().int().positive(),
  max_endpoints_per_integration: z.number().int().positive(),
  deliveries_paused: z.boolean(),
});
export type WebhookSettings = z.infer<typeof WebhookSettings>;

const Owner = z.object({ integration_id: z.string() });
const IdOwned = Owner.extend({ id: z.string().max(64) });
/**
 * Present when staff act on an integration's webhooks (`/v1/staff/integrations/{id}/...`): who
 * acted and the call, for the dispatcher's audit log. The integration's own key acts unaudited.
 */
const ByStaff = z.object({
  staff: StaffAction.optional(),
});

/** Operations of the webhook dispatcher, always scoped to the calling integration. */
export const webhookOps = {
  create: dispatcherOp(
    'endpoints.create',
    // `a2a`: the gateway's A2A binding registers a task's push notifications (never the REST body).
    Owner.extend({ input: WebhookEndpointCreate, a2a: A2aPushTarget.optional() }),
    WebhookEndpointWithSecret,
  ),
  list: dispatcherOp('endpoints.list', Owner.extend({ query: ListQuery }), listOf(WebhookEndpoint)),
  get: dispatcherOp('endpoints.get', IdOwned, WebhookEndpoint),
  update: dispatcherOp(
    'endpoints.update',
    IdOwned.extend({ patch: WebhookEndpointUpdate }),
    WebhookEndpoint,
  ),
  remove: dispatcherOp('endpoints.delete', IdOwned, DeletedWebhookEndpoint),
  rotateSecret: dispatcherOp(
    'endpoints.rotate_secret',
    IdOwned.extend({ grace_period_seconds: z.number().int().min(0) }).extend(ByStaff.shape),
    WebhookEndpointWithSecret,
  ),
  attempts: dispatcherOp(
    'endpoints.attempts',
    IdOwned.extend({ query: ListQuery }),
    listOf(WebhookAttempt),
  ),
  listEvents: dispatcherOp(
    'events.list',
    Owner.extend({ query: EventListQuery }),
    listOf(EventEnvelope),
  ),
  getEvent: dispatcherOp('events.get', IdOwned, EventEnvelope),
  redeliver: dispatcherOp('events.redeliver', IdOwned.extend(ByStaff.shape), Redelivery),
  /** The dispatcher's delivery settings (no caller data: the same for everybody). */
  settings: dispatcherOp('settings.get', z.object({}), WebhookSettings),
} as const;
