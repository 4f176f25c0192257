import { BusError } from '@handoff/bus';
import { ERRORS, MAX_FIELD_ERRORS, type ErrorCode, type ErrorStatus } from '@handoff/contracts';
import type { z } from 'zod';

/**
 * An answer other than success, with everything the problem body and headers need. The code is
 * one of the catalogue's, which fixes the status.
 */
export class HttpError extends Error {
  readonly status: ErrorStatus;
  readonly code: ErrorCode;
  /** Extension members of the problem body (RFC 9457 §3.2), e.g. `required_scopes`. */
  readonly extra: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    detail: string,
    options: { extra?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ) {
    super(detail);
    this.name = 'HttpError';
    this.status = ERRORS[code].status;
    this.code = code;
    this.extra = options.extra ?? {};
    this.headers = options.headers ?? {};
  }
}

export interface FieldError {
  pointer: string;
  code: string;
  detail: string;
}

/** One entry per problem, each with a JSON pointer into the part of the request it concerns. */
export function fieldErrors(error: z.ZodError, root: '' | '/query' | '/params' = ''): FieldError[] {
  const pointer = (path: readonly PropertyKey[]) =>
    root + path.map((part) => `/${String(part).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
  return error.issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        pointer: pointer([...issue.path, key]),
        code: 'unknown_field',
        // Quoted as a JSON string, so a name holding NUL or another control character is
        // written out escaped: `detail` is prose, and the document promises it holds no NUL.
        detail: `Unknown field ${JSON.stringify(key)}.`,
      }));
    }
    return [{ pointer: pointer(issue.path), code: issue.code, detail: issue.message }];
  });
}

export function validationFailed(errors: FieldError[]): HttpError {
  const listed = errors.slice(0, MAX_FIELD_ERRORS);
  return new HttpError(
    'validation_failed',
    errors.length > listed.length
      ? `The request does not match the schema: ${errors.length} problems, the first ${listed.length} listed.`
      : 'The request does not match the schema.',
    { extra: { errors: listed } },
  );
}

/**
 * A failure that came back over the bus, as the caller gets it: the service named the code of
 * the catalogue and wrote a message and details for the caller, so they pass through as they
 * are. Two kinds do not: one worth retrying (a service that did not answer) is told as such with
 * `Retry-After`, without the subject it concerned; and a server fault (`internal_error`, a reply
 * of no known code) stays an error, logged and answered with the generic 500.
 */
export function fromBusError(error: unknown): unknown {
  if (!(error instanceof BusError)) return error;
  if (error.retryable) {
    return new HttpError(error.code, 'A service did not answer in time; try again shortly.', {
      headers: { 'Retry-After': '1' },
    });
  }
  if (error.status >= 500) return error;
  return new HttpError(error.code, error.message, { extra: error.details ?? {} });
}
