import { BusError } from '@handoff/bus';
import type { Logger } from '@handoff/observability';
import type { AuthFailureGuard } from '../../auth/client-guard.ts';
import { fromBusError, HttpError } from '../errors.ts';
import type { RouteDefinition } from '../route.ts';
import type { Exchange } from './exchange.ts';

export interface ErrorDeps {
  guard: AuthFailureGuard;
  logger: Logger;
}

/**
 * The answer to a call that failed at any stage: its own refusal, a bus failure as the caller
 * should see it, or a 500 that is logged with the request id (the caller is told nothing more).
 */
export async function failureAnswer(
  error: unknown,
  route: Pick<RouteDefinition, 'access' | 'operationId'>,
  exchange: Exchange,
  deps: ErrorDeps,
): Promise<HttpError> {
  const mapped = fromBusError(error);
  if (mapped instanceof HttpError) {
    // A wrong application secret is a failed authentication like a wrong key.
    if (route.access.kind === 'applicant' && mapped.status === 404) {
      return (await deps.guard.failed(exchange.address)) ?? mapped;
    }
    return mapped;
  }
  deps.logger.error(
    {
      err: mapped,
      call_id: exchange.callId,
      route: route.operationId,
      bus: mapped instanceof BusError,
    },
    'route failed',
  );
  return new HttpError(
    'internal_error',
    'An internal error occurred; it has been logged with the request id.',
  );
}
