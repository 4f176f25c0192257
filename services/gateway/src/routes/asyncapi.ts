import { buildAsyncApi } from '@handoff/contracts';
import { z } from 'zod';
import { fixedDocumentRoute } from '../http/fixed-document.ts';
import type { RouteDefinition } from '../http/route.ts';

export const ASYNCAPI_PATH = '/v1/asyncapi.json';

/** Enough of an AsyncAPI document to check the answer; the rest passes through. */
const AsyncApiDocumentShape = z.looseObject({
  asyncapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  channels: z.record(z.string(), z.unknown()),
});

/**
 * `GET /v1/asyncapi.json`: the AsyncAPI 3.0 document of the events on the bus, built from the same
 * zod schemas as `packages/contracts/asyncapi.json` (`npm run openapi`), public, with an ETag.
 */
export function asyncApiRoutes(): RouteDefinition[] {
  return [
    fixedDocumentRoute(
      {
        path: ASYNCAPI_PATH,
        operationId: 'getAsyncApiDocument',
        summary: 'The AsyncAPI 3.0 document of the events (webhooks and the NATS bus)',
        response: AsyncApiDocumentShape,
      },
      buildAsyncApi(),
    ),
  ];
}
