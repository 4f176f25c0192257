// `http.server.request.duration`, OpenTelemetry's HTTP server metric, for every HTTP server of a
// process: the gateway's API and every health port. One instrument, so both count in one family.
import type { Attributes } from '@opentelemetry/api';
import { durationHistogram } from './metrics.ts';

const requestDuration = durationHistogram(
  'http.server.request.duration',
  'HTTP requests answered, from arrival to the last byte of the answer.',
);

/** The `http.route` of a request that no route took: a fixed value, never its path. */
export const UNMATCHED_ROUTE = 'unmatched';

/** OpenTelemetry's list; any other method is `_OTHER`, so a client cannot add label values. */
const METHODS = new Set([
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'OPTIONS',
  'CONNECT',
  'TRACE',
]);

/** Attribute sets, made once per route, method and status: a request costs only its record. */
const attributeSets = new Map<string, Map<string, Map<number, Attributes>>>();

function attributesOf(route: string, method: string, status: number): Attributes {
  let byMethod = attributeSets.get(route);
  if (byMethod === undefined) {
    byMethod = new Map();
    attributeSets.set(route, byMethod);
  }
  const known = METHODS.has(method) ? method : '_OTHER';
  let byStatus = byMethod.get(known);
  if (byStatus === undefined) {
    byStatus = new Map();
    byMethod.set(known, byStatus);
  }
  let attributes = byStatus.get(status);
  if (attributes === undefined) {
    attributes = {
      'http.request.method': known,
      'http.route': route,
      'http.response.status_code': status,
    };
    byStatus.set(status, attributes);
  }
  return attributes;
}

/**
 * Records one answered request. `route` is the template that took it as declared in code
 * (`/v1/request/{id}`), or {@link UNMATCHED_ROUTE}: never a path.
 */
export function recordHttpServerRequest(
  route: string,
  method: string,
  status: number,
  seconds: number,
): void {
  requestDuration().record(seconds, attributesOf(route, method, status));
}
