import {
  A2AError,
  RequestMalformedError,
  TaskNotFoundError,
  UnsupportedOperationError,
} from '@a2a-js/sdk/errors';
import type { Logger } from '@handoff/observability';
import { fromBusError, HttpError } from '../http/errors.ts';

/** The JSON-RPC answer for a task that is not the caller's, or not there: one answer for both. */
export const noSuchTask = () => new TaskNotFoundError('No such task.');

/** A problem's field errors, in one line for a JSON-RPC error message. */
function fieldsOf(error: HttpError): string {
  const errors = error.extra.errors;
  if (!Array.isArray(errors)) return '';
  const listed = errors.flatMap((entry: unknown) =>
    typeof entry === 'object' && entry !== null
      ? [`${String(Reflect.get(entry, 'pointer'))}: ${String(Reflect.get(entry, 'detail'))}`]
      : [],
  );
  return listed.length > 0 ? ` (${listed.join('; ')})` : '';
}

/**
 * What the A2A client is told of a failure of the operations behind a task: the A2A error the
 * REST problem amounts to (a foreign or unknown request is `TaskNotFound`, an action the task's
 * state refuses `UnsupportedOperation`, a body or id the operation refuses `InvalidParams`), with
 * the problem's code and detail. A service that did not answer is an internal error saying so; a
 * fault of ours is logged with the call id and answered without its details.
 */
export function toA2aError(error: unknown, logger: Logger, callId: string): Error {
  if (error instanceof Error && error instanceof A2AError) return error;
  const known = fromBusError(error);
  if (!(known instanceof HttpError)) {
    logger.error({ err: error, call_id: callId }, 'A2A call failed');
    return new Error(`An internal error occurred; it has been logged with the call id ${callId}.`);
  }
  const message = `${known.code}: ${known.message}${fieldsOf(known)}`;
  if (known.code === 'request_not_found') return noSuchTask();
  if (known.status === 409 || known.status === 403) return new UnsupportedOperationError(message);
  if (known.status === 400 || known.status === 404 || known.status === 422) {
    return new RequestMalformedError(message);
  }
  // Worth retrying (a service that did not answer in time, a long-poll bound): said as it is.
  return new Error(message);
}
