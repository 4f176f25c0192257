import {
  ACCESS_APPLICATION_MACHINE,
  BODY_LIMIT_BYTES,
  DELIVERABLE_MACHINE,
  DISPUTE_MACHINE,
  ERRORS,
  type ErrorCodeOf,
  type ErrorStatus,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  JOB_MACHINE,
  machineMarkdown,
  MILESTONE_MACHINE,
  PAYMENT_MACHINE,
  PAYMENT_REQUEST_MACHINE,
  Problem,
  PROPOSAL_MACHINE,
  REQUEST_MACHINE,
  REQUEST_TOKEN_HEADER,
  type StateMachine,
} from '@handoff/contracts';
import { z } from 'zod';
import { fixedDocumentRoute } from '../http/fixed-document.ts';
import type { RouteDefinition } from '../http/route.ts';
import { STATUS_TITLES } from '../http/problem.ts';
import { SECURITY_HEADER_DESCRIPTIONS, SECURITY_HEADERS } from '../http/security-headers.ts';
import { PublicReadiness } from '../readiness.ts';
import { REQUEST_EXAMPLES } from './examples.ts';
import { linksByOperation, type LinkObject } from './links.ts';

/**
 * The OpenAPI 3.1 document of the gateway, generated from the route table and the same zod schemas
 * that validate the requests (conventions §1): request schemas as zod's input type, responses as
 * its output type. Every error a route can answer is listed per the conventions' errors table and
 * order of checks, each as `application/problem+json` with the codes that status can carry there.
 */

export const OPENAPI_VERSION = '3.1.0';
export const API_DOCUMENT_VERSION = '1.0.2';
export const OPENAPI_PATH = '/v1/openapi.json';
export const IDEMPOTENCY_KEY_PATTERN = '^[!-~](?:[ -~]*[!-~])?$';

export type JsonSchema = Record<string, unknown>;
export interface Reference {
  $ref: string;
}
export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  description?: string;
  schema: JsonSchema;
}
export interface Header {
  description: string;
  required?: boolean;
  schema: JsonSchema;
  example?: string;
}
export interface ResponseObject {
  description: string;
  headers?: Record<string, Header | Reference>;
  content?: Record<string, { schema: JsonSchema }>;
  links?: Record<string, LinkObject>;
}
export interface Operation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  deprecated?: true;
  security: Record<string, string[]>[];
  parameters?: (Parameter | Reference)[];
  requestBody?: {
    required: boolean;
    description?: string;
    content: Record<string, { schema: JsonSchema; example?: unknown }>;
  };
  responses: Record<string, ResponseObject | Reference>;
}
export type HttpMethod = RouteDefinition['method'];
export type PathItem = Partial<Record<HttpMethod, Operation>>;
export interface OpenApiDocument {
  openapi: typeof OPENAPI_VERSION;
  info: { title: string; version: string; description: string };
  servers: { url: string; description?: string }[];
  tags: { name: string; description?: string }[];
  paths: Record<string, PathItem>;
  components: {
    securitySchemes: Record<string, Record<string, unknown>>;
    schemas: Record<string, JsonSchema>;
    responses: Record<string, ResponseObject>;
    parameters: Record<string, Parameter>;
    headers: Record<string, Header>;
  };
}

export interface BuildOptions {
  /**
   * Whether a route wants `X-Service-Request-Token`. By default a route says so with
   * `requestToken: true`.
   */
  requestToken?: (route: RouteDefinition) => boolean;
}

const METHOD_ORDER: readonly HttpMethod[] = ['get', 'post', 'patch', 'delete'];

/** A resource tag of the engagement: what it is, then its state machine(s), generated. */
const engagementTag = (intro: string, machines: readonly StateMachine[]) =>
  [intro, ...machines.map((machine) => machineMarkdown(machine, '###'))].join('\n\n');

