import { durationHistogram, type Attributes } from '@handoff/observability';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

const requestDuration = durationHistogram(
  'http.server.request.duration',
  'HTTP requests the gateway answered, from arrival to the last byte of the answer.',
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

/**
 * Names what answers this request by its template as declared (`/v1/request/{id}`), never the
 * path, so the `http.route` label has as many values as the code has routes.
 */
export function routeTaken(res: Response, template: string): void {
  res.locals.httpRoute = template;
}

/** Middleware naming every request it sees (a mount such as `/console`) with one template. */
export function taking(template: string): RequestHandler {
  return (_req, res, next) => {
    routeTaken(res, template);
    next();
  };
}

/**
 * Records `http.server.request.duration` once per request, when its answer is sent. The
 * listener is one shared function and the attribute sets are made once per route, method and
 * status, so a request costs the histogram's record and nothing more.
 */
export function httpServerMetrics(_req: Request, res: Response, next: NextFunction): void {
  res.locals.httpStartedMs = performance.now();
  res.on('finish', recordFinished);
  next();
}

function recordFinished(this: Response): void {
  const route: unknown = this.locals.httpRoute;
  const started: unknown = this.locals.httpStartedMs;
  if (typeof started !== 'number') return;
  const attributes = attributesOf(
    typeof route === 'string' ? route : UNMATCHED_ROUTE,
    this.req.method,
    this.statusCode,
  );
  requestDuration().record((performance.now() - started) / 1000, attributes);
}

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
