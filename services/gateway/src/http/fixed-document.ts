import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { defineRoute, type RouteDefinition } from './route.ts';

/** The strong ETag of a JSON answer: the start of its SHA-256, base64url. */
export const etagOf = (body: unknown): string =>
  `"${createHash('sha256').update(JSON.stringify(body)).digest('base64url').slice(0, 27)}"`;

/**
 * A public `GET` of a document fixed when the gateway starts (the API descriptions, the service
 * categories), with the ETag of that document.
 */
export function fixedDocumentRoute(
  route: { path: string; operationId: string; summary: string; response: z.ZodType },
  document: object,
): RouteDefinition {
  return defineRoute({
    method: 'get',
    ...route,
    tags: ['meta'],
    access: { kind: 'public' },
    status: 200,
    headers: { ETag: etagOf(document) },
    handle: async () => document,
  });
}
