import { tokenRouteOf } from '../http/pipeline/request-token.ts';
import type { RouteEntry } from '../http/pipeline/run-route.ts';
import type { RouteDefinition } from '../http/route.ts';

interface Compiled extends RouteEntry {
  method: string;
  pattern: RegExp;
  names: readonly string[];
}

/** What a method and path find in the table. */
export type Match =
  | { kind: 'route'; entry: RouteEntry; params: Record<string, string> }
  | { kind: 'method_not_allowed'; allowed: readonly string[] }
  | { kind: 'not_found' };

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function compile(route: RouteDefinition): Compiled {
  const names: string[] = [];
  const source = route.path
    .split(/(\{\w+\})/)
    .map((part) => {
      const name = /^\{(\w+)\}$/.exec(part)?.[1];
      if (name === undefined) return escape(part);
      names.push(name);
      return '([^/]+)';
    })
    .join('');
  return {
    route,
    token: tokenRouteOf(route),
    method: route.method.toUpperCase(),
    pattern: new RegExp(`^${source}$`),
    names,
  };
}

/**
 * The routes an agent key can call (agent and public access), matched as the gateway's router
 * matches them: in the table's order, a parameter is one percent-decoded path segment, and a path
 * known for other methods is a 405. Routes for other callers are not in it: an agent key only
 * ever gets their 401 or 403.
 */
export function agentRouteTable(routes: readonly RouteDefinition[]) {
  const compiled = routes
    .filter((route) => route.access.kind === 'agent' || route.access.kind === 'public')
    // A download answers with bytes on its own HTTP exchange: an MCP client follows the URL.
    .filter((route) => route.download === undefined)
    .map(compile);
  return (method: string, path: string): Match => {
    const allowed = new Set<string>();
    for (const entry of compiled) {
      const found = entry.pattern.exec(path);
      if (!found) continue;
      if (entry.method !== method) {
        allowed.add(entry.method);
        if (entry.method === 'GET') allowed.add('HEAD');
        continue;
      }
      const params: Record<string, string> = {};
      entry.names.forEach((name, index) => {
        params[name] = decodeURIComponent(found[index + 1] ?? '');
      });
      return { kind: 'route', entry, params };
    }
    return allowed.size > 0
      ? { kind: 'method_not_allowed', allowed: [...allowed].sort() }
      : { kind: 'not_found' };
  };
}
