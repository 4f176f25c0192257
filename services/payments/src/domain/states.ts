import { BusError } from '@handoff/bus';
import type { PaymentRequest } from '@handoff/contracts';

export type PaymentRequestStatus = PaymentRequest['status'];
export type PaymentDecisionKind = 'approved' | 'rejected';

/**
 * The payment request's state machine. Staff decide once; both outcomes are final.
 *
 * | state            | decide: approved | decide: rejected |
 * |------------------|------------------|------------------|
 * | pending_approval | approved         | rejected         |
 * | approved         | -                | -                |
 * | rejected         | -                | -                |
 *
 * Creation and approval each publish `payment.requested` (spec: "a payment request was created
 * or approved"); rejection publishes nothing, since the spec has no event kind for it.
 */
export const PAYMENT_REQUEST_MOVES: Record<PaymentRequestStatus, readonly PaymentDecisionKind[]> = {
  pending_approval: ['approved', 'rejected'],
  approved: [],
  rejected: [],
};

export function illegalMove(
  current: PaymentRequestStatus,
  decision: PaymentDecisionKind,
): BusError {
  return new BusError(
    'invalid_state_transition',
    `cannot mark the payment request ${decision}: it is ${current}.`,
    { details: { current_state: current, allowed_transitions: PAYMENT_REQUEST_MOVES[current] } },
  );
}