const TAG_DESCRIPTIONS: Record<string, string> = {
  meta: 'What the API offers and who is calling.',
  access: engagementTag(
    'Applying for access and claiming the agent key (conventions §1 "Access").',
    [ACCESS_APPLICATION_MACHINE],
  ),
  requests: engagementTag(
    'The hand-off request an agent creates for its customer and reads with the request token ' +
      '(`requests:create`, `requests:read`). Staff route it; the work on it moves it along.',
    [REQUEST_MACHINE],
  ),
  staff: 'Staff decisions and tools; a staff JWT, never an agent key.',
  health: 'Probes for load balancers and Kubernetes.',
  provider:
    'The provider API: a human provider, with a provider key (`Authorization: Bearer hpk_live_...`) ' +
    'that staff issue, reads the requests routed to it or published on the marketplace in its ' +
    'categories, writes into their conversations, proposes, and delivers the work of its jobs. ' +
    'Customer contact details are shown only where the customer gave `contact_permission`. ' +
    "Another provider's resources answer 404, as unknown ones do.",
  proposals: engagementTag(
    "A provider's offer on a request. The agent lists a request's proposals and accepts one for " +
      'its customer (scopes `proposals:read`, `proposals:accept`, with the request token): a job ' +
      'starts and every other open proposal of the request is declined.',
    [PROPOSAL_MACHINE],
  ),
  jobs: engagementTag(
    'The engagement an accepted proposal starts, between the customer and one provider ' +
      '(`jobs:read`). The provider completes it once every milestone is approved or cancelled ' +
      'and no dispute is open.',
    [JOB_MACHINE],
  ),
  milestones: engagementTag(
    "A part of a job's work. The provider reports progress, attaches deliverables and submits it; " +
      'the agent reviews it for the customer (`milestones:read`, `milestones:review`): approve, or ' +
      'request changes with a reason. Approving never moves money.',
    [MILESTONE_MACHINE],
  ),
  deliverables: engagementTag(
    "What a provider hands over for a milestone (a link and a description); it follows its milestone's review (`milestones:read`).",
    [DELIVERABLE_MACHINE],
  ),
  disputes: engagementTag(
    "A dispute or refund case the agent opens for its customer on the request's job " +
      '(`disputes:read`, `disputes:manage`). The customer, the provider and staff comment on it; ' +
      'staff resolve it for the customer, for the provider or split, with a reason. Resolving ' +
      'records the outcome; money moves only through a staff-approved payment request.',
    [DISPUTE_MACHINE],
  ),
  payments: engagementTag(
    'Money moves only through a payment request that the agent proposes and staff approve; the ' +
      'approval creates a payment through the configured payment provider (manual: staff confirm ' +
      'it; Stripe: a verified `payment_intent.succeeded` webhook completes it). Approving work or resolving a dispute never moves money.',
    [PAYMENT_REQUEST_MACHINE, PAYMENT_MACHINE],
  ),
};

const ORDER_OF_CHECKS =
  'route, method, agent key, scope, token presence, content type and size, JSON, schema, lookup, token match, state';

const DESCRIPTION = [
  'Approved AI agents hand customer requests to human providers and follow them through.',
  '',
  'Errors are RFC 9457 `application/problem+json` with a stable snake_case `code` to branch on; ' +
    'extension members (e.g. `required_scopes`) may be added. Every response carries `Request-Id`, ' +
    'which is also in the error body, and `Cache-Control: no-store`, `X-Content-Type-Options: ' +
    "nosniff`, `Content-Security-Policy: default-src 'none'; frame-ancestors 'none'`, " +
    '`Referrer-Policy: no-referrer` and `X-Frame-Options: DENY`. Checks happen in this order: ' +
    `${ORDER_OF_CHECKS}.`,
  '',
  `Every POST takes an optional \`Idempotency-Key\` (1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters), ` +
    'kept 24 h per integration: a replay returns the stored status and body with ' +
    '`Idempotent-Replayed: true`; a different request with the same key gets 422 ' +
    '`idempotency_key_reused`; a key still in flight gets 409 `idempotency_key_in_use`.',
  '',
  'Unknown body fields are rejected with 422. Limits and the rate-limit policies of this ' +
    `deployment are listed by \`GET /v1/capabilities\`; the body limit is ${BODY_LIMIT_BYTES} bytes.`,
  '',
  'Three kinds of caller, each with its own credential that works on its own routes only (401 ' +
    'elsewhere): agents (`hk_live_` keys with scopes; the customer side of a request also needs ' +
    'its request token), providers (`hpk_live_` keys, under `/v1/provider/`) and staff (a JWT, ' +
    'under `/v1/staff/`).',
  '',
  'Requests, the work after the handoff (proposals, jobs, milestones, deliverables, disputes, ' +
    'payments) and access applications follow state machines: the tag of each resource has its ' +
    'table, its diagram, and for every ' +
    'waiting state the `deadline_at` rule and what happens when it passes. An illegal move answers ' +
    '409 `invalid_state_transition` with `current_state` and `allowed_actions`, and changes nothing.',
].join('\n');

