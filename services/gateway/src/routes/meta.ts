import {
  API_KEY_PREFIX,
  API_VERSION,
  ENGAGEMENT_LIMITS,
  FILE_LIMITS,
  FILE_TYPES,
  ALL_EVENT_TYPES,
  BODY_LIMIT_BYTES,
  KEY_LIFETIME_DAYS,
  MAX_JSON_DEPTH,
  PROVIDER_KEY_PREFIX,
  REQUEST_LIMITS,
  REQUEST_TOKEN_HEADER,
  WEBHOOK_DEFAULTS,
  WEBHOOK_MAX_ENDPOINTS_DEFAULT,
  WEBHOOK_SIGNATURE_SCHEME,
  type WebhookSettings,
  Scope,
  SCOPES,
  Timestamp,
} from '@handoff/contracts';
import { z } from 'zod';
import { etagOf } from '../http/fixed-document.ts';
import { defineRoute, type RouteDefinition } from '../http/route.ts';
import type { RateLimitPolicy } from '../ratelimit.ts';

const RateLimitPolicyView = z.object({
  name: z.string(),
  applies_to: z.string(),
  limit: z.number().int(),
  window_seconds: z.number().int(),
});

export const Capabilities = z.object({
  object: z.literal('capabilities'),
  api_version: z.string(),
  base_path: z.string(),
  authentication: z.object({
    agent_key: z.object({
      header: z.string(),
      scheme: z.string(),
      format: z.string(),
      lifetime_days: z.object({ default: z.number(), max: z.number() }),
    }),
    request_token: z.object({ header: z.string() }),
    provider_key: z.object({
      header: z.string(),
      scheme: z.string(),
      format: z.string(),
      routes: z.string(),
    }),
    staff: z.object({
      header: z.string(),
      scheme: z.string(),
      token: z.string(),
      required_role: z.string(),
    }),
  }),
  scopes: z.array(Scope),
  event_types: z.array(z.string()),
  limits: z.object({
    body_bytes: z.number().int(),
    /** Deepest nesting of a JSON body. */
    json_depth_max: z.number().int(),
    list_limit_max: z.number().int(),
    idempotency_key_max_length: z.number().int(),
    /** Longest text of each field of a handoff request, and the budget ceiling. */
    request: z.record(z.string(), z.number()),
    webhook_endpoints_per_integration: z.number().int(),
    /** Longest text of each field of the engagement, list lengths and the amount ceiling. */
    engagement: z.record(z.string(), z.number()),
  }),
  rate_limits: z.array(RateLimitPolicyView),
  rate_limit_headers: z.string(),
  files: z.object({
    /** What the bytes of a file may be (docs/files.md); the declared type must agree. */
    types: z.array(z.string()),
    max_attachments: z.number().int(),
    download_url_ttl_seconds: z.number().int(),
    /**
     * The owning services' limits as shipped (their FILES_* settings may differ: a refusal says
     * its `limit`).
     */
    default_limits: z.object({
      file_bytes: z.number().int(),
      request_bytes: z.number().int(),
      files_per_request: z.number().int(),
    }),
  }),
  webhooks: z.object({
    signature_scheme: z.string(),
    headers: z.array(z.string()),
    retry_schedule_seconds: z.array(z.number()),
    /** Attempts per event: the first one and one per step of the schedule. */
    max_attempts: z.number().int(),
    timeout_ms: z.number().int(),
    disable_after_seconds: z.number().int(),
    event_retention_days: z.number().int(),
    deliveries_paused: z.boolean(),
    source: z.enum(['webhook-dispatcher', 'defaults']).meta({
      description:
        '`webhook-dispatcher`: the settings the dispatcher reported it runs with (its ' +
        '`WEBHOOK_*` settings), asked over the bus at start and every minute; `defaults`: it ' +
        'has not answered yet, and these are the documented defaults.',
    }),
  }),
});

export const Me = z.object({
  object: z.literal('agent_identity'),
  integration_id: z.string().meta({
    description: 'For a test key, the integration’s test twin, which owns all its test data.',
  }),
  livemode: z.boolean().meta({ description: 'False for a test key (`hk_test_…`).' }),
  key_id: z.string(),
  scopes: z.array(Scope),
  key_expires_at: Timestamp,
});

/** The settings a capabilities answer shows of the dispatcher's. */
function webhookView(settings: WebhookSettings) {
  return {
    retry_schedule_seconds: [...settings.retry_schedule_seconds],
    max_attempts: settings.max_attempts,
    timeout_ms: settings.timeout_ms,
    disable_after_seconds: settings.disable_after_seconds,
    event_retention_days: settings.event_retention_days,
    deliveries_paused: settings.deliveries_paused,
  };
}

export interface MetaOptions {
  /**
   * The webhook dispatcher's settings as it last reported them (undefined until it has): the
   * gateway and the dispatcher run apart, so the gateway asks it over the bus.
   */
  webhookSettings?: () => WebhookSettings | undefined;
  /** How long a file's download URL works (FILE_URL_TTL_SECONDS). */
  fileUrlTtlSeconds: number;
  policies: {
    key: RateLimitPolicy;
    public: RateLimitPolicy;
    authFailures: RateLimitPolicy;
    authFailuresPerPrefix: RateLimitPolicy;
  };
}

/** The dispatcher's settings until it has answered: the documented defaults. */
const DEFAULT_WEBHOOK_SETTINGS: WebhookSettings = {
  retry_schedule_seconds: [...WEBHOOK_DEFAULTS.retryScheduleSeconds],
  max_attempts: WEBHOOK_DEFAULTS.retryScheduleSeconds.length + 1,
  timeout_ms: WEBHOOK_DEFAULTS.timeoutMs,
  disable_after_seconds: WEBHOOK_DEFAULTS.disableAfterSeconds,
  event_retention_days: WEBHOOK_DEFAULTS.eventRetentionDays,
  max_endpoints_per_integration: WEBHOOK_MAX_ENDPOINTS_DEFAULT,
  deliveries_paused: false,
};

