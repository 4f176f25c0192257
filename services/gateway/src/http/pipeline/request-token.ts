import { REQUEST_TOKEN_HEADER } from '@handoff/contracts';
import { HttpError } from '../errors.ts';
import type { RouteDefinition } from '../route.ts';
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