const ref = (kind: 'schemas' | 'parameters' | 'headers', name: string): Reference => ({
  $ref: `#/components/${kind}/${name}`,
});

/** `Request-Id` and the headers every answer carries (see `SECURITY_HEADERS`). */
const commonHeaders = (): Record<string, Reference> => ({
  'Request-Id': ref('headers', 'Request-Id'),
  ...Object.fromEntries(Object.keys(SECURITY_HEADERS).map((name) => [name, ref('headers', name)])),
});

/**
 * What the gateway refuses in any string before the schema check (`forbidden-characters.ts`):
 * NUL anywhere, and any control character in a path or query value. Written into the document
 * as a `pattern` on every free-form string, so that it states what the API accepts. Member names
 * get no such rule: the gateway leaves them to the schema, and an unknown member of an object that
 * drops them (such as `routing`) is accepted and dropped whatever its name holds.
 */
const NO_NUL = '^[^\\u0000]*$';
const NO_CONTROL = '^[^\\u0000-\\u001F\\u007F]*$';

function withPattern(node: unknown, pattern: string): unknown {
  if (Array.isArray(node)) return node.map((item) => withPattern(item, pattern));
  if (node === null || typeof node !== 'object') return node;
  const object = Object.fromEntries(
    Object.entries(node).map(([key, value]) => [
      key,
      // A problem's `pointer` names what the caller sent, whatever it held: no rule applies.
      key === 'properties' && value !== null && typeof value === 'object'
        ? Object.fromEntries(
            Object.entries(value).map(([name, member]) => [
              name,
              name === 'pointer' ? member : withPattern(member, pattern),
            ]),
          )
        : withPattern(value, pattern),
    ]),
  );
  if (object.type !== 'string' || 'format' in object || 'enum' in object || 'const' in object) {
    return object;
  }
  // A string with a pattern of its own gets this one beside it.
  return 'pattern' in object
    ? { ...object, allOf: [...((object.allOf as unknown[] | undefined) ?? []), { pattern }] }
    : { ...object, pattern };
}

/** A path or query parameter's schema: no control character, whether inline or a reference. */
function parameterSchema(schema: JsonSchema): JsonSchema {
  if (typeof schema.$ref === 'string') return { ...schema, pattern: NO_CONTROL };
  const free = schema.type === 'string' && !('format' in schema) && !('enum' in schema);
  return free ? { ...schema, pattern: NO_CONTROL } : schema;
}

/** zod → JSON Schema 2020-12, the dialect of OpenAPI 3.1; `$defs` are hoisted into components. */
function schemaOf(
  schema: z.ZodType,
  io: 'input' | 'output',
  defs: Record<string, JsonSchema>,
): JsonSchema {
  const generated = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
  }) as JsonSchema;
  const { $defs, ...rest } = withPattern(generated, NO_NUL) as JsonSchema;
  delete rest.$schema;
  if ($defs && typeof $defs === 'object') {
    for (const [name, def] of Object.entries($defs as Record<string, JsonSchema>)) {
      const hoisted = rewriteDefRefs(def) as JsonSchema;
      const existing = defs[name];
      if (existing && JSON.stringify(existing) !== JSON.stringify(hoisted)) {
        throw new Error(`two different schemas are both named ${name}`);
      }
      defs[name] = hoisted;
    }
  }
  return rewriteDefRefs(rest) as JsonSchema;
}

function rewriteDefRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewriteDefRefs);
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [
      key,
      key === '$ref' && typeof value === 'string' && value.startsWith('#/$defs/')
        ? value.replace('#/$defs/', '#/components/schemas/')
        : rewriteDefRefs(value),
    ]),
  );
}

/** The properties of an object schema, intersections (`allOf`) merged. */
function objectMembers(schema: JsonSchema): {
  properties: Record<string, JsonSchema>;
  required: Set<string>;
} {
  const properties: Record<string, JsonSchema> = {};
  const required = new Set<string>();
  const visit = (node: JsonSchema) => {
    Object.assign(properties, (node.properties as Record<string, JsonSchema> | undefined) ?? {});
    for (const name of (node.required as string[] | undefined) ?? []) required.add(name);
    for (const part of (node.allOf as JsonSchema[] | undefined) ?? []) visit(part);
  };
  visit(schema);
  return { properties, required };
}

