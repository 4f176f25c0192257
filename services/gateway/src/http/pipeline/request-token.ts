import { REQUEST_TOKEN_HEADER, requestOps } from '@handoff/contracts';
import { digestsEqual, sha256Hex, type RequestCache, type RequestOwner } from '@handoff/runtime';
import { HttpError } from '../errors.ts';
import { refuseClosed } from '../request-closed.ts';
import { requestIdParams } from '../request-id.ts';
import type {
  BaseContext,
  Caller,
  OpenRequest,
  RequestNeed,
  RouteDefinition,
  VerifiedRequest,
} from '../route.ts';
import type { RequestViews } from '../../views/store.ts';
import type { Exchange } from './exchange.ts';

/**
 * The call's request token, on routes that take one. A missing token is a missing credential:
 * answered before the body is read, so a caller without it learns that first and not the body's
 * faults (issue 12).
 */
export function requestTokenOf(
  route: Pick<RouteDefinition, 'requestToken'>,
  exchange: Exchange,
): string | undefined {
  if (!route.requestToken) return undefined;
  const token = exchange.header(REQUEST_TOKEN_HEADER)?.trim();
  if (!token) {
    throw new HttpError(
      'request_token_missing',
      `Send the request token in \`${REQUEST_TOKEN_HEADER}\`.`,
    );
  }
  return token;
}

/** What a route needs of its request's token, and the parameter that names the request. */
export interface TokenRoute {
  need: RequestNeed;
  param: string;
}

/**
 * What `route` needs of a request token, checked once when it is mounted: a route about a
 * request (a `RequestId` parameter, or an agent's path under `/v1/request/{...}`) says
 * what it needs, and only an agent route with one such parameter may.
 */
export function tokenRouteOf(route: RouteDefinition): TokenRoute | undefined {
  const named = requestIdParams(route.params);
  const fault = (why: string) => new Error(`${route.operationId}: ${why}`);
  if (route.requestToken === undefined) {
    if (named.length > 0) throw fault('a route with a RequestId parameter declares requestToken');
    if (route.access.kind === 'agent' && route.path.startsWith('/v1/request/{')) {
      throw fault("an agent's route under a request declares requestToken");
    }
    return undefined;
  }
  // Only an agent's integration can own the request a token belongs to.
  if (route.access.kind !== 'agent') throw fault('only agent routes take a request token');
  const [param, ...more] = named;
  if (param === undefined || more.length > 0) {
    throw fault('a route with requestToken has one RequestId parameter');
  }
  return { need: route.requestToken, param };
}

/** The call a request token is checked for. */
export interface TokenCall {
  /** The validated params, which hold the request id under the route's parameter. */
  params: unknown;
  caller: Caller;
  token: string;
  /** The call's bus calls (its call id and timeout). */
  call: BaseContext['call'];
  /** The replica's request cache: owners and statuses. */
  requests: RequestCache;
  /** The agents' read model: owners, and reads that miss the cache. */
  views?: RequestViews | undefined;
}

/**
 * The request a route is about, verified before its handler runs: the calling integration owns
 * it and the token is its token (`owner`), and it is not closed (`open`). An unknown or foreign
 * request is 404 `request_not_found` (the same answer: no existence oracle), a wrong token 403
 * `request_token_invalid`, a closed request 409 `request_closed`. The token is compared here
 * only, against the SHA-256 that the request cache holds: no service checks it again.
 */
export async function verifyRequest(
  route: TokenRoute,
  check: TokenCall,
): Promise<VerifiedRequest | OpenRequest> {
  const id = requestIdOf(check.params, route.param);
  const { requests, views } = check;
  const reads = (owner: RequestOwner): VerifiedRequest => ({
    id,
    view: (load) => requests.view(id, views ? () => views.detail(id, owner, load) : load),
  });
  if (route.need === 'owner') return reads(await checkOwner(id, check));
  // The status is asked beside the owner; the owner's answer is looked at first, so a caller
  // without access learns nothing of the state.
  const [access, current] = await Promise.allSettled([
    checkOwner(id, check),
    requests.status(
      id,
      async () => (await check.call(requestOps.status, { request_id: id })).status,
    ),
  ]);
  if (access.status === 'rejected') throw access.reason;
  if (current.status === 'rejected') throw current.reason;
  refuseClosed(current.value);
  return { ...reads(access.value), status: current.value };
}

function requestIdOf(params: unknown, name: string): string {
  const id: unknown =
    typeof params === 'object' && params !== null ? Reflect.get(params, name) : undefined;
  if (typeof id !== 'string') throw new Error(`{${name}} is validated as a RequestId`);
  return id;
}

const NO_SUCH_REQUEST = 'No such request.';

/** The owner and token hash never change, so the replica keeps them once read. */
async function checkOwner(
  requestId: string,
  { caller, token, call, requests, views }: TokenCall,
): Promise<RequestOwner> {
  if (caller.kind !== 'agent') throw new Error('only an agent route takes a request token');
  // From the request's view when it has one; else an unknown request comes back from intake as
  // `request_not_found`, passed through as it is.
  const owner = await requests.owner(
    requestId,
    async () =>
      (await views?.owner(requestId)) ?? call(requestOps.authorize, { request_id: requestId }),
  );
  if (owner.integration_id !== caller.agent.integration_id) {
    throw new HttpError('request_not_found', NO_SUCH_REQUEST);
  }
  if (!digestsEqual(owner.token_hash, sha256Hex(token))) {
    throw new HttpError('request_token_invalid', 'The request token does not match this request.');
  }
  return owner;
}
