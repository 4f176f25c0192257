import { z } from 'zod';
import { fixedDocumentRoute } from '../http/fixed-document.ts';
import type { RouteDefinition } from '../http/route.ts';
import { components, probePaths } from './components.ts';
import { DESCRIPTION, TAG_DESCRIPTIONS } from './descriptions.ts';
import type { SharedResponses } from './error-responses.ts';
import { linksByOperation } from './links.ts';
import { operationFor } from './operation.ts';
import {
  OPENAPI_VERSION,
  type BuildOptions,
  type HttpMethod,
  type JsonSchema,
  type OpenApiDocument,
  type Operation,
  type PathItem,
} from './types.ts';

/**
 * The OpenAPI 3.1 document of the gateway, generated from the route table and the same zod schemas
 * that validate the requests (conventions §1): request schemas as zod's input type, responses as
 * its output type. Every error a route can answer is listed per the conventions' errors table and
 * order of checks, each as `application/problem+json` with the codes that status can carry there.
 */

export const API_DOCUMENT_VERSION = '1.0.2';
export const OPENAPI_PATH = '/v1/openapi.json';
export type {
  BuildOptions,
  Header,
  HttpMethod,
  JsonSchema,
  OpenApiDocument,
  Operation,
  Parameter,
  PathItem,
  Reference,
  ResponseObject,
} from './types.ts';
export { IDEMPOTENCY_KEY_PATTERN } from './components.ts';
export { OPENAPI_VERSION };

const METHOD_ORDER: readonly HttpMethod[] = ['get', 'post', 'patch', 'delete'];

/** Builds the OpenAPI 3.1 document of these routes, plus the probes and the document itself. */
export function buildOpenApi(
  routes: readonly RouteDefinition[],
  options: BuildOptions = {},
): OpenApiDocument {
  const all = routes.some((route) => route.path === OPENAPI_PATH && route.method === 'get')
    ? routes
    : [...routes, openApiRoute({})];
  const defs: Record<string, JsonSchema> = {};
  const registry: SharedResponses = {};
  const paths: Record<string, PathItem> = { ...probePaths(defs, registry) };
  const tags = new Set<string>(['health']);
  const seen = new Set<string>();
  for (const route of all) {
    if (seen.has(route.operationId)) throw new Error(`duplicate operationId ${route.operationId}`);
    seen.add(route.operationId);
    const item = (paths[route.path] ??= {});
    if (item[route.method]) throw new Error(`two routes for ${route.method} ${route.path}`);
    item[route.method] = operationFor(route, defs, registry, options);
    for (const tag of route.tags) tags.add(tag);
  }

  addLinks(paths);

  const sortedPaths = Object.fromEntries(
    Object.keys(paths)
      .sort()
      .map((path) => {
        const item = paths[path] ?? {};
        const ordered: PathItem = {};
        for (const method of METHOD_ORDER) {
          const operation = item[method];
          if (operation) ordered[method] = operation;
        }
        return [path, ordered];
      }),
  );
  const base = components(defs);
  const hoisted = Object.fromEntries(
    Object.keys(defs)
      .sort()
      .map((name) => [name, defs[name] ?? {}]),
  );

  return {
    openapi: OPENAPI_VERSION,
    info: { title: 'Handoff API', version: API_DOCUMENT_VERSION, description: DESCRIPTION },
    servers: [{ url: '/', description: 'This gateway.' }],
    tags: [...tags].sort().map((name) => ({
      name,
      ...(TAG_DESCRIPTIONS[name] ? { description: TAG_DESCRIPTIONS[name] } : {}),
    })),
    paths: sortedPaths,
    components: {
      securitySchemes: base.securitySchemes,
      schemas: { ...base.schemas, ...hoisted },
      responses: Object.fromEntries(
        Object.keys(registry)
          .sort()
          .map((name) => [name, registry[name] ?? { description: name }]),
      ),
      parameters: base.parameters,
      headers: base.headers,
    },
  };
}

/**
 * The links of `links.ts` on each creating operation's success answer, those whose both ends are
 * in the document (a document of a few routes, in a test, has fewer).
 */
function addLinks(paths: Record<string, PathItem>): void {
  const operations = new Map<string, Operation>();
  for (const item of Object.values(paths)) {
    for (const operation of Object.values(item)) operations.set(operation.operationId, operation);
  }
  for (const [from, links] of linksByOperation()) {
    const operation = operations.get(from);
    if (!operation) continue;
    const success = Object.entries(operation.responses).find(([status]) => status.startsWith('2'));
    if (!success || '$ref' in success[1]) continue;
    const present = Object.entries(links).filter(([, link]) => operations.has(link.operationId));
    if (present.length > 0) success[1].links = Object.fromEntries(present);
  }
}

/** Enough of an OpenAPI document to check the answer; the rest passes through. */
const OpenApiDocumentShape = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.unknown()),
});

/** `GET /v1/openapi.json`: public, with an ETag of the document. */
export function openApiRoute(document: object): RouteDefinition {
  return fixedDocumentRoute(
    {
      path: OPENAPI_PATH,
      operationId: 'getOpenApiDocument',
      summary: 'This OpenAPI 3.1 document',
      response: OpenApiDocumentShape,
    },
    document,
  );
}

/** The routes plus `GET /v1/openapi.json` serving their document: what the gateway mounts. */
export function withOpenApi(
  routes: readonly RouteDefinition[],
  options: BuildOptions = {},
): RouteDefinition[] {
  return [...routes, openApiRoute(buildOpenApi(routes, options))];
}