const pathParamNames = (path: string) => [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? '');

export const isRequestTokenRoute = (route: RouteDefinition): boolean =>
  'requestToken' in route && (route as { requestToken?: unknown }).requestToken === true;

/**
 * The 409s of every call that changes something: an illegal move, or a move that another call
 * made first between the read and the compare-and-set write (`changedMeanwhile`).
 */
const STATE_CONFLICTS: readonly ErrorCodeOf<409>[] = [
  'invalid_state_transition',
  'concurrent_change',
];

function problem<S extends ErrorStatus>(
  status: S,
  codes: readonly ErrorCodeOf<S>[],
  headers: Record<string, Header | Reference> = {},
  extension?: Record<string, JsonSchema>,
  note?: string,
): ResponseObject {
  const list = codes.map((code) => `\`${code}\`: ${ERRORS[code].description}`).join('; ');
  return {
    description: `${STATUS_TITLES[status] ?? 'Error'}. ${list}.${note ? ` ${note}` : ''}`,
    headers: { ...commonHeaders(), ...headers },
    content: {
      'application/problem+json': {
        schema: {
          allOf: [
            ref('schemas', 'Problem'),
            {
              type: 'object',
              properties: {
                status: { const: status },
                code: { type: 'string', enum: [...codes] },
                ...extension,
              },
            },
          ],
        },
      },
    },
  };
}

/** `Retry-After` on a 409 for a key still in flight. */
const optionalRetryAfter: Header = {
  description: 'With `idempotency_key_in_use`: seconds to wait before retrying.',
  schema: { type: 'string', pattern: '^[0-9]+$' },
};

/** `WWW-Authenticate` where it is not always sent (a Reference Object cannot say `required`). */
const optionalChallenge: Header = {
  description: 'The authentication challenge, when the failure concerns the bearer credential.',
  schema: { type: 'string' },
};

/** Responses shared by many operations, kept once under `components.responses`. */
type SharedResponses = Record<string, ResponseObject>;

function shared(registry: SharedResponses, name: string, build: () => ResponseObject): Reference {
  registry[name] ??= build();
  return { $ref: `#/components/responses/${name}` };
}

/**
 * The error responses a route can give, per the conventions' errors table, in the order of
 * checks: route and method (405), credentials (401, 429), scope (403), token presence (401),
 * content type and size (415, 413), JSON (400), schema (422), lookup (404), token match (403),
 * state (409, on every call that changes something), and what the bus can answer (500, 503).
 */
