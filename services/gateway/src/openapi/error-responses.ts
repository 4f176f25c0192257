import { ERRORS, type ErrorCodeOf, type ErrorStatus } from '@handoff/contracts';
import { STATUS_TITLES } from '../http/problem.ts';
import type { RouteDefinition } from '../http/route.ts';
import { commonHeaders, pathParamNames, ref } from './schemas.ts';
import type { Header, JsonSchema, Reference, ResponseObject } from './types.ts';

/**
 * The 409s of every call that changes something: an illegal move, or a move that another call
 * made first between the read and the compare-and-set write (`changedMeanwhile`).
 */
const STATE_CONFLICTS: readonly ErrorCodeOf<409>[] = [
  'invalid_state_transition',
  'concurrent_change',
];

/** What a problem response has beyond its codes. */
interface ProblemExtras {
  headers?: Record<string, Header | Reference>;
  /** Extension members of the body (RFC 9457 §3.2). */
  extension?: Record<string, JsonSchema>;
  /** A sentence after the codes' descriptions. */
  note?: string;
}

export function problem<S extends ErrorStatus>(
  status: S,
  codes: readonly ErrorCodeOf<S>[],
  { headers = {}, extension, note }: ProblemExtras = {},
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
export type SharedResponses = Record<string, ResponseObject>;

export function shared(
  registry: SharedResponses,
  name: string,
  build: () => ResponseObject,
): Reference {
  registry[name] ??= build();
  return { $ref: `#/components/responses/${name}` };
}

/**
 * The error responses a route can give, per the conventions' errors table, in the order of
 * checks: route and method (405), credentials (401, 429), scope (403), token presence (401),
 * content type and size (415, 413), JSON (400), schema (422), lookup (404), token match (403),
 * state (409, on every call that changes something), and what the bus can answer (500, 503).
 */
export function errorResponses(
  route: RouteDefinition,
  requestToken: boolean,
  registry: SharedResponses,
): Record<string, Answer> {
  const named: Named = (name, build) => shared(registry, name, build);
  const facts: RouteFacts = { route, requestToken, named };
  const hasBody = route.body !== undefined;
  const hasPathParams = pathParamNames(route.path).length > 0 || route.params !== undefined;
  const isPost = route.method === 'post';
  const responses: Record<string, Answer> = { ...bodyResponses(facts) };
  const unauthorized = unauthorizedResponse(facts);
  if (unauthorized) responses[401] = unauthorized;
  const forbidden = forbiddenResponse(facts);
  if (forbidden) responses[403] = forbidden;
  if (route.forbidden?.length) responses[403] = problem(403, [...route.forbidden]);
  if (route.download) {
    responses[416] = problem(416, ['range_not_satisfiable'], {
      headers: { 'Content-Range': { description: '`bytes */<size>`', schema: { type: 'string' } } },
    });
  }

  if (route.notFound !== undefined || hasPathParams) {
    responses[404] = problem(404, route.notFound ?? ['not_found']);
  }
  responses[405] = named('MethodNotAllowed', methodNotAllowed);
  const conflict = conflictResponse(facts);
  if (conflict) responses[409] = conflict;
  if (isPost) {
    responses[422] = named('ValidationFailedOrKeyReused', () =>
      problem(422, ['validation_failed', 'idempotency_key_reused']),
    );
  } else if (hasBody || route.query !== undefined || route.params !== undefined) {
    responses[422] = named('ValidationFailed', () => problem(422, ['validation_failed']));
  }
  responses[429] = named('RateLimited', () =>
    problem(429, ['rate_limited'], {
      headers: {
        'Retry-After': ref('headers', 'Retry-After'),
        RateLimit: ref('headers', 'RateLimit'),
        'RateLimit-Policy': ref('headers', 'RateLimit-Policy'),
      },
    }),
  );
  if (route.path.startsWith('/v1/')) {
    responses[500] = named('InternalError', () => problem(500, ['internal_error']));
    responses[503] = named('ServiceUnavailable', () =>
      problem(503, ['service_unavailable'], {
        headers: { 'Retry-After': ref('headers', 'Retry-After') },
      }),
    );
  }
  return responses;
}

/** A shared response by its name, built once. */
type Named = (name: string, build: () => ResponseObject) => Reference;

type Answer = ResponseObject | Reference;

/** What the answers of one status are chosen by. */
interface RouteFacts {
  route: RouteDefinition;
  /** The route checks a request token. */
  requestToken: boolean;
  named: Named;
}

/** What the body can be refused for: its JSON (400), its size (413) and its type (415). */
function bodyResponses({ route, named }: RouteFacts) {
  const responses: Record<string, Answer> = {};
  if (route.rawBody) {
    responses[400] = problem(400, [...route.rawBody.badRequest]);
    responses[413] = problem(413, ['payload_too_large'], {
      note: `The limit here is ${route.rawBody.limitBytes} bytes.`,
    });
    responses[415] = named('UnsupportedMediaType', () => problem(415, ['unsupported_media_type']));
  } else if (route.upload) {
    responses[413] = named('FileTooLarge', () =>
      problem(413, ['file_too_large'], {
        extension: { limit: { type: 'integer', description: 'The bytes the file may have.' } },
      }),
    );
    responses[415] = named('FileTypeRefused', () =>
      problem(415, ['unsupported_media_type', 'file_type_not_allowed', 'file_type_mismatch'], {
        extension: {
          allowed: { type: 'array', items: { type: 'string' } },
          detected: { type: ['string', 'null'] },
        },
      }),
    );
  } else if (route.body !== undefined) {
    responses[400] = named('InvalidJson', () => problem(400, ['invalid_json']));
    responses[413] = named('PayloadTooLarge', () => problem(413, ['payload_too_large']));
    responses[415] = named('UnsupportedMediaType', () => problem(415, ['unsupported_media_type']));
  }
  return responses;
}

/** The 401 of the route's access kind, with `request_token_missing` where a token is needed. */
function unauthorizedResponse({ route, requestToken, named }: RouteFacts): Answer | undefined {
  const { access } = route;
  const agentCodes: ErrorCodeOf<401>[] = ['api_key_missing', 'api_key_invalid', 'api_key_expired'];
  const providerCodes: ErrorCodeOf<401>[] = [...agentCodes, 'workspace_session_invalid'];
  const staffCodes: ErrorCodeOf<401>[] = [
    'staff_token_missing',
    'staff_token_invalid',
    'staff_token_expired',
  ];
  const challenge = { headers: { 'WWW-Authenticate': ref('headers', 'WWW-Authenticate') } };
  if (requestToken) {
    const codes = access.kind === 'agent' ? agentCodes : access.kind === 'staff' ? staffCodes : [];
    return problem(401, [...codes, 'request_token_missing'], {
      headers: { 'WWW-Authenticate': optionalChallenge },
    });
  } else if (access.kind === 'agent') {
    return named('AgentKeyRequired', () => problem(401, agentCodes, challenge));
  } else if (access.kind === 'staff') {
    return named('StaffTokenRequired', () => problem(401, staffCodes, challenge));
  } else if (access.kind === 'provider') {
    return named('ProviderKeyRequired', () =>
      problem(401, providerCodes, {
        ...challenge,
        note: 'A provider key or a workspace session is needed: agent keys, staff tokens, revoked keys and the keys of a suspended provider all answer `api_key_invalid`; a workspace session cookie that ended or expired answers `workspace_session_invalid`.',
      }),
    );
  } else if (access.kind === 'workspace') {
    return named('WorkspaceSessionRequired', () =>
      problem(401, ['workspace_session_invalid'], {
        note: 'No workspace session, or one that ended (signed out, revoked by staff, the provider suspended) or expired.',
      }),
    );
  } else if (route.unauthorized) {
    return problem(401, [...route.unauthorized]);
  } else if (access.kind === 'applicant') {
    return named('ApplicationSecretRequired', () => problem(401, ['application_secret_missing']));
  }
  return undefined;
}

/** The 403 of a missing scope, a staff role, a token that is not the request's, or a CSRF check. */
function forbiddenResponse({ route, requestToken, named }: RouteFacts): Answer | undefined {
  const { access } = route;
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
    return problem(403, codes, {
      ...(access.kind === 'agent' ? { headers: { 'WWW-Authenticate': optionalChallenge } } : {}),
      ...(scoped ? { extension: scopeMembers } : {}),
    });
  } else if (scoped) {
    return named('InsufficientScope', () =>
      problem(403, ['insufficient_scope'], {
        headers: { 'WWW-Authenticate': optionalChallenge },
        extension: scopeMembers,
      }),
    );
  } else if (access.kind === 'staff') {
    return named('StaffRoleRequired', () => problem(403, ['staff_role_required']));
  } else if (
    (access.kind === 'provider' || access.kind === 'workspace') &&
    route.method !== 'get'
  ) {
    return named('CsrfTokenInvalid', () =>
      problem(403, ['csrf_token_invalid'], {
        note: 'Made with a workspace session: the call lacks the session’s `X-CSRF-Token`, or a browser said it came from another origin or site.',
      }),
    );
  }
  return undefined;
}

