import type {
  ConflictCode,
  ErrorCodeOf,
  NotFoundCode,
  Operation,
  RequestStatus,
  Scope,
} from '@handoff/contracts';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Response } from 'express';
import type { z } from 'zod';
import type { AgentIdentity, ProviderIdentity } from '../auth/bearer-keys.ts';
import type { StaffIdentity } from '../auth/staff-jwt.ts';
import type { SessionIdentity } from '../auth/workspace-sessions.ts';
import type { Detail, RequestViews } from '../views/store.ts';
import type { RequestId } from './request-id.ts';

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
  /** This gateway's origin as the client called it (`https://host`, behind the trusted proxies). */
  origin: string;
  /** A header of the call (names are case-insensitive). */
  header(name: string): string | undefined;
  call<I extends z.ZodType, O extends z.ZodType>(
    op: Operation<I, O>,
    input: z.input<I>,
  ): Promise<z.output<O>>;
  /** The bus as `call` uses it, for byte operations (a file's chunks): its own timeout and call id. */
  bus: { nc: NatsConnection; timeoutMs: number; callId: string };
  /** The agents' read model: a new request's view starts from its create's answer. */
  views?: Pick<RequestViews, 'begin'>;
  res: Response;
}

/**
 * What a route needs of the request it is about (its {@link RequestId} parameter), checked by the
 * pipeline before the handler runs: `owner`, the calling integration owns the request and the
 * call's `X-Service-Request-Token` is its token; `open`, that and the request is not closed.
 */
export type RequestNeed = 'owner' | 'open';

/** The request a route with `requestToken` is about, as the pipeline verified it. */
export interface VerifiedRequest {
  /** The calling integration owns it, and the call's request token is its token. */
  id: string;
  /**
   * The agent's read of this request, from this replica's request cache or from `load`: current
   * until the request's next event (see packages/runtime/src/request-cache.ts).
   */
  view(load: () => Promise<Detail>): Promise<Detail>;
}

/** A verified request that is open, for the actions a closed request refuses. */
export interface OpenRequest extends VerifiedRequest {
  /** Its status as this replica knows it (from its request cache), never a closed one. */
  status: RequestStatus;
}

export type RequestOf<T extends RequestNeed> = T extends 'open' ? OpenRequest : VerifiedRequest;