function errorResponses(
  route: RouteDefinition,
  requestToken: boolean,
  registry: SharedResponses,
): Record<string, ResponseObject | Reference> {
  const responses: Record<string, ResponseObject | Reference> = {};
  const named = (name: string, build: () => ResponseObject) => shared(registry, name, build);
  const { access } = route;
  const hasBody = route.body !== undefined;
  const hasPathParams = pathParamNames(route.path).length > 0 || route.params !== undefined;
  const isPost = route.method === 'post';

  if (route.rawBody) {
    responses[400] = problem(400, [...route.rawBody.badRequest]);
    responses[413] = problem(
      413,
      ['payload_too_large'],
      {},
      undefined,
      `The limit here is ${route.rawBody.limitBytes} bytes.`,
    );
    responses[415] = named('UnsupportedMediaType', () => problem(415, ['unsupported_media_type']));
  } else if (hasBody) {
    responses[400] = named('InvalidJson', () => problem(400, ['invalid_json']));
    responses[413] = named('PayloadTooLarge', () => problem(413, ['payload_too_large']));
    responses[415] = named('UnsupportedMediaType', () => problem(415, ['unsupported_media_type']));
  }

  const agentCodes: ErrorCodeOf<401>[] = ['api_key_missing', 'api_key_invalid', 'api_key_expired'];
  const providerCodes: ErrorCodeOf<401>[] = [...agentCodes, 'workspace_session_invalid'];
  const staffCodes: ErrorCodeOf<401>[] = [
    'staff_token_missing',
    'staff_token_invalid',
    'staff_token_expired',
  ];
  const challenge = { 'WWW-Authenticate': ref('headers', 'WWW-Authenticate') };
  if (requestToken) {
    const codes = access.kind === 'agent' ? agentCodes : access.kind === 'staff' ? staffCodes : [];
    responses[401] = problem(401, [...codes, 'request_token_missing'], {
      'WWW-Authenticate': optionalChallenge,
    });
  } else if (access.kind === 'agent') {
    responses[401] = named('AgentKeyRequired', () => problem(401, agentCodes, challenge));
  } else if (access.kind === 'staff') {
    responses[401] = named('StaffTokenRequired', () => problem(401, staffCodes, challenge));
  } else if (access.kind === 'provider') {
    responses[401] = named('ProviderKeyRequired', () =>
      problem(
        401,
        providerCodes,
        challenge,
        undefined,
        'A provider key or a workspace session is needed: agent keys, staff tokens, revoked keys and the keys of a suspended provider all answer `api_key_invalid`; a workspace session cookie that ended or expired answers `workspace_session_invalid`.',
      ),
    );
  } else if (access.kind === 'workspace') {
    responses[401] = named('WorkspaceSessionRequired', () =>
      problem(
        401,
        ['workspace_session_invalid'],
        {},
        undefined,
        'No workspace session, or one that ended (signed out, revoked by staff, the provider suspended) or expired.',
      ),
    );
  } else if (route.unauthorized) {
    responses[401] = problem(401, [...route.unauthorized]);
  } else if (access.kind === 'applicant') {
    responses[401] = named('ApplicationSecretRequired', () =>
      problem(401, ['application_secret_missing']),
    );
  }

  const scopeMembers = {
    required_scopes: { type: 'array', items: { type: 'string' } },
    missing_scopes: { type: 'array', items: { type: 'string' } },
  };
  const scoped = access.kind === 'agent' && access.scopes.length > 0;
  if (requestToken) {
    const codes: ErrorCodeOf<403>[] = [];
    if (scoped) codes.push('insufficient_scope');
    if (access.kind === 'staff') codes.push('staff_role_required');
    codes.push('request_token_invalid');
    responses[403] = problem(
      403,
      codes,
      access.kind === 'agent' ? { 'WWW-Authenticate': optionalChallenge } : {},
      scoped ? scopeMembers : undefined,
    );
  } else if (scoped) {
    responses[403] = named('InsufficientScope', () =>
      problem(403, ['insufficient_scope'], { 'WWW-Authenticate': optionalChallenge }, scopeMembers),
    );
  } else if (access.kind === 'staff') {
    responses[403] = named('StaffRoleRequired', () => problem(403, ['staff_role_required']));
  } else if (
    (access.kind === 'provider' || access.kind === 'workspace') &&
    route.method !== 'get'
  ) {
    responses[403] = named('CsrfTokenInvalid', () =>
      problem(
        403,
        ['csrf_token_invalid'],
        {},
        undefined,
        'Made with a workspace session: the call lacks the session’s `X-CSRF-Token`, or a browser said it came from another origin or site.',
      ),
    );
  }

  if (route.notFound !== undefined || hasPathParams) {
    responses[404] = problem(404, [route.notFound ?? 'not_found', ...(route.notFoundAlso ?? [])]);
  }
  responses[405] = named('MethodNotAllowed', methodNotAllowed);
  if (isPost && route.conflicts) {
    // Routes with conflicts of their own get their own response with those codes listed.
    const codes: ErrorCodeOf<409>[] = [
      ...STATE_CONFLICTS,
      'idempotency_key_in_use',
      ...route.conflicts,
    ];
    responses[409] = problem(409, codes, { 'Retry-After': optionalRetryAfter });
  } else if (isPost) {
    responses[409] = named('ConflictOrKeyInUse', () =>
      problem(409, [...STATE_CONFLICTS, 'idempotency_key_in_use'], {
        'Retry-After': optionalRetryAfter,
      }),
    );
  } else if (route.method !== 'get' && route.conflicts) {
    responses[409] = problem(409, [...STATE_CONFLICTS, ...route.conflicts]);
  } else if (route.method !== 'get') {
    responses[409] = named('Conflict', () => problem(409, STATE_CONFLICTS));
  }
  if (isPost) {
    responses[422] = named('ValidationFailedOrKeyReused', () =>
      problem(422, ['validation_failed', 'idempotency_key_reused']),
    );
  } else if (hasBody || route.query !== undefined || route.params !== undefined) {
    responses[422] = named('ValidationFailed', () => problem(422, ['validation_failed']));
  }
  responses[429] = named('RateLimited', () =>
    problem(429, ['rate_limited'], {
      'Retry-After': ref('headers', 'Retry-After'),
      RateLimit: ref('headers', 'RateLimit'),
      'RateLimit-Policy': ref('headers', 'RateLimit-Policy'),
    }),
  );
  if (route.path.startsWith('/v1/')) {
    responses[500] = named('InternalError', () => problem(500, ['internal_error']));
    responses[503] = named('ServiceUnavailable', () =>
      problem(503, ['service_unavailable'], { 'Retry-After': ref('headers', 'Retry-After') }),
    );
  }
  return responses;
}