/** The 409 of a change: a state conflict, a key in flight, and the route's own conflicts. */
function conflictResponse({ route, named }: RouteFacts): Answer | undefined {
  const isPost = route.method === 'post';
  if (isPost && route.conflicts) {
    // Routes with conflicts of their own get their own response with those codes listed.
    const codes: ErrorCodeOf<409>[] = [
      ...STATE_CONFLICTS,
      'idempotency_key_in_use',
      ...route.conflicts,
    ];
    return problem(409, codes, { headers: { 'Retry-After': optionalRetryAfter } });
  } else if (isPost) {
    return named('ConflictOrKeyInUse', () =>
      problem(409, [...STATE_CONFLICTS, 'idempotency_key_in_use'], {
        headers: { 'Retry-After': optionalRetryAfter },
      }),
    );
  } else if (route.method !== 'get' && route.conflicts) {
    return problem(409, [...STATE_CONFLICTS, ...route.conflicts]);
  } else if (route.method !== 'get') {
    return named('Conflict', () => problem(409, STATE_CONFLICTS));
  }
  return undefined;
}

export const methodNotAllowed = () =>
  problem(405, ['method_not_allowed'], {
    headers: { Allow: ref('headers', 'Allow') },
    note: 'Answered to any other method on this path; `Allow` lists the methods it has.',
  });
