import { jsonRpcHandler } from '@a2a-js/sdk/server/express';
import { call as busCall } from '@handoff/bus';
import type { Logger } from '@handoff/observability';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { AgentIdentity, BearerKeyVerifier } from '../auth/bearer-keys.ts';
import type { AuthFailureGuard } from '../auth/client-guard.ts';
import type { ServiceCategory } from '../categories.ts';
import { jsonBodyWithin } from '../http/body.ts';
import { HttpError } from '../http/errors.ts';
import { bearerCaller, requireScopes } from '../http/pipeline/authenticate.ts';
import type { CallDeps } from '../http/pipeline/call.ts';
import { routeTaken } from '../http/metrics.ts';
import { exchangeOf } from '../http/pipeline/exchange.ts';
import { rateLimit } from '../http/pipeline/rate-limit.ts';
import { sendHttpError } from '../http/problem.ts';
import type { RouteDefinition } from '../http/route.ts';
import type { RateLimiter, RateLimitPolicy } from '../ratelimit.ts';
import { A2A_PATH, AGENT_CARD_PATH, agentCardOf, serveAgentCard } from './card.ts';
import { AgentUser, HandoffRequestHandler } from './handler.ts';
import { operationInvoker } from './invoke.ts';
import { pushConfigs } from './push.ts';
import { scopesOf } from './scopes.ts';
import type { TaskTokens } from './tokens.ts';

export interface A2aDeps extends CallDeps {
  keys: BearerKeyVerifier<AgentIdentity>;
  guard: AuthFailureGuard;
  limiter: RateLimiter;
  logger: Logger;
  policies: { key: RateLimitPolicy; public: RateLimitPolicy };
  /** The gateway's routes: the A2A binding acts through the agent's. */
  routes: readonly RouteDefinition[];
  categories: readonly ServiceCategory[];
  version: string;
  tokens: TaskTokens;
  /** True once the gateway stops (streams then end). */
  stopping(): boolean;
  /** How long a blocking `SendMessage` waits; default 20 s. */
  blockingWaitMs?: number;
}

/** JSON-RPC bodies up to this size (a brief is at most 20,000 characters). */
const BODY_LIMIT_BYTES = 256 * 1024;

/**
 * The A2A binding (docs/a2a.md): the public Agent Card at `/.well-known/agent-card.json`, and the
 * JSON-RPC endpoint at `/a2a` for the agent key as a bearer token, checked as on every agent
 * route (the key, the failure budget, the key's rate limit, then the scopes the method needs);
 * a refusal is the REST API's problem answer (401 with `WWW-Authenticate`, 403, 429), and the
 * rest is the SDK's JSON-RPC transport over {@link HandoffRequestHandler}.
 */
export function a2aRouter(deps: A2aDeps): express.Router {
  const agents = new WeakMap<Request, AgentIdentity>();
  const card = (origin: string) => agentCardOf(origin, deps.categories, deps.version);
  const handler = new HandoffRequestHandler({
    invoke: operationInvoker(deps.routes, deps),
    tokens: deps.tokens,
    stopping: deps.stopping,
    logger: deps.logger,
    card: card(''),
    blockingWaitMs: deps.blockingWaitMs ?? 20_000,
    push: pushConfigs(
      (call) => (op, input) =>
        busCall(deps.nc, op, input, {
          timeoutMs: deps.busTimeoutMs,
          callId: String(call.res.locals.callId),
        }),
    ),
  });

  const router = express.Router();
  router.use(AGENT_CARD_PATH, (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    routeTaken(res, AGENT_CARD_PATH);
    const exchange = exchangeOf(req, res);
    rateLimit(deps.policies.public, `ip:${exchange.address}`, exchange, deps)
      .then(() => serveAgentCard(card(exchange.origin), req, res, next))
      .catch((error: unknown) => refuse(error, res, next));
  });

  router.use(
    A2A_PATH,
    (req: Request, res: Response, next: NextFunction) => {
      routeTaken(res, A2A_PATH);
      const exchange = exchangeOf(req, res);
      const client = { address: exchange.address, guard: deps.guard, callId: exchange.callId };
      bearerCaller(deps.keys, exchange.header('authorization'), client)
        .then(async (agent) => {
          await rateLimit(deps.policies.key, agent.key_id, exchange, deps);
          agents.set(req, agent);
          next();
        })
        .catch((error: unknown) => refuse(error, res, next));
    },
    jsonBodyWithin(BODY_LIMIT_BYTES),
    (req: Request, res: Response, next: NextFunction) => {
      const agent = agents.get(req);
      if (!agent) return next(new Error('the A2A call was not authenticated'));
      try {
        requireScopes(scopesOf(req.body), agent.scopes);
        next();
      } catch (error) {
        refuse(error, res, next);
      }
    },
    jsonRpcHandler({
      requestHandler: handler,
      legacyCompat: { enabled: true },
      userBuilder: (req) => {
        const agent = agents.get(req);
        if (!agent || !req.res) throw new Error('the A2A call was not authenticated');
        return Promise.resolve(new AgentUser({ agent, req, res: req.res }));
      },
    }),
    // A body that is not JSON, as the JSON-RPC transport answers it; one too large, as the API.
    (error: unknown, _req: Request, res: Response, next: NextFunction) => {
      if (res.headersSent) return next(error);
      if (error instanceof SyntaxError) {
        res.json({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Invalid JSON.' } });
        return;
      }
      if (error instanceof HttpError) return refuse(error, res, next);
      next(error);
    },
  );
  return router;
}

/** A refused call is answered as the REST API answers it; anything else is an error. */
function refuse(error: unknown, res: Response, next: NextFunction): void {
  if (!(error instanceof HttpError) || res.headersSent) return next(error);
  if (error.status === 401 && !error.headers['WWW-Authenticate']) {
    res.set('WWW-Authenticate', 'Bearer realm="handoff"');
  }
  sendHttpError(res, error);
}