const methodNotAllowed = () =>
  problem(
    405,
    ['method_not_allowed'],
    { Allow: ref('headers', 'Allow') },
    undefined,
    'Answered to any other method on this path; `Allow` lists the methods it has.',
  );

function security(route: RouteDefinition): Record<string, string[]>[] {
  switch (route.access.kind) {
    case 'public':
      return [];
    case 'applicant':
      return [{ applicationSecret: [] }];
    case 'staff':
      return [{ staffJwt: [] }];
    case 'agent':
      return [{ agentKey: [...route.access.scopes] }];
    case 'provider':
      return [{ providerKey: [] }, { workspaceSession: [] }];
    case 'workspace':
      return [{ workspaceSession: [] }];
  }
}

function accessNote(route: RouteDefinition, requestToken: boolean): string {
  const { access } = route;
  const who =
    access.kind === 'public'
      ? 'Anyone may call this; it is rate limited per client address.'
      : access.kind === 'applicant'
        ? 'The applicant, with the application secret in `X-Application-Secret`.'
        : access.kind === 'staff'
          ? 'Staff, with a JWT whose `roles` contain `staff`.'
          : access.kind === 'provider'
            ? 'A provider, with a provider key (`hpk_live_...`) of an active provider, or signed in to the workspace (its session cookie, and `X-CSRF-Token` on a change); it sees only its own resources.'
            : access.kind === 'workspace'
              ? 'A provider signed in to the workspace: its session cookie (and `X-CSRF-Token` on a change).'
              : access.scopes.length > 0
                ? `An agent key with the scope(s) ${access.scopes.map((s) => `\`${s}\``).join(', ')}.`
                : 'Any valid agent key.';
  return requestToken ? `${who} The request's token goes in \`${REQUEST_TOKEN_HEADER}\`.` : who;
}