/** The capabilities document before the dispatcher's webhook settings are laid over it. */
function baseCapabilities(options: MetaOptions): z.infer<typeof Capabilities> {
  const { key, public: anonymous, authFailures, authFailuresPerPrefix } = options.policies;
  return {
    object: 'capabilities',
    api_version: API_VERSION,
    base_path: '/v1',
    authentication: {
      agent_key: {
        header: 'Authorization',
        scheme: 'Bearer',
        format: `${API_KEY_PREFIX}<30 base62><6 base62 CRC32 checksum>`,
        lifetime_days: { ...KEY_LIFETIME_DAYS },
      },
      request_token: { header: REQUEST_TOKEN_HEADER },
      provider_key: {
        header: 'Authorization',
        scheme: 'Bearer',
        format: `${PROVIDER_KEY_PREFIX}<30 base62><6 base62 CRC32 checksum>`,
        routes: '/v1/provider/',
      },
      staff: { header: 'Authorization', scheme: 'Bearer', token: 'JWT', required_role: 'staff' },
    },
    scopes: [...SCOPES],
    event_types: [...ALL_EVENT_TYPES],
    limits: {
      body_bytes: BODY_LIMIT_BYTES,
      json_depth_max: MAX_JSON_DEPTH,
      list_limit_max: 100,
      idempotency_key_max_length: 255,
      request: { ...REQUEST_LIMITS },
      webhook_endpoints_per_integration: WEBHOOK_MAX_ENDPOINTS_DEFAULT,
      engagement: { ...ENGAGEMENT_LIMITS },
    },
    rate_limits: [
      {
        name: key.name,
        applies_to: 'each agent key, each provider key and each staff member',
        limit: key.limit,
        window_seconds: key.windowSeconds,
      },
      {
        name: anonymous.name,
        applies_to: 'each client address on public routes',
        limit: anonymous.limit,
        window_seconds: anonymous.windowSeconds,
      },
      {
        name: authFailures.name,
        applies_to:
          'failed authentications (a missing, unknown, revoked or expired key or staff token, or ' +
          'a wrong application secret) per client address; past it, further failed attempts ' +
          'from that address get 429 instead of 401. The credential is checked first: a valid ' +
          "one is never refused because of others' failures",
        limit: authFailures.limit,
        window_seconds: authFailures.windowSeconds,
      },
      {
        name: authFailuresPerPrefix.name,
        applies_to:
          'failed authentications per presented agent or provider key prefix (`hk_live_` or ' +
          '`hpk_live_` and the next 4 characters, as keys are listed), from any address; past ' +
          'it, further failed attempts with that prefix get 429. A valid key is never refused by it',
        limit: authFailuresPerPrefix.limit,
        window_seconds: authFailuresPerPrefix.windowSeconds,
      },
    ],
    rate_limit_headers: 'draft-ietf-httpapi-ratelimit-headers: RateLimit-Policy and RateLimit',
    files: {
      types: [...FILE_TYPES],
      max_attachments: FILE_LIMITS.maxAttachments,
      download_url_ttl_seconds: options.fileUrlTtlSeconds,
      default_limits: {
        file_bytes: FILE_LIMITS.maxFileBytes,
        request_bytes: FILE_LIMITS.maxRequestBytes,
        files_per_request: FILE_LIMITS.maxFilesPerRequest,
      },
    },
    webhooks: {
      signature_scheme: WEBHOOK_SIGNATURE_SCHEME,
      headers: ['webhook-id', 'webhook-timestamp', 'webhook-signature'],
      ...webhookView(DEFAULT_WEBHOOK_SETTINGS),
      source: 'defaults',
    },
  };
}

export function metaRoutes(options: MetaOptions): RouteDefinition[] {
  const base = baseCapabilities(options);

  // The webhook part comes from the dispatcher (see `webhookSettings`); the answer and its ETag
  // are rebuilt only when those settings change.
  let built: { from: WebhookSettings | undefined; body: typeof base; etag: string } | undefined;
  const current = () => {
    const settings = options.webhookSettings?.();
    if (built && built.from === settings) return built;
    const body: typeof base = settings
      ? {
          ...base,
          limits: {
            ...base.limits,
            webhook_endpoints_per_integration: settings.max_endpoints_per_integration,
          },
          webhooks: { ...base.webhooks, ...webhookView(settings), source: 'webhook-dispatcher' },
        }
      : base;
    built = { from: settings, body, etag: etagOf(body) };
    return built;
  };

  return [
    defineRoute({
      method: 'get',
      path: '/v1/capabilities',
      operationId: 'getCapabilities',
      summary: 'What this API offers: version, authentication, scopes, event types, limits',
      tags: ['meta'],
      access: { kind: 'public' },
      status: 200,
      response: Capabilities,
      // A getter: the ETag follows the dispatcher's settings as they are now.
      headers: {
        get ETag() {
          return current().etag;
        },
      },
      handle: async () => current().body,
    }),
    defineRoute({
      method: 'get',
      path: '/v1/me',
      operationId: 'getMe',
      summary: 'The calling integration, its scopes and its key expiry',
      tags: ['meta'],
      access: { kind: 'agent', scopes: [] },
      status: 200,
      response: Me,
      handle: async ({ agent }) => ({
        object: 'agent_identity',
        integration_id: agent.integration_id,
        livemode: agent.livemode,
        key_id: agent.key_id,
        scopes: agent.scopes,
        key_expires_at: agent.expires_at,
      }),
    }),
  ];
}
