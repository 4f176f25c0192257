import { BusError, call } from '@handoff/bus';
import { BODY_LIMIT_BYTES, requestOps, type Operation, type Scope } from '@handoff/contracts';
import type { Logger } from '@handoff/observability';
import type { NatsConnection } from '@nats-io/transport-node';
import { createHash } from 'node:crypto';
import type { Express, NextFunction, Request, Response } from 'express';
import type { z } from 'zod';
import type { AgentIdentity, KeyVerifier } from '../auth/agent-keys.ts';
import type { AuthFailureGuard } from '../auth/client-guard.ts';
import type { ProviderIdentity, ProviderVerifier } from '../auth/provider-keys.ts';
import type { RequestTokenChecker } from '../auth/request-tokens.ts';
import type { StaffIdentity, StaffVerifier } from '../auth/staff-jwt.ts';
import {
  parseIdempotencyKey,
  requestFingerprint,
  type IdempotencyClaim,
  type IdempotencyStore,
} from '../idempotency.ts';
import { rateLimitHeaders, type RateLimiter, type RateLimitPolicy } from '../ratelimit.ts';
import { charsetIsUtf8, declaresBody, readBodyBytes } from './body.ts';
import { fieldErrors, fromBusError, HttpError, validationFailed } from './errors.ts';
import { forbiddenCharacters } from './forbidden-characters.ts';
import { jsonShapeProblem } from './json-shape.ts';
import { sendHttpError, sendProblem } from './problem.ts';
import { openBody, sealBody } from './sealed.ts';

/** Who may call a route. Every route states it; there is no default. */
export type Access =
  | { kind: 'public' }
  | { kind: 'applicant' }
  | { kind: 'agent'; scopes: readonly Scope[] }
  /** A provider key (`hpk_live_...`) of an active provider. */
  | { kind: 'provider' }
  | { kind: 'staff' };

export interface RouteContext<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  requestId: string;
  /** The calling integration (agent routes). */
  agent: AgentIdentity | undefined;
  /** The calling staff member (staff routes). */
  staff: StaffIdentity | undefined;
  /** The calling provider (provider routes). */
  provider: ProviderIdentity | undefined;
  /** The raw `X-Application-Secret` (applicant routes); hash it before it leaves the gateway. */
  applicationSecret: string | undefined;
  /** The raw `X-Service-Request-Token` (routes with `requestToken`); hash it before use. */
  requestToken: string | undefined;
  /** The body exactly as it arrived, as UTF-8 text (routes with `rawBody` only). */
  rawBody: string | undefined;
  /** A header of the call (names are case-insensitive). */
  header(name: string): string | undefined;
  call<I extends z.ZodType, O extends z.ZodType>(
    op: Operation<I, O>,
    input: z.input<I>,
  ): Promise<z.output<O>>;
  /**
   * Checks that the calling integration owns request `id` and that the call's request token is
   * its token (routes with `requestToken`), without reading the request each time. Rejects with
   * the bus's `not_found` (unknown or another integration's) or `forbidden` (wrong token).
   */
  authorizeRequest(id: string): Promise<void>;
  res: Response;
}

export interface RouteDefinition<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
> {
  method: 'get' | 'post' | 'patch' | 'delete';
  /** OpenAPI-style path, e.g. `/v1/access-applications/{id}`. */
  path: string;
  operationId: string;
  summary: string;
  tags: readonly string[];
  access: Access;
  params?: P;
  query?: Q;
  body?: B;
  /** The body may be left out entirely (an empty body then validates as `{}`). */
  bodyOptional?: boolean;
  /**
   * The body is not parsed: the handler gets its bytes as they arrived (`ctx.rawBody`), for
   * payloads whose signature covers the exact bytes (Stripe's webhooks). It must still be
   * `application/json` and at most `limitBytes`; `schema` documents it in OpenAPI only, and
   * `badRequest` lists the codes of the handler's own 400 answers (e.g. `signature_invalid`).
   * Leave `body` out on such routes.
   */
  rawBody?: {
    limitBytes: number;
    schema: z.ZodType;
    description: string;
    badRequest: readonly string[];
  };
  /** Needs `X-Service-Request-Token` (checked for presence before any lookup). */
  requestToken?: boolean;
  status: number;
  response: z.ZodType;
  /** Codes of 409 answers of this route beyond the common ones (e.g. a limit reached). */
  conflicts?: readonly string[];
  /** The `code` of a 404 when the resource is not found over the bus. */
  notFound?: string;
  /**
   * Further 404 codes the handler answers itself, e.g. `request_not_found` when the request a
   * nested resource hangs under is not the caller's (documented next to `notFound`).
   */
  notFoundAlso?: readonly string[];
  /** Request headers the handler reads (`ctx.header`), documented as header parameters. */
  requestHeaders?: readonly { name: string; description: string; required: boolean }[];
  /** Response headers added to every success (e.g. deprecation headers). */
  headers?: Record<string, string>;
  deprecated?: boolean;
  handle(ctx: RouteContext<z.output<P>, z.output<Q>, z.output<B>>): Promise<unknown>;
}

