import type { Logger } from '@handoff/observability';
import type { NatsConnection } from '@nats-io/transport-node';
import express, { type NextFunction, type Request, type Response } from 'express';
import { checkReadiness } from '../readiness.ts';
import { requestContext } from './context.ts';
import { sendProblem } from './problem.ts';
import { mountRoutes, type RouteDefinition, type RouteDeps } from './route.ts';
import { securityHeaders } from './security-headers.ts';

export interface AppDeps extends RouteDeps {
  nc: NatsConnection;
  logger: Logger;
  readinessTimeoutMs: number;
  trustProxy: boolean;
  routes: readonly RouteDefinition[];
  /** False once shutdown has begun, so load balancers stop sending traffic. */
  isAccepting: () => boolean;
}

export function createApp(deps: AppDeps): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', deps.trustProxy);
  app.use(securityHeaders);
  app.use(requestContext(deps.logger));

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });

  app.get('/readyz', async (_req, res) => {
    const report = await checkReadiness(
      deps.nc,
      deps.readinessTimeoutMs,
      String(res.locals.requestId),
    );
    const ready = report.status === 'ready' && deps.isAccepting() && !deps.nc.isClosed();
    if (!ready) report.status = 'not_ready';
    res.status(ready ? 200 : 503).json(report);
  });
  for (const path of ['/healthz', '/readyz']) {
    app.all(path, (_req: Request, res: Response) => {
      res.set('Allow', 'GET, HEAD');
      sendProblem(res, 405, 'method_not_allowed', 'Use GET, HEAD on this path.');
    });
  }

  mountRoutes(app, deps.routes, deps);

  app.use((req: Request, res: Response) => {
    sendProblem(res, 404, 'not_found', `No route matches ${req.method} ${req.path}.`);
  });

  // Express recognises an error handler by its four parameters.
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    // The router could not percent-decode a path segment: no route can match such a path.
    if (error instanceof URIError && !res.headersSent) {
      sendProblem(res, 404, 'not_found', `No route matches ${req.method} ${req.path}.`);
      return;
    }
    deps.logger.error(
      { err: error, request_id: res.locals.requestId, path: req.path },
      'unhandled error',
    );
    if (res.headersSent) return;
    sendProblem(
      res,
      500,
      'internal_error',
      'An internal error occurred; it has been logged with the request id.',
    );
  });

  return app;
}
