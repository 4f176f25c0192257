import type { Request, Response } from 'express';
import type { AgentIdentity } from '../auth/bearer-keys.ts';
import { requireScopes } from '../http/pipeline/authenticate.ts';
import type { CallDeps } from '../http/pipeline/call.ts';
import { exchangeOf } from '../http/pipeline/exchange.ts';
import { tokenRouteOf } from '../http/pipeline/request-token.ts';
import { runRoute, type RouteEntry } from '../http/pipeline/run-route.ts';
import type { Caller, RouteDefinition } from '../http/route.ts';

/** The agent routes the A2A binding acts through, by operation id. */
export const A2A_OPERATIONS = [
  'createHandoffRequest',
  'getRequest',
  'listDeliverables',
  'waitForRequestUpdates',
  'sendMessage',
  'acceptProposal',
  'declineProposal',
  'approveMilestone',
  'requestMilestoneChanges',
  'cancelRequest',
] as const;
export type A2aOperation = (typeof A2A_OPERATIONS)[number];

export interface OperationInput {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  /** The request token, for the routes that take one. */
  token?: string;
}

/** One A2A call's agent, and the HTTP exchange it arrived in. */
export interface A2aCall {
  agent: AgentIdentity;
  req: Request;
  res: Response;
}

export type Invoke = (
  call: A2aCall,
  operation: A2aOperation,
  input: OperationInput,
) => Promise<unknown>;

/**
 * Runs agent routes in this process, as their HTTP pipeline would after authentication: the
 * route's scopes, its schemas and body checks, the request token against the request (owner,
 * token, open), then its handler with the call's id and bus timeout. The A2A binding is a second
 * door to the same operations, so a task's calls cost one translation and no HTTP round trip.
 */
export function operationInvoker(routes: readonly RouteDefinition[], deps: CallDeps): Invoke {
  const table = new Map<string, RouteEntry>();
  for (const route of routes) {
    if ((A2A_OPERATIONS as readonly string[]).includes(route.operationId)) {
      table.set(route.operationId, { route, token: tokenRouteOf(route) });
    }
  }
  for (const operation of A2A_OPERATIONS) {
    if (!table.has(operation)) throw new Error(`the A2A binding needs the route ${operation}`);
  }

  return async (call, operation, input) => {
    const entry = table.get(operation);
    if (!entry) throw new Error(`no route ${operation}`);
    const { route } = entry;
    if (route.access.kind !== 'agent') throw new Error(`${operation} is not an agent route`);
    requireScopes(route.access.scopes, call.agent.scopes);
    const caller: Caller = { kind: 'agent', agent: call.agent };
    return runRoute(
      entry,
      { caller, exchange: exchangeOf(call.req, call.res), res: call.res },
      {
        params: input.params ?? {},
        query: input.query ?? {},
        body: input.body,
        token: input.token,
      },
      deps,
    );
  };
}
