import { createMcpHttpHandler } from '@handoff/mcp';
import type { Request, Response } from 'express';
import type { AgentIdentity, BearerKeyVerifier } from '../auth/bearer-keys.ts';
import type { AuthFailureGuard } from '../auth/client-guard.ts';
import { HttpError } from '../http/errors.ts';
import { bearerCaller } from '../http/pipeline/authenticate.ts';
import type { CallDeps } from '../http/pipeline/call.ts';
import { exchangeOf } from '../http/pipeline/exchange.ts';
import { rateLimit, type RateLimitDeps } from '../http/pipeline/rate-limit.ts';
import { sendHttpError } from '../http/problem.ts';
import type { RouteDefinition } from '../http/route.ts';
import type { RateLimitPolicy } from '../ratelimit.ts';
import { routeFetch } from './route-fetch.ts';

export interface McpEndpointDeps extends CallDeps, RateLimitDeps {
  keys: BearerKeyVerifier<AgentIdentity>;
  guard: AuthFailureGuard;
  policies: { key: RateLimitPolicy };
  /** The gateway's routes: the tools act through the agent's, in this process. */
  routes: readonly RouteDefinition[];
  /** This gateway's own address, which the tools' client is built for. */
  gatewayUrl: () => string;
}

export type McpEndpoint = ReturnType<typeof createMcpHttpHandler>;

/**
 * MCP over Streamable HTTP at /mcp. The key is checked as on every agent route (a failure
 * counted against the caller's address and the key's prefix) and the call counted once against
 * the key's rate limit, as the A2A binding counts one; the tools then run the agent routes in
 * this process with that key's identity, so a tool call costs one translation and no second
 * HTTP exchange.
 */
export function mcpEndpoint(deps: McpEndpointDeps): McpEndpoint {
  const fetchFor = routeFetch(deps.routes, deps);
  return createMcpHttpHandler({
    gatewayUrl: deps.gatewayUrl,
    authenticate: async (req, apiKey) => {
      const http = req as Request;
      if (!http.res) throw new Error('/mcp is mounted on the Express app');
      const exchange = exchangeOf(http, http.res);
      const agent = await bearerCaller(deps.keys, `Bearer ${apiKey}`, {
        address: exchange.address,
        guard: deps.guard,
        callId: exchange.callId,
      });
      await rateLimit(deps.policies.key, agent.key_id, exchange, deps);
      return {
        integrationId: agent.integration_id,
        scopes: agent.scopes,
        fetch: fetchFor({ agent, exchange, res: http.res }),
      };
    },
  });
}

/** The /mcp mount: a refusal before the MCP answer started is a problem like any route's. */
export function mcpMount(mcp: McpEndpoint) {
  return async (req: Request, res: Response): Promise<void> => {
    try {
      await mcp.handle(req, res);
    } catch (error) {
      if (error instanceof HttpError && !res.headersSent) {
        if (error.status === 401) res.set('WWW-Authenticate', 'Bearer realm="handoff"');
        sendHttpError(res, error);
        return;
      }
      throw error;
    }
  };
}