export function defineRoute<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType>(
  route: RouteDefinition<P, Q, B>,
): RouteDefinition {
  return route as unknown as RouteDefinition;
}

export interface RouteDeps {
  nc: NatsConnection;
  idempotency: IdempotencyStore;
  logger: Logger;
  busTimeoutMs: number;
  keys: KeyVerifier;
  providers: ProviderVerifier;
  staff: StaffVerifier;
  guard: AuthFailureGuard;
  limiter: RateLimiter;
  policies: { key: RateLimitPolicy; public: RateLimitPolicy };
  requestTokens: RequestTokenChecker;
}

// One limit for every route and for /mcp (packages/mcp), hence from the contracts.
export { BODY_LIMIT_BYTES };

const expressPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

async function readBody(req: Request, res: Response): Promise<unknown> {
  if (!charsetIsUtf8(req)) {
    throw new HttpError(
      415,
      'unsupported_media_type',
      'Send the body as `application/json` in UTF-8, without a Content-Encoding.',
    );
  }
  const text = (await readBodyBytes(req, res, BODY_LIMIT_BYTES)).toString('utf8');
  // An empty body is a common client mistake; it is validated as `{}` and fails the schema there.
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text) as unknown;
  } catch {
    throw new HttpError(400, 'invalid_json', 'The body is not valid JSON.');
  }
  const problem = jsonShapeProblem(text);
  if (problem !== undefined) throw new HttpError(400, 'invalid_json', problem);
  return parsed;
}

async function readRawBody(req: Request, res: Response, limitBytes: number): Promise<string> {
  return (await readBodyBytes(req, res, limitBytes)).toString('utf8');
}

function parse<S extends z.ZodType>(
  schema: S | undefined,
  value: unknown,
  root: '' | '/query' | '/params',
) {
  if (!schema) return value;
  const forbidden = forbiddenCharacters(value, root);
  if (forbidden.length > 0) throw validationFailed(forbidden);
  const result = schema.safeParse(value);
  if (!result.success) throw validationFailed(fieldErrors(result.error, root));
  return result.data;
}

function applyRateLimit(
  res: Response,
  result: Awaited<ReturnType<RateLimiter['hit']>>,
  logger: Logger,
) {
  if (result.error)
    logger.warn({ err: result.error }, 'rate limit counter unavailable; failing open');
  res.set(rateLimitHeaders(result));
  if (!result.allowed) {
    throw new HttpError(429, 'rate_limited', 'Too many requests; see the RateLimit headers.');
  }
}

