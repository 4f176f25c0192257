import { IDEMPOTENCY_KEY_MAX_LENGTH, Problem, REQUEST_TOKEN_HEADER } from '@handoff/contracts';
import { z } from 'zod';
import { SECURITY_HEADER_DESCRIPTIONS, SECURITY_HEADERS } from '../http/security-headers.ts';
import { PublicReadiness } from '../readiness.ts';
import { methodNotAllowed, shared, type SharedResponses } from './error-responses.ts';
import { commonHeaders, ref, schemaOf } from './schemas.ts';
import type { Header, JsonSchema, OpenApiDocument, PathItem } from './types.ts';

export const IDEMPOTENCY_KEY_PATTERN = '^[!-~](?:[ -~]*[!-~])?$';

/** How each kind of caller authenticates. */
const securitySchemes = (): OpenApiDocument['components']['securitySchemes'] => ({
  agentKey: {
    type: 'http',
    scheme: 'bearer',
    description:
      'Agent key: `Authorization: Bearer hk_live_<30 base62><6 base62 CRC32>`. The scopes an ' +
      'operation needs are listed in its security requirement.',
  },
  providerKey: {
    type: 'http',
    scheme: 'bearer',
    description:
      'Provider key: `Authorization: Bearer hpk_live_<30 base62><6 base62 CRC32>`, issued by ' +
      'staff to a provider. Not interchangeable with an agent key: each is refused on the ' +
      "other's routes.",
  },
  workspaceSession: {
    type: 'apiKey',
    in: 'cookie',
    name: 'handoff_session',
    description:
      'A provider signed in to the workspace (`/workspace`) by a one-time link sent by email: an ' +
      'HttpOnly, SameSite=Strict cookie (`__Host-handoff_session` over TLS) holding a random ' +
      'session secret, of which only its SHA-256 is stored. Every POST, PATCH and DELETE made ' +
      'with it carries the session’s `csrf_token` in `X-CSRF-Token`.',
  },
  staffJwt: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'Staff JWT (HS256 or the identity provider’s JWKS); `roles` must contain `staff`.',
  },
  applicationSecret: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Application-Secret',
    description: 'The secret returned once when the access application was submitted.',
  },
});

/** The header parameters that many operations share. */
const parameters = (): OpenApiDocument['components']['parameters'] => ({
  'Idempotency-Key': {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'Makes a POST safe to retry: kept 24 h per integration; a replay returns the stored answer.',
    // Printable ASCII; HTTP drops white space around a header value, so none is at either end.
    schema: {
      type: 'string',
      minLength: 1,
      maxLength: IDEMPOTENCY_KEY_MAX_LENGTH,
      pattern: IDEMPOTENCY_KEY_PATTERN,
    },
  },
  [REQUEST_TOKEN_HEADER]: {
    name: REQUEST_TOKEN_HEADER,
    in: 'header',
    required: true,
    description: 'The request token returned once when the request was created (`hrt_...`).',
    schema: { type: 'string', maxLength: 256 },
  },
  'If-None-Match': {
    name: 'If-None-Match',
    in: 'header',
    required: false,
    description: 'The `ETag` of a copy the caller has; an unchanged resource answers 304.',
    schema: { type: 'string' },
  },
  'Request-Id': {
    name: 'Request-Id',
    in: 'header',
    required: false,
    description:
      'The caller’s own id for this call, kept when it is 8 to 128 of `A-Z a-z 0-9 . _ : -`; ' +
      'any other value is replaced by a new id rather than refused.',
    schema: { type: 'string' },
  },
});

/** A response header that every answer naming it carries. */
const always = (description: string, schema: JsonSchema = { type: 'string' }): Header => ({
  description,
  required: true,
  schema,
});

/** The response headers that many operations share. */
const headers = (): OpenApiDocument['components']['headers'] => ({
  'Request-Id': always(
    'The id of this call; also in the error body, the logs and the bus messages.',
  ),
  RateLimit: always(
    'draft-ietf-httpapi-ratelimit-headers: `"<policy>";r=<remaining>;t=<seconds>`.',
  ),
  'RateLimit-Policy': always(
    'draft-ietf-httpapi-ratelimit-headers: `"<policy>";q=<limit>;w=<window seconds>`.',
  ),
  'Retry-After': always('Seconds to wait before trying again.', {
    type: 'string',
    pattern: '^[0-9]+$',
  }),
  'WWW-Authenticate': always('The authentication challenge, e.g. `Bearer realm="handoff"`.'),
  Allow: always('The methods this path has.'),
  'Idempotent-Replayed': {
    description: '`true` when this is the stored answer to an earlier call with the same key.',
    schema: { type: 'string', enum: ['true'] },
  },
  ...Object.fromEntries(
    (Object.keys(SECURITY_HEADERS) as (keyof typeof SECURITY_HEADERS)[]).map((name) => [
      name,
      always(SECURITY_HEADER_DESCRIPTIONS[name], { type: 'string', const: SECURITY_HEADERS[name] }),
    ]),
  ),
});

export function components(
  defs: Record<string, JsonSchema>,
): Omit<OpenApiDocument['components'], 'responses'> {
  const problemSchema = schemaOf(Problem, 'output', defs);
  // Extension members (RFC 9457 §3.2) such as `required_scopes` are allowed.
  delete problemSchema.additionalProperties;
  return {
    securitySchemes: securitySchemes(),
    schemas: {
      Problem: {
        ...problemSchema,
        description:
          'RFC 9457 problem details. `code` is stable; extension members may be present.',
      },
    },
    parameters: parameters(),
    headers: headers(),
  };
}

/** `/healthz` and `/readyz`, which are no routes of the table. */
export function probePaths(
  defs: Record<string, JsonSchema>,
  registry: SharedResponses,
): Record<string, PathItem> {
  const notAllowed = shared(registry, 'MethodNotAllowed', methodNotAllowed);
  const readiness = schemaOf(PublicReadiness, 'output', defs);
  return {
    '/healthz': {
      get: {
        operationId: 'getHealth',
        summary: 'The process is alive',
        description: 'Answers without calling any other service. Not rate limited.',
        tags: ['health'],
        security: [],
        parameters: [ref('parameters', 'Request-Id')],
        responses: {
          200: {
            description: 'OK',
            headers: commonHeaders(),
            content: {
              'application/json': {
                schema: schemaOf(z.object({ status: z.literal('ok') }), 'output', defs),
              },
            },
          },
          405: notAllowed,
        },
      },
    },
    '/readyz': {
      get: {
        operationId: 'getReadiness',
        summary: 'Every backend service answers over the bus',
        description:
          'Asks each service for its health over NATS and says only ready or not; staff see every ' +
          "service's instance, version, latency and error at `GET /v1/staff/health`. Not rate limited.",
        tags: ['health'],
        security: [],
        parameters: [ref('parameters', 'Request-Id')],
        responses: {
          200: {
            description: 'Ready: every service answered.',
            headers: commonHeaders(),
            content: { 'application/json': { schema: readiness } },
          },
          405: notAllowed,
          503: {
            description:
              'Not ready: a service is down or did not answer, or the gateway is shutting down.',
            headers: commonHeaders(),
            content: { 'application/json': { schema: readiness } },
          },
        },
      },
    },
  };
}
