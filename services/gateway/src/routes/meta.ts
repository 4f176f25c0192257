import {
  API_KEY_PREFIX,
  API_VERSION,
  ENGAGEMENT_LIMITS,
  EVENT_TYPES,
  KEY_LIFETIME_DAYS,
  PROVIDER_KEY_PREFIX,
  REQUEST_LIMITS,
  WEBHOOK_DEFAULTS,
  WEBHOOK_MAX_ENDPOINTS_DEFAULT,
  WEBHOOK_SIGNATURE_SCHEME,
  Scope,
  SCOPES,
  Timestamp,
} from '@handoff/contracts';
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { HttpError } from '../http/errors.ts';
import { MAX_JSON_DEPTH } from '../http/json-shape.ts';
import { BODY_LIMIT_BYTES, defineRoute, type RouteDefinition } from '../http/route.ts';
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
    /** Longest text of each field of the work lifecycle, list lengths and the amount ceiling. */
    engagement: z.record(z.string(), z.number()),
  }),
  rate_limits: z.array(RateLimitPolicyView),
  rate_limit_headers: z.string(),
  webhooks: z.object({
    signature_scheme: z.string(),
    headers: z.array(z.string()),
    retry_schedule_seconds: z.array(z.number()),
    timeout_ms: z.number().int(),
    disable_after_seconds: z.number().int(),
    event_retention_days: z.number().int(),
  }),
});

export const Me = z.object({
  object: z.literal('agent_identity'),
  integration_id: z.string(),
  key_id: z.string(),
  scopes: z.array(Scope),
  key_expires_at: Timestamp,
});

export interface MetaOptions {
  policies: {
    key: RateLimitPolicy;
    public: RateLimitPolicy;
    authFailures: RateLimitPolicy;
    authFailuresPerPrefix: RateLimitPolicy;
  };
}

export function metaRoutes(options: MetaOptions): RouteDefinition[] {
  const { key, public: anonymous, authFailures, authFailuresPerPrefix } = options.policies;
  const capabilities: z.infer<typeof Capabilities> = {
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
      request_token: { header: 'X-Service-Request-Token' },
      provider_key: {
        header: 'Authorization',
        scheme: 'Bearer',
        format: `${PROVIDER_KEY_PREFIX}<30 base62><6 base62 CRC32 checksum>`,
        routes: '/v1/provider/',
      },
      staff: { header: 'Authorization', scheme: 'Bearer', token: 'JWT', required_role: 'staff' },
    },
    scopes: [...SCOPES],
    event_types: [...EVENT_TYPES],
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
    webhooks: {
      signature_scheme: WEBHOOK_SIGNATURE_SCHEME,
      headers: ['webhook-id', 'webhook-timestamp', 'webhook-signature'],
      retry_schedule_seconds: [...WEBHOOK_DEFAULTS.retryScheduleSeconds],
      timeout_ms: WEBHOOK_DEFAULTS.timeoutMs,
      disable_after_seconds: WEBHOOK_DEFAULTS.disableAfterSeconds,
      event_retention_days: WEBHOOK_DEFAULTS.eventRetentionDays,
    },
  };
  const body = JSON.stringify(capabilities);
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;

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
      headers: { ETag: etag },
      handle: async () => capabilities,
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
      handle: async ({ agent }) => {
        if (!agent) throw new HttpError(401, 'api_key_missing', 'No agent key.');
        return {
          object: 'agent_identity',
          integration_id: agent.integration_id,
          key_id: agent.key_id,
          scopes: agent.scopes,
          key_expires_at: agent.expires_at,
        };
      },
    }),
  ];
}