async function authenticate(
  route: RouteDefinition,
  req: Request,
  res: Response,
  deps: RouteDeps,
  requestId: string,
): Promise<Identity> {
  const address = req.ip ?? 'unknown';
  const access = route.access;
  if (access.kind === 'public') {
    applyRateLimit(res, await deps.limiter.hit(deps.policies.public, `ip:${address}`), deps.logger);
    return none;
  }
  if (access.kind === 'applicant') {
    applyRateLimit(res, await deps.limiter.hit(deps.policies.public, `ip:${address}`), deps.logger);
    const secret = req.get('x-application-secret')?.trim();
    if (!secret) {
      const blocked = await deps.guard.failed(address);
      if (blocked) throw blocked;
      throw new HttpError(
        401,
        'application_secret_missing',
        'Send the application secret in `X-Application-Secret`.',
      );
    }
    return { ...none, applicationSecret: secret };
  }
  // The credential is checked before any failure budget: only failed attempts count against it.
  const authorization = req.get('authorization');
  if (access.kind === 'staff') {
    const verified = await deps.staff(authorization);
    if (!verified.ok) {
      const { failure } = verified;
      if (failure.status === 401) {
        const blocked = await deps.guard.failed(address);
        if (blocked) throw blocked;
      }
      throw new HttpError(failure.status, failure.code, failure.detail, {
        headers:
          failure.status === 401 ? { 'WWW-Authenticate': 'Bearer realm="handoff-staff"' } : {},
      });
    }
    applyRateLimit(
      res,
      await deps.limiter.hit(deps.policies.key, `staff:${verified.staff.sub}`),
      deps.logger,
    );
    return { ...none, staff: verified.staff };
  }
  if (access.kind === 'provider') {
    let provider: ProviderIdentity;
    try {
      provider = await deps.providers.verify(authorization, requestId);
    } catch (error) {
      if (error instanceof HttpError && error.status === 401) {
        const blocked = await deps.guard.failed(address, authorization);
        if (blocked) throw blocked;
      }
      throw fromBusError(error, 'not_found');
    }
    applyRateLimit(res, await deps.limiter.hit(deps.policies.key, provider.key_id), deps.logger);
    return { ...none, provider };
  }
  let agent: AgentIdentity;
  try {
    agent = await deps.keys.verify(authorization, requestId);
  } catch (error) {
    if (error instanceof HttpError && error.status === 401) {
      const blocked = await deps.guard.failed(address, authorization);
      if (blocked) throw blocked;
    }
    throw fromBusError(error, 'not_found');
  }
  applyRateLimit(res, await deps.limiter.hit(deps.policies.key, agent.key_id), deps.logger);
  const missing = access.scopes.filter((scope) => !agent.scopes.includes(scope));
  if (missing.length > 0) {
    throw new HttpError(
      403,
      'insufficient_scope',
      `This call needs the scope(s): ${access.scopes.join(', ')}.`,
      {
        extra: { required_scopes: access.scopes, missing_scopes: missing },
        headers: {
          'WWW-Authenticate': `Bearer realm="handoff", error="insufficient_scope", scope="${access.scopes.join(' ')}"`,
        },
      },
    );
  }
  return { ...none, agent };
}

interface Identity {
  agent: AgentIdentity | undefined;
  staff: StaffIdentity | undefined;
  provider: ProviderIdentity | undefined;
  applicationSecret: string | undefined;
}
const none: Identity = {
  agent: undefined,
  staff: undefined,
  provider: undefined,
  applicationSecret: undefined,
};

/** Idempotency keys are kept per integration (or staff member, applicant, client address). */
function idempotencyScope(identity: Identity, req: Request): string {
  if (identity.agent) return identity.agent.integration_id;
  if (identity.provider) return `provider:${identity.provider.provider_id}`;
  if (identity.staff) return `staff:${identity.staff.sub}`;
  if (identity.applicationSecret)
    return `applicant:${createHash('sha256').update(identity.applicationSecret).digest('hex')}`;
  return `ip:${req.ip ?? 'unknown'}`;
}

/**
 * Mounts routes in this order of checks: route, method, credentials, scope, request token
 * presence, content type and size, JSON, schema, then the handler (lookups and state checks
 * happen behind it). The token's presence comes before the body (issue 12): both credentials are
 * answered before anything about the body.
 */
