import { recordHttpServerRequest, UNMATCHED_ROUTE } from '@handoff/observability';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

export { UNMATCHED_ROUTE } from '@handoff/observability';

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
 * listener is one shared function, so a request costs the histogram's record and nothing more.
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
  recordHttpServerRequest(
    typeof route === 'string' ? route : UNMATCHED_ROUTE,
    this.req.method,
    this.statusCode,
    (performance.now() - started) / 1000,
  );
}
