import type { RouteDefinition } from '../route.ts';
import type { Exchange } from './exchange.ts';

/** Whether a GET is answered 304: its `If-None-Match` names the route's fixed `ETag`. */
export function notModified(route: Pick<RouteDefinition, 'headers'>, exchange: Exchange): boolean {
  const etag = route.headers?.ETag;
  if (!etag) return false;
  return exchange.method === 'GET' && exchange.header('if-none-match') === etag;
}