/** Given to the handlers of routes with `requestToken`. */
export interface RequestContext<T extends RequestNeed = RequestNeed> {
  request: RequestOf<T>;
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

/** The bytes of a file upload, as they stream in; see {@link RouteDefinition.upload}. */
export interface UploadSource {
  /** The body, read as the handler pulls it: never whole in memory. */
  stream: AsyncIterable<Uint8Array>;
  /** The declared `Content-Length`; undefined for a chunked body. */
  length: number | undefined;
  /** The declared media type: the `Content-Type` lower-cased without parameters, '' if none. */
  type: string;
}

/** Given to the handlers of routes with `upload`. */
export interface UploadContext {
  upload: UploadSource;
}

/** A body passed on unparsed; see {@link RouteDefinition.rawBody}. */
export interface RawBody {
  limitBytes: number;
  schema: z.ZodType;
  description: string;
  badRequest: readonly ErrorCodeOf<400>[];
}

// Declared flags give their fields; a route of unknown kind (the route table) may have them.
type WithRequest<T extends RequestNeed | undefined> = [T] extends [RequestNeed]
  ? RequestContext<T>
  : [T] extends [undefined]
    ? unknown
    : Partial<RequestContext>;
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
  T extends RequestNeed | undefined = RequestNeed | undefined,
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
  /**
   * The body is a file's bytes, of any media type, streamed to the handler (`ctx.upload`) rather
   * than read by the pipeline; `description` documents it. The idempotency fingerprint covers the
   * query, the declared type and length, not the bytes (a replay does not read them again).
   */
  upload?: { description: string };
  /**
   * The handler answers itself with bytes (`ctx.res`), e.g. a file's download: the pipeline
   * sends nothing after it. `description` documents the answer, `headers` its headers.
   */
  download?: { description: string; headers: Record<string, string> };
  /**
   * What the route needs of the request its {@link RequestId} parameter names (agent routes):
   * the token's presence is checked before the body, the owner, token and state after the
   * schemas, and the handler gets `ctx.request`. A route with a `RequestId` parameter must say.
   */
  requestToken?: T;
  status: number;
  response: z.ZodType;
  /**
   * `false`: an `Idempotency-Key` is ignored, for a call whose answer does something a replay
   * could not do again (set a cookie).
   */
  idempotency?: false;
  /** Codes of the handler's own 403 answers beyond the access kind's (a refused download URL). */
  forbidden?: readonly ErrorCodeOf<403>[];
  /** Codes of the handler's own 401 answers beyond the access kind's (a refused sign-in link). */
  unauthorized?: readonly ErrorCodeOf<401>[];
  /** Codes of 409 answers of this route beyond the common ones (e.g. a limit reached). */
  conflicts?: readonly ConflictCode[];
  /**
   * The 404 codes the route answers with, for its OpenAPI document: the resource's, and e.g.
   * `request_not_found` when the request a nested resource hangs under is not the caller's. The
   * services name what is missing; nothing is renamed on the way.
   */
  notFound?: readonly NotFoundCode[];
  /** Request headers the handler reads (`ctx.header`), documented as header parameters. */
  requestHeaders?: readonly { name: string; description: string; required: boolean }[];
  /** Response headers added to every success (e.g. deprecation headers). */
  headers?: Record<string, string>;
  deprecated?: boolean;
  /**
   * Checks of the body beyond its schema (an amount's precision in its currency), answered with
   * the schema's 422 before any lookup, the request token's included.
   */
  checkBody?(body: z.output<B>): void;
  handle(
    ctx: RouteContext<A['kind'], z.output<P>, z.output<Q>, z.output<B>> &
      WithRequest<T> &
      WithRawBody<R> &
      Partial<UploadContext>,
  ): Promise<unknown>;
}

/**
 * The names of the {@link RequestId} parameters of a params schema, by the schemas of its named
 * keys (one built with a computed key, `child(key)`, has an index signature beside them).
 */
type RequestIdKeys<P extends z.ZodType> =
  P extends z.ZodObject<infer Shape, z.core.$ZodObjectConfig>
    ? keyof {
        [
          K in keyof Shape as string extends K
            ? never
            : Shape[K] extends typeof RequestId
              ? K
              : never
        ]: unknown;
      }
    : never;

/** How a route that breaks the rule below is told (an object, so that no type collapses). */
interface RuleBroken<Why extends string> {
  broken: Why;
}

/**
 * A route about a request (one {@link RequestId} parameter) says what it needs of the token, and
 * only such a route, of an agent, may: a route that forgets does not compile, rather than
 * answering without the check.
 */
type RequestTokenRule<A extends Access, P extends z.ZodType, T> = [RequestIdKeys<P>] extends [never]
  ? [T] extends [undefined]
    ? unknown
    : { requestToken: RuleBroken<'requestToken needs a RequestId path parameter'> }
  : [T] extends [RequestNeed]
    ? A['kind'] extends 'agent'
      ? unknown
      : { requestToken: RuleBroken<'only an agent route takes a request token'> }
    : {
        requestTokenMissing: RuleBroken<'a route with a RequestId parameter declares requestToken'>;
      };

/** Declares a route; its handler's context is inferred from `access`, the schemas and the flags. */
export function defineRoute<
  A extends Access,
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  T extends RequestNeed | undefined = undefined,
  R extends RawBody | undefined = undefined,
>(route: RouteDefinition<A, P, Q, B, T, R> & RequestTokenRule<A, P, T>): RouteDefinition {
  return route;
}
