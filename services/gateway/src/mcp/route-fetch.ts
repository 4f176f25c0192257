import { BODY_LIMIT_BYTES } from '@handoff/contracts';
import type { Response as ExpressResponse } from 'express';
import type { AgentIdentity } from '../auth/bearer-keys.ts';
import { parseIdempotencyKey } from '../idempotency.ts';
import { HttpError } from '../http/errors.ts';
import { parseJson } from '../http/pipeline/body.ts';
import type { CallDeps } from '../http/pipeline/call.ts';
import { notModified } from '../http/pipeline/conditional-get.ts';
import { failureAnswer, type ErrorDeps } from '../http/pipeline/errors.ts';
import type { Exchange } from '../http/pipeline/exchange.ts';
import { requireScopes } from '../http/pipeline/authenticate.ts';
import { withLivemode } from '../http/pipeline/livemode.ts';
import { requestTokenOf } from '../http/pipeline/request-token.ts';
import { runRoute } from '../http/pipeline/run-route.ts';
import { problemBody } from '../http/problem.ts';
import type { Caller, RouteDefinition, UploadSource } from '../http/route.ts';
import { uploadSource } from '../http/pipeline/upload.ts';
import { agentRouteTable } from './route-table.ts';

export type Fetch = (request: Request) => Promise<Response>;

/** The caller the outer door verified (and counted against its rate limit), and its exchange. */
export interface OuterCall {
  agent: AgentIdentity;
  exchange: Exchange;
  res: ExpressResponse;
}

const JSON_TYPE = /^application\/json\s*(;|$)/i;

function problemResponse(error: HttpError, callId: string, headers: Record<string, string>) {
  const body = problemBody(error.code, error.message, callId, error.extra);
  return new Response(JSON.stringify(body), {
    status: body.status,
    headers: {
      ...headers,
      ...error.headers,
      'Content-Type': 'application/problem+json; charset=utf-8',
    },
  });
}

/** The JSON body a route takes, checked as the HTTP pipeline checks it (media type, size, JSON). */
async function bodyOf(route: RouteDefinition, request: Request): Promise<unknown> {
  if (route.rawBody) throw new Error(`${route.operationId} is not served in process`);
  if (!route.body) return undefined;
  const bytes = request.body === null ? undefined : new Uint8Array(await request.arrayBuffer());
  if (bytes === undefined || bytes.byteLength === 0) {
    return route.bodyOptional ? {} : undefined;
  }
  if (!JSON_TYPE.test(request.headers.get('content-type') ?? '')) {
    throw new HttpError('unsupported_media_type', 'Send the body as `application/json`.');
  }
  if (bytes.byteLength > BODY_LIMIT_BYTES) {
    throw new HttpError('payload_too_large', `The body is over ${BODY_LIMIT_BYTES} bytes.`);
  }
  return parseJson(new TextDecoder().decode(bytes));
}

/** An upload's body as the route streams it, from the in-process request's own stream. */
function uploadOf(request: Request): UploadSource {
  return uploadSource(chunksOf(request.body), (name) => request.headers.get(name) ?? undefined);
}

/** A web stream's chunks as they come (read through its reader: every DOM library types it). */
async function* chunksOf(body: ReadableStream<Uint8Array> | null): AsyncIterable<Uint8Array> {
  if (body === null) return;
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

/** A query string as Express's simple parser reads it: a repeated name is an array. */
function queryOf(url: URL): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const name of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(name);
    query[name] = values.length === 1 ? (values[0] ?? '') : values;
  }
  return query;
}

/**
 * The agent API as a `fetch` that never leaves the process, for a door that has verified the
 * caller's key and counted the call against its rate limit (the gateway's /mcp): each request
 * runs its route's stages as `mountRoutes` does after authentication (scope, request token,
 * media type and size, JSON, schemas and body checks, the token against the request, the
 * handler), and is answered as over HTTP: the status, the route's headers, the body with the
 * agent's `livemode`, or the problem. So a tool's result is what it was over loopback HTTP,
 * without a second exchange, key check and rate-limit count.
 *
 * An `Idempotency-Key` is checked but not kept: in process, the only caller that holds the key
 * is the client that made it, and it repeats a call only after an answer that is never kept (a
 * 5xx, a 409 `idempotency_key_in_use`); no answer is lost on the way back, so there is nothing
 * a stored one would replay.
 */
export function routeFetch(routes: readonly RouteDefinition[], deps: CallDeps & ErrorDeps) {
  const match = agentRouteTable(routes);
  return ({ agent, exchange: outer, res }: OuterCall): Fetch =>
    async (request) => {
      const url = new URL(request.url);
      const added: Record<string, string> = {};
      const exchange: Exchange = {
        callId: outer.callId,
        address: outer.address,
        method: request.method,
        path: url.pathname,
        origin: outer.origin,
        secure: outer.secure,
        header: (name) => request.headers.get(name) ?? undefined,
        setHeaders: (headers) => Object.assign(added, headers),
      };
      let found: ReturnType<typeof match>;
      try {
        found = match(request.method, url.pathname);
      } catch (error) {
        if (!(error instanceof URIError)) throw error;
        found = { kind: 'not_found' };
      }
      if (found.kind === 'not_found') {
        const detail = `No route matches ${request.method} ${url.pathname}.`;
        return problemResponse(new HttpError('not_found', detail), outer.callId, added);
      }
      if (found.kind === 'method_not_allowed') {
        const allowed = found.allowed.join(', ');
        const error = new HttpError('method_not_allowed', `Use ${allowed} on this path.`, {
          headers: { Allow: allowed },
        });
        return problemResponse(error, outer.callId, added);
      }
      const { route } = found.entry;
      try {
        let caller: Caller = { kind: 'public' };
        if (route.access.kind === 'agent') {
          requireScopes(route.access.scopes, agent.scopes);
          caller = { kind: 'agent', agent };
        }
        const token = requestTokenOf(route, exchange);
        if (notModified(route, exchange)) {
          return new Response(null, { status: 304, headers: { ...added, ...route.headers } });
        }
        const body = await bodyOf(route, request);
        if (route.method === 'post' && route.idempotency !== false) {
          parseIdempotencyKey(exchange.header('idempotency-key'));
        }
        const upload = route.upload ? uploadOf(request) : undefined;
        const input = { params: found.params, query: queryOf(url), body, token, upload };
        const answer = await runRoute(found.entry, { caller, exchange, res }, input, deps);
        const sent = caller.kind === 'agent' ? withLivemode(answer, agent.livemode) : answer;
        return new Response(sent === undefined ? null : JSON.stringify(sent), {
          status: route.status,
          headers: {
            ...added,
            ...route.headers,
            'Content-Type': 'application/json; charset=utf-8',
          },
        });
      } catch (error) {
        return problemResponse(
          await failureAnswer(error, route, exchange, deps),
          outer.callId,
          added,
        );
      }
    };
}
