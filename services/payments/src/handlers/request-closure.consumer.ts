import type { RequestStatus } from '@handoff/contracts';
import { consumeRequestClosures, idsInStates, moveEach } from '@handoff/runtime';
import type { PaymentContext } from './context.ts';
import { moveRequest } from './moves.ts';
import { PAYMENT_REQUEST_MACHINE } from '../domain/states.ts';

export const REQUEST_CLOSURE_CONSUMER = 'payments-request-closure';

/** States a closed request's payment requests leave: the ones still waiting for staff. */
const OPEN_STATES = PAYMENT_REQUEST_MACHINE.states.filter(
  (state) => PAYMENT_REQUEST_MACHINE.moves[state].reject !== undefined,
);

/**
 * A closed request's pending payment requests are rejected by `system`, with the request's state
 * as the reason: rejected rather than expired, because nobody ran out of time, and the reason
 * tells staff why. Idempotent by state: one decided meanwhile is left as it is.
 */
export async function closePaymentRequests(
  ctx: PaymentContext,
  requestId: string,
  status: RequestStatus,
): Promise<number> {
  const open = await idsInStates(ctx.requests, { request_id: requestId }, OPEN_STATES);
  return moveEach(open, (id) =>
    moveRequest(ctx, id, 'reject', {
      actor: 'system',
      call_id: null,
      reason: `the request was ${status}`,
    }),
  );
}

/** Settles a request's payment requests when `request.updated` says it is closed. */
export function startRequestClosureConsumer(ctx: PaymentContext): Promise<() => Promise<void>> {
  return consumeRequestClosures({
    bus: ctx.bus,
    logger: ctx.logger,
    name: REQUEST_CLOSURE_CONSUMER,
    settle: (requestId, status) => closePaymentRequests(ctx, requestId, status),
  });
}