function operationFor(
  route: RouteDefinition,
  defs: Record<string, JsonSchema>,
  registry: SharedResponses,
  options: BuildOptions,
): Operation {
  const requestToken = (options.requestToken ?? isRequestTokenRoute)(route);
  const parameters: (Parameter | Reference)[] = [];

  const pathSchema = route.params ? schemaOf(route.params, 'input', defs) : {};
  const { properties: pathProps } = objectMembers(pathSchema);
  for (const name of pathParamNames(route.path)) {
    parameters.push({
      name,
      in: 'path',
      required: true,
      schema: parameterSchema(pathProps[name] ?? { type: 'string' }),
    });
  }
  if (route.query) {
    const { properties, required } = objectMembers(schemaOf(route.query, 'input', defs));
    for (const [name, schema] of Object.entries(properties)) {
      parameters.push({
        name,
        in: 'query',
        required: required.has(name),
        schema: parameterSchema(schema),
      });
    }
  }
  for (const header of route.requestHeaders ?? []) {
    parameters.push({
      name: header.name,
      in: 'header',
      required: header.required,
      description: header.description,
      schema: { type: 'string' },
    });
  }
  if (requestToken) parameters.push(ref('parameters', REQUEST_TOKEN_HEADER));
  if (route.method === 'post') parameters.push(ref('parameters', 'Idempotency-Key'));
  const etag = route.headers?.ETag !== undefined;
  if (etag && route.method === 'get') parameters.push(ref('parameters', 'If-None-Match'));
  parameters.push(ref('parameters', 'Request-Id'));

  const successHeaders: Record<string, Header | Reference> = {
    ...commonHeaders(),
    RateLimit: ref('headers', 'RateLimit'),
    'RateLimit-Policy': ref('headers', 'RateLimit-Policy'),
  };
  if (route.method === 'post')
    successHeaders['Idempotent-Replayed'] = ref('headers', 'Idempotent-Replayed');
  for (const [name, value] of Object.entries(route.headers ?? {})) {
    successHeaders[name] = {
      description: `Sent with every success of this operation.`,
      required: true,
      schema: { type: 'string' },
      // An ETag changes with the content (and the deployment's settings); the others are fixed.
      ...(name === 'ETag' ? {} : { example: value }),
    };
  }

  const success: ResponseObject = {
    description: STATUS_TITLES[route.status] ?? 'Success',
    headers: successHeaders,
    ...(route.status === 204
      ? {}
      : { content: { 'application/json': { schema: schemaOf(route.response, 'output', defs) } } }),
  };
  const responses: Record<string, ResponseObject | Reference> = { [route.status]: success };
  if (etag && route.method === 'get') {
    responses[304] = {
      description: 'Not Modified: `If-None-Match` named the current `ETag`.',
      headers: commonHeaders(),
    };
  }
  Object.assign(responses, errorResponses(route, requestToken, registry));

  return {
    operationId: route.operationId,
    summary: route.summary,
    description: accessNote(route, requestToken),
    tags: [...route.tags],
    ...(route.deprecated ? { deprecated: true as const } : {}),
    security: security(route),
    parameters,
    ...(route.rawBody
      ? {
          requestBody: {
            required: true,
            description: route.rawBody.description,
            content: {
              'application/json': { schema: schemaOf(route.rawBody.schema, 'input', defs) },
            },
          },
        }
      : {}),
    ...(route.body
      ? {
          requestBody: {
            required: !route.bodyOptional,
            ...(route.bodyOptional
              ? { description: 'May be left out; it then counts as `{}`.' }
              : {}),
            content: {
              'application/json': {
                schema: schemaOf(route.body, 'input', defs),
                ...(REQUEST_EXAMPLES[route.operationId] === undefined
                  ? {}
                  : { example: REQUEST_EXAMPLES[route.operationId] }),
              },
            },
          },
        }
      : {}),
    responses,
  };
}

function probePaths(
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

function components(
  defs: Record<string, JsonSchema>,
): Omit<OpenApiDocument['components'], 'responses'> {
  const problemSchema = schemaOf(Problem, 'output', defs);
  // Extension members (RFC 9457 §3.2) such as `required_scopes` are allowed.
  delete problemSchema.additionalProperties;
  return {
    securitySchemes: {
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
        description:
          'Staff JWT (HS256 or the identity provider’s JWKS); `roles` must contain `staff`.',
      },
      applicationSecret: {
        type: 'apiKey',
        in: 'header',
        name: 'X-Application-Secret',
        description: 'The secret returned once when the access application was submitted.',
      },
    },
    schemas: {
      Problem: {
        ...problemSchema,
        description:
          'RFC 9457 problem details. `code` is stable; extension members may be present.',
      },
    },
    parameters: {
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
    },
    headers: {
      'Request-Id': {
        description: 'The id of this call; also in the error body, the logs and the bus messages.',
        required: true,
        schema: { type: 'string' },
      },
      RateLimit: {
        description:
          'draft-ietf-httpapi-ratelimit-headers: `"<policy>";r=<remaining>;t=<seconds>`.',
        required: true,
        schema: { type: 'string' },
      },
      'RateLimit-Policy': {
        description:
          'draft-ietf-httpapi-ratelimit-headers: `"<policy>";q=<limit>;w=<window seconds>`.',
        required: true,
        schema: { type: 'string' },
      },
      'Retry-After': {
        description: 'Seconds to wait before trying again.',
        required: true,
        schema: { type: 'string', pattern: '^[0-9]+$' },
      },
      'WWW-Authenticate': {
        description: 'The authentication challenge, e.g. `Bearer realm="handoff"`.',
        required: true,
        schema: { type: 'string' },
      },
      Allow: {
        description: 'The methods this path has.',
        required: true,
        schema: { type: 'string' },
      },
      'Idempotent-Replayed': {
        description: '`true` when this is the stored answer to an earlier call with the same key.',
        schema: { type: 'string', enum: ['true'] },
      },
      ...Object.fromEntries(
        (Object.keys(SECURITY_HEADERS) as (keyof typeof SECURITY_HEADERS)[]).map((name) => [
          name,
          {
            description: SECURITY_HEADER_DESCRIPTIONS[name],
            required: true,
            schema: { type: 'string', const: SECURITY_HEADERS[name] },
          },
        ]),
      ),
    },
  };
}