export function mountRoutes(
  app: Express,
  routes: readonly RouteDefinition[],
  deps: RouteDeps,
): void {
  const methodsByPath = new Map<string, Set<string>>();
  for (const route of routes) {
    const path = expressPath(route.path);
    const methods = methodsByPath.get(path) ?? new Set<string>();
    methods.add(route.method.toUpperCase());
    if (route.method === 'get') methods.add('HEAD');
    methodsByPath.set(path, methods);

    app[route.method](path, async (req: Request, res: Response) => {
      const requestId = String(res.locals.requestId);
      let claim: IdempotencyClaim | undefined;
      try {
        const identity = await authenticate(route, req, res, deps, requestId);
        // A missing request token is a missing credential: answered before the body is read, so
        // a caller without it learns that first and not the body's faults.
        const requestToken = route.requestToken
          ? req.get('x-service-request-token')?.trim()
          : undefined;
        if (route.requestToken && !requestToken) {
          throw new HttpError(
            401,
            'request_token_missing',
            'Send the request token in `X-Service-Request-Token`.',
          );
        }
        const etag = route.headers?.ETag;
        if (etag && req.method === 'GET' && req.get('if-none-match') === etag) {
          res.set(route.headers).status(304).end();
          return;
        }
        let rawBody: unknown;
        let rawText: string | undefined;
        if (route.rawBody) {
          if (!req.is('application/json')) {
            throw new HttpError(
              415,
              'unsupported_media_type',
              'Send the body as `application/json`.',
            );
          }
          rawText = await readRawBody(req, res, route.rawBody.limitBytes);
        } else if (route.body) {
          if (declaresBody(req)) {
            if (!req.is('application/json')) {
              throw new HttpError(
                415,
                'unsupported_media_type',
                'Send the body as `application/json`.',
              );
            }
            rawBody = await readBody(req, res);
          } else if (route.bodyOptional) {
            rawBody = {};
          }
        }
        const params = parse(route.params, req.params, '/params');
        const query = parse(route.query, { ...(req.query as Record<string, unknown>) }, '/query');
        const body = route.body ? parse(route.body, rawBody, '') : undefined;
        const key =
          route.method === 'post' ? parseIdempotencyKey(req.get('idempotency-key')) : undefined;
        const scope = idempotencyScope(identity, req);
        const outcome =
          key === undefined
            ? undefined
            : await deps.idempotency.begin(
                scope,
                key,
                requestFingerprint(req.method, req.path, rawText ?? body),
              );
        if (outcome?.kind === 'replay' && key !== undefined) {
          if (route.headers) res.set(route.headers);
          res.set('Idempotent-Replayed', 'true').status(outcome.status);
          if (typeof outcome.body === 'string') res.json(openBody(key, scope, outcome.body));
          else res.end();
          return;
        }
        claim = outcome?.kind === 'proceed' ? outcome : undefined;
        const result = await route.handle({
          params,
          query,
          body,
          requestId,
          ...identity,
          requestToken,
          rawBody: rawText,
          header: (name) => req.get(name),
          call: (op, input) =>
            call(deps.nc, op, input, { timeoutMs: deps.busTimeoutMs, requestId }),
          authorizeRequest: (id) =>
            deps.requestTokens.check(
              id,
              identity.agent?.integration_id ?? '',
              requestToken ?? '',
              (request_id) =>
                call(
                  deps.nc,
                  requestOps.authorize,
                  { request_id },
                  { timeoutMs: deps.busTimeoutMs, requestId },
                ),
            ),
          res,
        });
        if (claim && key !== undefined) {
          // Recorded before answering, so an immediate retry is a replay and not a 409.
          await claim
            .complete(route.status, sealBody(key, scope, result))
            .catch((error: unknown) => {
              deps.logger.warn(
                { err: error, request_id: requestId },
                'idempotency record not stored',
              );
            });
        }
        if (route.headers) res.set(route.headers);
        res.status(route.status).json(result);
      } catch (error) {
        // A failed call changed nothing that a retry with the same key should not redo.
        await claim?.abandon().catch(() => undefined);
        const mapped = fromBusError(error, route.notFound ?? 'not_found');
        if (
          mapped instanceof HttpError &&
          route.access.kind === 'applicant' &&
          mapped.status === 404
        ) {
          // A wrong application secret is a failed authentication like a wrong key.
          const blocked = await deps.guard.failed(req.ip ?? 'unknown');
          return sendHttpError(res, blocked ?? mapped);
        }
        if (mapped instanceof HttpError) return sendHttpError(res, mapped);
        deps.logger.error(
          {
            err: mapped,
            request_id: requestId,
            route: route.operationId,
            bus: mapped instanceof BusError,
          },
          'route failed',
        );
        sendProblem(
          res,
          500,
          'internal_error',
          'An internal error occurred; it has been logged with the request id.',
        );
      }
    });
  }

  // A known path with another method: 405 with the methods it has.
  for (const [path, methods] of methodsByPath) {
    app.all(path, (_req: Request, res: Response, _next: NextFunction) => {
      const allowed = [...methods].sort();
      res.set('Allow', allowed.join(', '));
      sendProblem(res, 405, 'method_not_allowed', `Use ${allowed.join(', ')} on this path.`);
    });
  }
}
