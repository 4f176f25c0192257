import { newId, type EventType, type NotFoundCode, type StateMachine } from '@handoff/contracts';
import { announceToRequest, moveDocument, type Move, type MovingDocument } from '@handoff/runtime';
import type { Collection } from 'mongodb';
import type { PaymentContext } from './context.ts';
import { paymentRequestView, type PaymentRequestDoc } from '../store/payment-requests.ts';
import { paymentView, type PaymentDoc } from '../store/payments.ts';
import {
  PAYMENT_AUDIT_ACTIONS,
  PAYMENT_MACHINE,
  PAYMENT_REQUEST_AUDIT_ACTIONS,
  PAYMENT_REQUEST_MACHINE,
} from '../domain/states.ts';

/** Who moves a resource, and the call that made them (for the audit log). */
export interface Mover {
  /** Staff's `sub`, or `system` for deadlines and processor notifications. */
  actor: string;
  /** The Request-Id of the call, null for the sweeps. */
  call_id: string | null;
}

/** One resource of this service as its moves need it. */
interface Resource<D extends MovingDocument<S>, S extends string, A extends string> {
  machine: StateMachine<S, A, EventType>;
  collection: (ctx: PaymentContext) => Collection<D>;
  view: (doc: D) => Record<string, unknown>;
  /** The answer when the document is missing. */
  notFound: NotFoundCode;
  /** How the audit log names each action. */
  auditActions: Record<A, string>;
}

/**
 * The move function of one resource: events go to the request, and every move is audited under
 * the action's name. `how` turns the mover's fields into the resource's own part of the move
 * (its guards and the fields it sets).
 */
function moverOf<
  D extends MovingDocument<S> & { request_id: string },
  S extends string,
  A extends string,
  M extends Mover,
>(
  resource: Resource<D, S, A>,
  how: (
    action: A,
    mover: M,
  ) => Pick<Move<D, S, A, EventType>, 'guard' | 'refuse' | 'unchanged' | 'change'>,
) {
  return (ctx: PaymentContext, id: string, action: A, mover: M): Promise<D> =>
    moveDocument(
      { store: ctx.store, publish: ctx.publish },
      {
        machine: resource.machine,
        collection: resource.collection(ctx),
        id,
        action,
        view: resource.view,
        notFound: resource.notFound,
        announce: announceToRequest,
        audit: {
          service: 'payments',
          actor: mover.actor,
          call_id: mover.call_id,
          action: resource.auditActions[action],
        },
        ...how(action, mover),
      },
    );
}

export interface RequestMove extends Mover {
  /** Staff's reason for a rejection. */
  reason?: string | undefined;
  /** Refuses once the move is known to be legal, still in the document's turn. */
  guard?: (before: PaymentRequestDoc) => Promise<void>;
}

/**
 * Moves a payment request through PAYMENT_REQUEST_MACHINE. An approval also names the payment
 * it creates (`payment_id`) in the same write, so that payment can be created idempotently later.
 * Approval announces the approved snapshot as `payment.requested` again (spec: "created or
 * approved"); rejection and expiry publish the extension kinds `payment.request_rejected` and
 * `payment.request_expired` (contracts: EXTENSION_EVENT_TYPES).
 */
export const moveRequest = moverOf(
  {
    machine: PAYMENT_REQUEST_MACHINE,
    collection: (ctx) => ctx.requests,
    view: paymentRequestView,
    notFound: 'payment_request_not_found',
    auditActions: PAYMENT_REQUEST_AUDIT_ACTIONS,
  },
  (action, mover: RequestMove) => ({
    ...(mover.guard ? { guard: mover.guard } : {}),
    change: (_before, now) => ({
      decided_at: now,
      decided_by: mover.actor,
      ...(action === 'reject' ? { rejection_reason: mover.reason ?? null } : {}),
      ...(action === 'approve' ? { payment_id: newId('pay'), payment_created: false } : {}),
    }),
  }),
);

export interface PaymentMove extends Mover {
  failure_reason?: string | undefined;
  /** The processor's id of the charge, when the move reveals or confirms it. */
  provider_reference?: string | null | undefined;
  /** Refuses before the machine is asked, for rules that are not state moves. */
  guard?: (before: PaymentDoc) => void;
  /**
   * A processor notification may arrive more than once: when the payment already is where the
   * action leads, answer it unchanged instead of refusing the move.
   */
  idempotent?: boolean;
}

/** The state `action` leads to (every action of these machines has one target). */
function targetOf<S extends string, A extends string>(machine: StateMachine<S, A>, action: A) {
  return machine.states.find((state) =>
    Object.values(machine.moves).some(
      (moves) => (moves as Partial<Record<A, S>>)[action] === state,
    ),
  );
}

/** Moves a payment through PAYMENT_MACHINE; `complete` publishes `payment.completed`. */
export const movePayment = moverOf(
  {
    machine: PAYMENT_MACHINE,
    collection: (ctx) => ctx.payments,
    view: paymentView,
    notFound: 'payment_not_found',
    auditActions: PAYMENT_AUDIT_ACTIONS,
  },
  (action, mover: PaymentMove) => ({
    ...(mover.guard ? { refuse: mover.guard } : {}),
    ...(mover.idempotent
      ? { unchanged: (before: PaymentDoc) => before.status === targetOf(PAYMENT_MACHINE, action) }
      : {}),
    change: (_before, now) => ({
      decided_by: mover.actor,
      ...(action === 'complete'
        ? { completed_at: now, failure_reason: null }
        : { failure_reason: mover.failure_reason ?? 'failed' }),
      ...(mover.provider_reference ? { provider_reference: mover.provider_reference } : {}),
    }),
  }),
);
