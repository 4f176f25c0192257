import type { Request, Response } from 'express';
import { BODY_LIMIT_BYTES } from '@handoff/contracts';
import { charsetIsUtf8, declaresBody, readBodyBytes } from '../body.ts';
import { HttpError } from '../errors.ts';
import { jsonShapeProblem } from '../json-shape.ts';
import type { RouteDefinition } from '../route.ts';

/** What was read of the body: JSON to validate, or the text of a `rawBody` route. */
export interface ReadBody {
  /** `undefined` when the route takes no body, or an optional one was left out of the call. */
  json: unknown;
  raw: string | undefined;
}

const NOTHING: ReadBody = { json: undefined, raw: undefined };

const notJson = () =>
  new HttpError('unsupported_media_type', 'Send the body as `application/json`.');

/**
 * Reads the body the route takes: 415 for another media type or charset, 413 past the limit,
 * 400 for text that is not JSON of an acceptable shape. A route without a body reads nothing.
 */
export async function readBody(
  route: Pick<RouteDefinition, 'body' | 'bodyOptional' | 'rawBody'>,
  req: Request,
  res: Response,
): Promise<ReadBody> {
  if (route.rawBody) {
    if (!req.is('application/json')) throw notJson();
    const raw = (await readBodyBytes(req, res, route.rawBody.limitBytes)).toString('utf8');
    return { json: undefined, raw };
  }
  if (!route.body) return NOTHING;
  if (!declaresBody(req)) return route.bodyOptional ? { json: {}, raw: undefined } : NOTHING;
  if (!req.is('application/json')) throw notJson();
  if (!charsetIsUtf8(req)) {
    throw new HttpError(
      'unsupported_media_type',
      'Send the body as `application/json` in UTF-8, without a Content-Encoding.',
    );
  }
  const text = (await readBodyBytes(req, res, BODY_LIMIT_BYTES)).toString('utf8');
  return { json: parseJson(text), raw: undefined };
}

/**
 * The body's text as JSON. An empty body (a declared body of no bytes, such as an empty chunked
 * one) is a common client mistake: it is validated as `{}` and fails the schema there. Text of
 * whitespace alone is sent, and is no JSON value (RFC 8259), so it is refused like any other
 * text that does not parse: read as `{}`, it made a call with an optional body succeed.
 */
export function parseJson(text: string): unknown {
  if (text === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text) as unknown;
  } catch {
    throw new HttpError('invalid_json', 'The body is not valid JSON.');
  }
  const problem = jsonShapeProblem(text);
  if (problem !== undefined) throw new HttpError('invalid_json', problem);
  return parsed;
}
