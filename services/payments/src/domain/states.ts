import {
  PAYMENT_MACHINE,
  PAYMENT_REQUEST_MACHINE,
  type PaymentAction,
  type PaymentDecision,
  type PaymentRequest,
  type PaymentRequestAction,
  type PaymentStatus as PaymentStatusSchema,
} from '@handoff/contracts';
import type { z } from 'zod';

/**
 * The two machines this service enforces live in `@handoff/contracts` (lifecycle.ts) as data:
 * every move goes through `moveDocument` from `@handoff/runtime` (see moves.ts), which answers an
 * illegal pair with `invalid_state_transition` naming the allowed actions, and each action
 * publishes `machine.events[action]` (null: no event, the audit stream only).
 */
export { PAYMENT_MACHINE, PAYMENT_REQUEST_MACHINE };

export type PaymentRequestStatus = PaymentRequest['status'];
export type PaymentStatus = z.output<typeof PaymentStatusSchema>;
export type { PaymentAction, PaymentRequestAction };

/** Staff's decision as the API words it, and the machine's action for it. */
export const DECISION_ACTIONS = {
  approved: 'approve',
  rejected: 'reject',
} as const satisfies Record<z.output<typeof PaymentDecision>['decision'], PaymentRequestAction>;

/** How the audit log names each action (the existing `payment_request.rejected` and kin). */
export const PAYMENT_REQUEST_AUDIT_ACTIONS = {
  approve: 'payment_request.approved',
  reject: 'payment_request.rejected',
  expire: 'payment_request.expired',
} as const satisfies Record<PaymentRequestAction, string>;

export const PAYMENT_AUDIT_ACTIONS = {
  complete: 'payment.completed',
  fail: 'payment.failed',
} as const satisfies Record<PaymentAction, string>;
