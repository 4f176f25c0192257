import type { Logger } from '@handoff/observability';
import type { NatsConnection } from '@nats-io/transport-node';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { ReadinessCheck } from '../readiness.ts';
import { closeWhenBodyUnread } from './body.ts';
import { requestDeadlines } from './deadlines.ts';
import { webAppRouter } from './web-apps.ts';
import { requestContext } from './context.ts';
import { sendProblem } from './problem.ts';
import { httpServerMetrics, routeTaken, taking, UNMATCHED_ROUTE } from './metrics.ts';
import { mountRoutes, type RouteDeps } from './pipeline/mount.ts';
import type { RouteDefinition } from './route.ts';
import { securityHeaders } from './security-headers.ts';

export interface AppDeps extends RouteDeps {
  nc: NatsConnection;
  logger: Logger;
  /** Not ready once shutdown has begun, so load balancers stop sending traffic. */
  readiness: ReadinessCheck;
  /** Express `trust proxy`: no proxy, a hop count, or the proxies' addresses. */
  trustProxy: false | number | string[];
  /** How long a request may take to arrive (an upload: may stall); see `requestDeadlines`. */
  requestTimeoutMs?: number;
  routes: readonly RouteDefinition[];
  /** The pages for people at `/docs` (API reference, problem codes), outside the route table. */
  docs?: express.Router;
  /** Handlers outside the route table (the MCP endpoint), mounted before the routes' 404. */
  mounts?: readonly { path: string; handle: (req: Request, res: Response) => Promise<void> }[];
  /** Routers outside the route table (the A2A binding), mounted before the routes' 404. */
  routers?: readonly express.Router[];
  /** The staff console's build (apps/console/dist unless given); see {@link webAppRouter}. */
  consoleDir?: string;
  /** The providers' workspace's build (apps/workspace/dist unless given). */
  workspaceDir?: string;
}

export function createApp(deps: AppDeps): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', deps.trustProxy);
  app.use(httpServerMetrics);
  app.use(securityHeaders);
  app.use(closeWhenBodyUnread);
  if (deps.requestTimeoutMs !== undefined) {
    app.use(requestDeadlines(deps.routes, { requestMs: deps.requestTimeoutMs }));
  }
  app.use(requestContext(deps.logger));

  app.get('/healthz', (_req, res) => {
    routeTaken(res, '/healthz');
    res.json({ status: 'ok' });
  });

  // Ready or not, and nothing more: the details are for staff (`GET /v1/staff/health`).
  app.get('/readyz', async (_req, res) => {
    routeTaken(res, '/readyz');
    const { status } = await deps.readiness(String(res.locals.callId));
    res.status(status === 'ready' ? 200 : 503).json({ status });
  });
  for (const path of ['/healthz', '/readyz']) {
    app.all(path, (_req: Request, res: Response) => {
      routeTaken(res, path);
      res.set('Allow', 'GET, HEAD');
      sendProblem(res, 'method_not_allowed', 'Use GET, HEAD on this path.');
    });
  }

  // The staff console: static files with a CSP of their own; it calls /v1/staff/* like any client.
  app.use('/console', taking('/console/*'), webAppRouter('console', deps.consoleDir));
  // The providers' workspace likewise, over /v1/provider/* and /v1/workspace/* with its session.
  app.use('/workspace', taking('/workspace/*'), webAppRouter('workspace', deps.workspaceDir));

  if (deps.docs) app.use('/docs', taking('/docs/*'), deps.docs);
  mountRoutes(app, deps.routes, deps);
  for (const mount of deps.mounts ?? []) {
    app.all(mount.path, (req: Request, res: Response, next: NextFunction) => {
      routeTaken(res, mount.path);
      mount.handle(req, res).catch(next);
    });
  }
  for (const router of deps.routers ?? []) app.use(router);

  app.use((req: Request, res: Response) => {
    routeTaken(res, UNMATCHED_ROUTE);
    sendProblem(res, 'not_found', `No route matches ${req.method} ${req.path}.`);
  });

  // Express recognises an error handler by its four parameters.
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    // The router could not percent-decode a path segment: no route can match such a path.
    if (error instanceof URIError && !res.headersSent) {
      sendProblem(res, 'not_found', `No route matches ${req.method} ${req.path}.`);
      return;
    }
    deps.logger.error(
      { err: error, call_id: res.locals.callId, path: req.path },
      'unhandled error',
    );
    if (res.headersSent) return;
    sendProblem(
      res,
      'internal_error',
      'An internal error occurred; it has been logged with the request id.',
    );
  });

  return app;
}