/** Builds the OpenAPI 3.1 document of these routes, plus the probes and the document itself. */
export function buildOpenApi(
  routes: readonly RouteDefinition[],
  options: BuildOptions = {},
): OpenApiDocument {
  const all = routes.some((route) => route.path === OPENAPI_PATH && route.method === 'get')
    ? routes
    : [...routes, openApiRoute({})];
  const defs: Record<string, JsonSchema> = {};
  const registry: SharedResponses = {};
  const paths: Record<string, PathItem> = { ...probePaths(defs, registry) };
  const tags = new Set<string>(['health']);
  const seen = new Set<string>();
  for (const route of all) {
    if (seen.has(route.operationId)) throw new Error(`duplicate operationId ${route.operationId}`);
    seen.add(route.operationId);
    const item = (paths[route.path] ??= {});
    if (item[route.method]) throw new Error(`two routes for ${route.method} ${route.path}`);
    item[route.method] = operationFor(route, defs, registry, options);
    for (const tag of route.tags) tags.add(tag);
  }

  addLinks(paths);

  const sortedPaths = Object.fromEntries(
    Object.keys(paths)
      .sort()
      .map((path) => {
        const item = paths[path] ?? {};
        const ordered: PathItem = {};
        for (const method of METHOD_ORDER) {
          const operation = item[method];
          if (operation) ordered[method] = operation;
        }
        return [path, ordered];
      }),
  );
  const base = components(defs);
  const hoisted = Object.fromEntries(
    Object.keys(defs)
      .sort()
      .map((name) => [name, defs[name] ?? {}]),
  );

  return {
    openapi: OPENAPI_VERSION,
    info: { title: 'Handoff API', version: API_DOCUMENT_VERSION, description: DESCRIPTION },
    servers: [{ url: '/', description: 'This gateway.' }],
    tags: [...tags].sort().map((name) => ({
      name,
      ...(TAG_DESCRIPTIONS[name] ? { description: TAG_DESCRIPTIONS[name] } : {}),
    })),
    paths: sortedPaths,
    components: {
      securitySchemes: base.securitySchemes,
      schemas: { ...base.schemas, ...hoisted },
      responses: Object.fromEntries(
        Object.keys(registry)
          .sort()
          .map((name) => [name, registry[name] ?? { description: name }]),
      ),
      parameters: base.parameters,
      headers: base.headers,
    },
  };
}

/**
 * The links of `links.ts` on each creating operation's success answer, those whose both ends are
 * in the document (a document of a few routes, in a test, has fewer).
 */
function addLinks(paths: Record<string, PathItem>): void {
  const operations = new Map<string, Operation>();
  for (const item of Object.values(paths)) {
    for (const operation of Object.values(item)) operations.set(operation.operationId, operation);
  }
  for (const [from, links] of linksByOperation()) {
    const operation = operations.get(from);
    if (!operation) continue;
    const success = Object.entries(operation.responses).find(([status]) => status.startsWith('2'));
    if (!success || '$ref' in success[1]) continue;
    const present = Object.entries(links).filter(([, link]) => operations.has(link.operationId));
    if (present.length > 0) success[1].links = Object.fromEntries(present);
  }
}

/** Enough of an OpenAPI document to check the answer; the rest passes through. */
const OpenApiDocumentShape = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.unknown()),
});

/** `GET /v1/openapi.json`: public, with an ETag of the document. */
export function openApiRoute(document: object): RouteDefinition {
  return fixedDocumentRoute(
    {
      path: OPENAPI_PATH,
      operationId: 'getOpenApiDocument',
      summary: 'This OpenAPI 3.1 document',
      response: OpenApiDocumentShape,
    },
    document,
  );
}

/** The routes plus `GET /v1/openapi.json` serving their document: what the gateway mounts. */
export function withOpenApi(
  routes: readonly RouteDefinition[],
  options: BuildOptions = {},
): RouteDefinition[] {
  return [...routes, openApiRoute(buildOpenApi(routes, options))];
}
