// Whatever the gateway or a service can raise is a code of the catalogue: HttpError, sendProblem,
// BusError and the route table take nothing else (a type error otherwise). These
// tests hold the other half: every code of the catalogue is published, in the committed OpenAPI
// document under the status the catalogue gives it, so a code added to raise it fails here until
// a route lists it.
import { describe, expect, it } from '@jest/globals';
import { ERRORS, isErrorCode, type ErrorCode } from '@handoff/contracts';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { OpenApiDocument } from '../src/openapi/document.ts';

const committed = JSON.parse(
  readFileSync(new URL('../openapi.json', import.meta.url), 'utf8'),
) as OpenApiDocument;

/** Codes answered outside the operations the document describes, each with the reason. */
const OUTSIDE_THE_DOCUMENT: Partial<Record<ErrorCode, string>> = {
  console_not_built: 'the staff console (`/console`) is a web page, not an API operation',
  workspace_not_built:
    'the providers’ workspace (`/workspace`) is a web page, not an API operation',
};

/** The part of a problem response the codes are read from (`problem()` in the generator). */
const ProblemResponse = z.object({
  content: z.object({
    'application/problem+json': z.object({
      schema: z.object({
        allOf: z.tuple([
          z.object({ $ref: z.literal('#/components/schemas/Problem') }),
          z.object({ properties: z.object({ code: z.object({ enum: z.array(z.string()) }) }) }),
        ]),
      }),
    }),
  }),
});

/** Every code the document publishes, with the statuses it is published under. */
function publishedCodes(document: OpenApiDocument): Map<string, Set<number>> {
  const published = new Map<string, Set<number>>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) < 400) continue;
        const resolved =
          '$ref' in response
            ? document.components.responses[response.$ref.split('/').pop() ?? '']
            : response;
        // A probe's 503 is its report, not a problem.
        if (!resolved?.content?.['application/problem+json']) continue;
        const parsed = ProblemResponse.safeParse(resolved);
        if (!parsed.success)
          throw new Error(`${method} ${path} ${status}: ${parsed.error.message}`);
        const schema = parsed.data.content['application/problem+json'].schema;
        for (const code of schema.allOf[1].properties.code.enum) {
          published.set(code, (published.get(code) ?? new Set()).add(Number(status)));
        }
      }
    }
  }
  return published;
}

const published = publishedCodes(committed);

describe('the error catalogue', () => {
  it('has every code published in the OpenAPI document, or says why not', () => {
    const unpublished = Object.keys(ERRORS).filter(
      (code) => !published.has(code) && !(code in OUTSIDE_THE_DOCUMENT),
    );
    expect(unpublished).toEqual([]);
    for (const code of Object.keys(OUTSIDE_THE_DOCUMENT)) {
      expect({ code, published: published.has(code) }).toEqual({ code, published: false });
    }
  });

  it('gives each code the one status the document publishes it under', () => {
    for (const [code, statuses] of published) {
      expect({ code, known: isErrorCode(code) }).toEqual({ code, known: true });
      if (!isErrorCode(code)) continue;
      expect({ code, statuses: [...statuses] }).toEqual({ code, statuses: [ERRORS[code].status] });
    }
  });

  it('describes each code in one line', () => {
    for (const [code, { description }] of Object.entries(ERRORS)) {
      expect({ code, description }).toEqual({
        code,
        description: expect.stringMatching(/^[^\n]*[^.\n]$/),
      });
    }
  });
});
