import type {
  ConflictCode,
  ErrorCodeOf,
  NotFoundCode,
  Operation,
  RequestStatus,
  Scope,
} from '@handoff/contracts';
import type { Response } from 'express';
import type { z } from 'zod';
import type { AgentIdentity, ProviderIdentity } from '../auth/bearer-keys.ts';
import type { StaffIdentity } from '../auth/staff-jwt.ts';
import type { SessionIdentity } from '../auth/workspace-sessions.ts';

/** Who may call a route. Every route states it; there is no default. */
export type Access =
  /** Anyone, rate limited per client address (`sign_in`: the tighter budget of sign-in asks). */
  | { kind: 'public'; limit?: 'sign_in' }
  | { kind: 'applicant' }
  | { kind: 'agent'; scopes: readonly Scope[] }
  /**
   * An active provider: by its provider key (`hpk_live_...`), or signed in to the workspace (the
   * session cookie, with the session's CSRF token on every change).
   */
  | { kind: 'provider' }
  /** A provider signed in to the workspace, by its session cookie only (its own session's calls). */
  | { kind: 'workspace' }
  | { kind: 'staff' };

export type AccessKind = Access['kind'];

/** What the credentials of each access kind establish about the caller. */
export interface CallerOf {
  public: Record<never, never>;
  /** The raw `X-Application-Secret`; hash it before it leaves the gateway. */
  applicant: { applicationSecret: string };
  /** The calling integration. */
  agent: { agent: AgentIdentity };
  /**
   * The calling provider; `session` when it called through the workspace (its `key_id` is then
   * the session's id).
   */
  provider: { provider: ProviderIdentity; session?: SessionIdentity };
  /** The provider signed in to the workspace, and its session. */
  workspace: { provider: ProviderIdentity; session: SessionIdentity; sessionToken: string };
  /** The calling staff member. */
  staff: { staff: StaffIdentity };
}

/** The caller of one call, tagged with the access kind whose credentials it presented. */
export type Caller = { [K in AccessKind]: { kind: K } & CallerOf[K] }[AccessKind];

/** What every handler is given, whoever calls. */
export interface BaseContext<P = unknown, Q = unknown, B = unknown> {
  params: P;
  query: Q;
  body: B;
  callId: string;
  /** A header of the call (names are case-insensitive). */
  header(name: string): string | undefined;
  call<I extends z.ZodType, O extends z.ZodType>(
    op: Operation<I, O>,
    input: z.input<I>,
  ): Promise<z.output<O>>;
  res: Response;
}

/** Given to the handlers of routes with `requestToken: true` (agent routes only). */
export interface RequestTokenContext {
  /** The raw `X-Service-Request-Token`; hash it before use. */
  requestToken: string;
  /**
   * Checks that the calling integration owns request `id` and that the call's request token is
   * its token, without reading the request each time. Rejects with the bus's `not_found`
   * (unknown or another integration's) or `forbidden` (wrong token).
   */
  authorizeRequest(id: string): Promise<void>;
  /**
   * The request's status as this replica knows it: from its request cache while no event of the
   * request has been heard since it was read, else read from intake (see packages/runtime/src/request-cache.ts).
   */
  requestStatus(id: string): Promise<RequestStatus>;
  /** The agent's read of request `id`, from this replica's request cache or from `load`. */
  cachedRead<T>(id: string, load: () => Promise<T>): Promise<T>;
}

/** Given to the handlers of routes with `rawBody`. */
export interface RawBodyContext {
  /** The body exactly as it arrived, as UTF-8 text. */
  rawBody: string;
}

/**
 * A handler's context: the caller is what the route's access kind establishes, so an agent
 * route reads `ctx.agent`, a staff route `ctx.staff`, and neither can read the other's.
 */
export type RouteContext<
  K extends AccessKind = AccessKind,
  P = unknown,
  Q = unknown,
  B = unknown,
> = BaseContext<P, Q, B> & CallerOf[K];

/** A body passed on unparsed; see {@link RouteDefinition.rawBody}. */
export interface RawBody {
  limitBytes: number;
  schema: z.ZodType;
  description: string;
  badRequest: readonly ErrorCodeOf<400>[];
}

// Declared flags give their fields; a route of unknown kind (the route table) may have them.
type WithRequestToken<T extends boolean> = [T] extends [true]
  ? RequestTokenContext
  : [T] extends [false]
    ? unknown
    : Partial<RequestTokenContext>;
type WithRawBody<R extends RawBody | undefined> = [R] extends [RawBody]
  ? RawBodyContext
  : [R] extends [undefined]
    ? unknown
    : Partial<RawBodyContext>;

/**
 * A route as data. The type parameters are inferred from the declaration, so that the handler's
 * context has the caller of `access`, the outputs of the schemas and the fields of the flags;
 * `RouteDefinition` without them is any route, as the route table holds them.
 */
export interface RouteDefinition<
  A extends Access = Access,
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  T extends boolean = boolean,
  R extends RawBody | undefined = RawBody | undefined,
> {
  method: 'get' | 'post' | 'patch' | 'delete';
  /** OpenAPI-style path, e.g. `/v1/access-applications/{id}`. */
  path: string;
  operationId: string;
  summary: string;
  tags: readonly string[];
  access: A;
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
  rawBody?: R;
  /** Needs `X-Service-Request-Token` (checked for presence before any lookup); agent routes. */
  requestToken?: T;
  status: number;
  response: z.ZodType;
  /**
   * `false`: an `Idempotency-Key` is ignored, for a call whose answer does something a replay
   * could not do again (set a cookie).
   */
  idempotency?: false;
  /** Codes of the handler's own 401 answers beyond the access kind's (a refused sign-in link). */
  unauthorized?: readonly ErrorCodeOf<401>[];
  /** Codes of 409 answers of this route beyond the common ones (e.g. a limit reached). */
  conflicts?: readonly ConflictCode[];
  /** The `code` of a 404 when the resource is not found over the bus. */
  notFound?: NotFoundCode;
  /**
   * Further 404 codes the handler answers itself, e.g. `request_not_found` when the request a
   * nested resource hangs under is not the caller's (documented next to `notFound`).
   */
  notFoundAlso?: readonly NotFoundCode[];
  /** Request headers the handler reads (`ctx.header`), documented as header parameters. */
  requestHeaders?: readonly { name: string; description: string; required: boolean }[];
  /** Response headers added to every success (e.g. deprecation headers). */
  headers?: Record<string, string>;
  deprecated?: boolean;
  handle(
    ctx: RouteContext<A['kind'], z.output<P>, z.output<Q>, z.output<B>> &
      WithRequestToken<T> &
      WithRawBody<R>,
  ): Promise<unknown>;
}

/** Declares a route; its handler's context is inferred from `access`, the schemas and the flags. */
export function defineRoute<
  A extends Access,
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  T extends boolean = false,
  R extends RawBody | undefined = undefined,
>(route: RouteDefinition<A, P, Q, B, T, R>): RouteDefinition {
  return route;
}
