import { BusError } from '@handoff/bus';
import { isRequestClosed, RequestStatus, subjects } from '@handoff/contracts';
import { startEventConsumer } from '@handoff/runtime';
import { z } from 'zod';
import type { PaymentContext } from './context.ts';
import { moveRequest } from '../domain/moves.ts';
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
  const open: { _id: string }[] = [];
  // Equalities only (the storage rules): one query per open state, each served by an index.
  for (const state of OPEN_STATES) {
    open.push(
      ...(await ctx.requests
        .find({ request_id: requestId, status: state })
        .project<{ _id: string }>({ _id: 1 })
        .toArray()),
    );
  }
  let closed = 0;
  for (const { _id } of open) {
    try {
      await moveRequest(ctx, _id, 'reject', {
        actor: 'system',
        call_id: null,
        reason: `the request was ${status}`,
      });
      closed += 1;
    } catch (error) {
      if (!(error instanceof BusError && error.code === 'invalid_state_transition')) throw error;
    }
  }
  return closed;
}

const StatusOnly = z.object({ status: RequestStatus });

/** Settles a request's payment requests when `request.updated` says it is closed. */
export function startRequestClosureConsumer(ctx: PaymentContext): Promise<() => Promise<void>> {
  return startEventConsumer({
    bus: ctx.bus,
    logger: ctx.logger,
    name: REQUEST_CLOSURE_CONSUMER,
    subjects: [subjects.event('request.updated')],
    handle: async (event) => {
      const request = StatusOnly.safeParse(event.data.object);
      if (!request.success || !isRequestClosed(request.data.status)) return;
      await closePaymentRequests(ctx, event.data.request_id, request.data.status);
    },
  });
}
