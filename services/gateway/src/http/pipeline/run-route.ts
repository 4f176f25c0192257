import type { Response } from 'express';
import type { Caller, RouteDefinition, UploadSource } from '../route.ts';
import { handlerContext, type CallDeps } from './call.ts';
import type { Exchange } from './exchange.ts';
import { verifyRequest, type TokenRoute } from './request-token.ts';
import { validateInput, type Input } from './schema.ts';

/** A route with what it needs of a request token, worked out once when the table is built. */
export interface RouteEntry {
  route: RouteDefinition;
  token: TokenRoute | undefined;
}

/** A call made in this process by a door that already knows its caller (A2A, MCP). */
export interface InProcessCall {
  caller: Caller;
  exchange: Exchange;
  /** The outer exchange's answer: a long-poll stops when its client goes away. */
  res: Response;
}

/**
 * The stages of a route after its caller, scope and body are established, as `mountRoutes` runs
 * them: the schemas and the body's own checks, the request token against the request (owner,
 * token, open), then the handler with the call's id and bus timeout. Its answer is the handler's.
 */
export async function runRoute(
  { route, token: tokenRoute }: RouteEntry,
  call: InProcessCall,
  input: Input & { token?: string | undefined; upload?: UploadSource | undefined },
  deps: CallDeps,
): Promise<unknown> {
  const valid = validateInput(route, input);
  route.checkBody?.(valid.body);
  const { caller, exchange, res } = call;
  const ctx = handlerContext(
    { ...valid, caller, rawBody: undefined, upload: input.upload },
    exchange,
    res,
    deps,
  );
  if (tokenRoute === undefined) return route.handle(ctx);
  if (input.token === undefined) throw new Error(`${route.operationId} needs the request token`);
  const request = await verifyRequest(tokenRoute, {
    params: valid.params,
    caller,
    token: input.token,
    call: ctx.call,
    requests: deps.requests,
    views: deps.views,
  });
  return route.handle({ ...ctx, request });
}
