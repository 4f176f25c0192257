import type { Express, NextFunction, Request, Response } from 'express';
import {
  parseIdempotencyKey,
  requestFingerprint,
  type IdempotencyStore,
} from '../../idempotency.ts';
import { routeTaken } from '../metrics.ts';
import { sendHttpError, sendProblem } from '../problem.ts';
import type { RouteDefinition } from '../route.ts';
import { authenticate, type AuthDeps } from './authenticate.ts';
import { readBody, type ReadBody } from './body.ts';
import { uploadFingerprint, uploadSourceOf } from './upload.ts';
import { handlerContext, type CallDeps } from './call.ts';
import { notModified } from './conditional-get.ts';
import { failureAnswer } from './errors.ts';
import { exchangeOf } from './exchange.ts';
import { idempotencyScope, idempotent, operationOf } from './idempotency.ts';
import { requestTokenOf, tokenRouteOf, verifyRequest, type TokenRoute } from './request-token.ts';
import { validateInput } from './schema.ts';
import { withLivemode } from './livemode.ts';

export interface RouteDeps extends AuthDeps, CallDeps {
  idempotency: IdempotencyStore;
}

/** An upload's body is not read by the pipeline: its handler streams it. */
const UNREAD: ReadBody = { json: undefined, raw: undefined };

const expressPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/**
 * Mounts routes, each call going through the stages in this order of checks: route, method,
 * credentials, scope, request token presence, content type and size, JSON, schema and the body's
 * own checks, the request token against the request (owner, token, open), then the handler
 * (further lookups and state checks happen behind it). The token's presence comes before the
 * body (issue 12): both credentials are answered before anything about the body.
 */
export function mountRoutes(
  app: Express,
  routes: readonly RouteDefinition[],
  deps: RouteDeps,
): void {
  // Keyed by Express's path, which two templates naming their parameters differently share.
  const methodsByPath = new Map<string, { template: string; methods: Set<string> }>();
  for (const route of routes) {
    const tokenRoute = tokenRouteOf(route);
    const path = expressPath(route.path);
    const known = methodsByPath.get(path) ?? { template: route.path, methods: new Set<string>() };
    known.methods.add(route.method.toUpperCase());
    if (route.method === 'get') known.methods.add('HEAD');
    methodsByPath.set(path, known);
    app[route.method](path, (req: Request, res: Response) => {
      routeTaken(res, route.path);
      return serve({ route, tokenRoute }, req, res, deps);
    });
  }

  // A known path with another method: 405 with the methods it has.
  for (const [path, { template, methods }] of methodsByPath) {
    app.all(path, (_req: Request, res: Response, _next: NextFunction) => {
      routeTaken(res, template);
      const allowed = [...methods].sort();
      res.set('Allow', allowed.join(', '));
      sendProblem(res, 'method_not_allowed', `Use ${allowed.join(', ')} on this path.`);
    });
  }
}

async function serve(
  { route, tokenRoute }: { route: RouteDefinition; tokenRoute: TokenRoute | undefined },
  req: Request,
  res: Response,
  deps: RouteDeps,
): Promise<void> {
  const exchange = exchangeOf(req, res);
  try {
    const caller = await authenticate(route.access, exchange, deps);
    const requestToken = requestTokenOf(route, exchange);
    if (notModified(route, exchange)) {
      res.set(route.headers).status(304).end();
      return;
    }
    const body = route.upload ? UNREAD : await readBody(route, req, res);
    const upload = route.upload ? uploadSourceOf(req, res) : undefined;
    const input = validateInput(route, {
      params: req.params,
      query: { ...req.query },
      body: body.json,
    });
    route.checkBody?.(input.body);
    const key =
      route.method === 'post' && route.idempotency !== false
        ? parseIdempotencyKey(exchange.header('idempotency-key'))
        : undefined;
    // The caller is the one `authenticate` established for this route's access, and the verified
    // request and raw body are there when its flags ask for them: what the handler's declared
    // type says. The request is checked inside, so that a replay answers as the first call did.
    const scope = idempotencyScope(caller, exchange.address);
    const run = async () => {
      const ctx = handlerContext(
        { ...input, caller, rawBody: body.raw, upload },
        exchange,
        res,
        deps,
        key === undefined ? undefined : operationOf(scope, key),
      );
      if (tokenRoute === undefined || requestToken === undefined) return route.handle(ctx);
      const request = await verifyRequest(tokenRoute, {
        params: input.params,
        caller,
        token: requestToken,
        call: ctx.call,
        requests: deps.requests,
        views: deps.views,
      });
      return route.handle({ ...ctx, request });
    };
    const answer = await idempotent(
      deps.idempotency,
      {
        key,
        scope,
        fingerprint: () =>
          requestFingerprint(
            exchange.method,
            exchange.path,
            upload ? uploadFingerprint(input.query, upload) : (body.raw ?? input.body),
          ),
        status: route.status,
      },
      run,
      { logger: deps.logger, callId: exchange.callId },
    );
    // A download answered itself, with its bytes.
    if (route.download) return;
    if (route.headers) res.set(route.headers);
    // An agent's key decides which data it sees (test or live), so its mode is every object's.
    const livemode = caller.kind === 'agent' ? caller.agent.livemode : undefined;
    const sent = livemode === undefined ? answer.body : withLivemode(answer.body, livemode);
    if (!answer.replayed) {
      res.status(route.status).json(sent);
      return;
    }
    res.set('Idempotent-Replayed', 'true').status(answer.status);
    if (answer.stored) res.json(sent);
    else res.end();
  } catch (error) {
    sendHttpError(res, await failureAnswer(error, route, exchange, deps));
  }
}
