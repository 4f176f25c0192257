import type { z } from 'zod';
import { fieldErrors, validationFailed } from '../errors.ts';
import { forbiddenCharacters } from '../forbidden-characters.ts';
import type { RouteDefinition } from '../route.ts';

export interface Input {
  params: unknown;
  query: unknown;
  body: unknown;
}

/**
 * Checks the path parameters, the query and the body against the route's schemas, in that order,
 * and answers their outputs; 422 `validation_failed` with a pointer per problem otherwise. A
 * route without a body schema gets no body.
 */
export function validateInput(
  route: Pick<RouteDefinition, 'params' | 'query' | 'body' | 'upload'>,
  input: Input,
): Input {
  const params = validate(route.params, input.params, '/params');
  // An upload's file name is made safe, not refused: a NUL or a control character in the name
  // of a file on someone's disk is no reason to refuse the file (docs/files.md).
  const query = validate(route.query, input.query, '/query', {
    skip: route.upload ? ['filename'] : [],
  });
  const body = route.body ? validate(route.body, input.body, '') : undefined;
  return { params, query, body };
}

/** A value without a schema is passed as it came. */
export function validate(
  schema: z.ZodType | undefined,
  value: unknown,
  root: '' | '/query' | '/params',
  /** Members whose control characters the route makes safe itself. */
  { skip = [] }: { skip?: readonly string[] } = {},
): unknown {
  if (!schema) return value;
  const checked =
    skip.length > 0 && value !== null && typeof value === 'object'
      ? Object.fromEntries(Object.entries(value).filter(([key]) => !skip.includes(key)))
      : value;
  const forbidden = forbiddenCharacters(checked, root);
  if (forbidden.length > 0) throw validationFailed(forbidden);
  const result = schema.safeParse(value);
  if (!result.success) throw validationFailed(fieldErrors(result.error, root));
  return result.data;
}
