import { BusError } from '@handoff/bus';
import { deadlineFor, newId, type EventType, type StateMachine } from '@handoff/contracts';
import {
  applyMove,
  auditMessage,
  changedMeanwhile,
  domainEvent,
  type AuditRecord,
  type OutboxMessage,
  pushOutbox,
} from '@handoff/runtime';
import type { PaymentContext } from './context.ts';
import {
  paymentRequestView,
  paymentView,
  type PaymentDoc,
  type PaymentRequestDoc,
} from './documents.ts';
import {
  PAYMENT_AUDIT_ACTIONS,
  PAYMENT_MACHINE,
  PAYMENT_REQUEST_AUDIT_ACTIONS,
  PAYMENT_REQUEST_MACHINE,
  type PaymentAction,
  type PaymentRequestAction,
} from './states.ts';

/** Who moves a resource, and the call that made them (for the audit log). */
export interface Mover {
  /** Staff's `sub`, or `system` for deadlines and provider notifications. */
  actor: string;
  /** The Request-Id of the call, null for the sweeps. */
  call_request_id: string | null;
}

export async function findRequest(ctx: PaymentContext, id: string): Promise<PaymentRequestDoc> {
  const doc = await ctx.requests.findOne({ _id: id });
  if (!doc) throw new BusError('not_found', 'No such payment request.');
  return doc;
}

export async function findPayment(ctx: PaymentContext, id: string): Promise<PaymentDoc> {
  const doc = await ctx.payments.findOne({ _id: id });
  if (!doc) throw new BusError('not_found', 'No such payment.');
  return doc;
}

/**
 * The message a move writes beside its change: the machine's event for the action (with the
 * audit entry riding along), or, when the action has none, an audit-stream message alone.
 */
function moveMessage(
  eventType: EventType | null,
  requestId: string,
  after: Record<string, unknown>,
  audit: AuditRecord,
): OutboxMessage {
  return eventType === null
    ? auditMessage('payments', audit.action, audit)
    : {
        ...domainEvent(eventType, requestId, after),
        local: { audit },
      };
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
 */
export async function moveRequest(
  ctx: PaymentContext,
  id: string,
  action: PaymentRequestAction,
  mover: RequestMove,
): Promise<PaymentRequestDoc> {
  const { updated, message } = await ctx.store.serialize(ctx.requests, id, async () => {
    const before = await findRequest(ctx, id);
    const next = applyMove(PAYMENT_REQUEST_MACHINE, before.status, action);
    await mover.guard?.(before);
    const now = new Date();
    const change: Partial<PaymentRequestDoc> = {
      status: next,
      decided_at: now,
      decided_by: mover.actor,
      deadline_at: deadlineFor(PAYMENT_REQUEST_MACHINE, next, now),
      ...(action === 'reject' ? { rejection_reason: mover.reason ?? null } : {}),
      ...(action === 'approve' ? { payment_id: newId('pay'), payment_created: false } : {}),
    };
    const after = paymentRequestView({ ...before, ...change });
    const audit: AuditRecord = {
      actor: mover.actor,
      action: PAYMENT_REQUEST_AUDIT_ACTIONS[action],
      target_type: 'payment_request',
      target_id: id,
      at: now,
      request_id: mover.call_request_id,
      before: paymentRequestView(before),
      after,
    };
    // Approval announces the approved snapshot as `payment.requested` again (spec: "created or
    // approved"); rejection and expiry publish the extension kinds `payment.request_rejected` and
    // `payment.request_expired` (contracts: EXTENSION_EVENT_TYPES).
    const message = moveMessage(
      PAYMENT_REQUEST_MACHINE.events[action],
      before.request_id,
      after,
      audit,
    );
    // The status filter makes the move a compare-and-set on MongoDB; the serializer gives a
    // single replica the same guarantee on FerretDB.
    const updated = await ctx.requests.findOneAndUpdate(
      { _id: id, status: before.status },
      pushOutbox({ $set: change }, [message]),
      { returnDocument: 'after' },
    );
    if (!updated) {
      throw changedMeanwhile(PAYMENT_REQUEST_MACHINE, (await findRequest(ctx, id)).status, action);
    }
    return { updated, message };
  });
  await ctx.publish(ctx.requests, id, [message]);
  return updated;
}

export interface PaymentMove extends Mover {
  failure_reason?: string | undefined;
  /** The provider's id of the charge, when the move reveals or confirms it. */
  provider_reference?: string | null | undefined;
  /** Refuses before the machine is asked, for rules that are not state moves. */
  guard?: (before: PaymentDoc) => void;
  /**
   * A provider notification may arrive more than once: when the payment already is where the
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
export async function movePayment(
  ctx: PaymentContext,
  id: string,
  action: PaymentAction,
  mover: PaymentMove,
): Promise<PaymentDoc> {
  const result = await ctx.store.serialize(ctx.payments, id, async () => {
    const before = await findPayment(ctx, id);
    mover.guard?.(before);
    if (mover.idempotent && before.status === targetOf(PAYMENT_MACHINE, action)) {
      return { updated: before, message: undefined };
    }
    const next = applyMove(PAYMENT_MACHINE, before.status, action);
    const now = new Date();
    const change: Partial<PaymentDoc> = {
      status: next,
      updated_at: now,
      decided_by: mover.actor,
      deadline_at: deadlineFor(PAYMENT_MACHINE, next, now),
      ...(action === 'complete'
        ? { completed_at: now, failure_reason: null }
        : { failure_reason: mover.failure_reason ?? 'failed' }),
      ...(mover.provider_reference ? { provider_reference: mover.provider_reference } : {}),
    };
    const after = paymentView({ ...before, ...change });
    const audit: AuditRecord = {
      actor: mover.actor,
      action: PAYMENT_AUDIT_ACTIONS[action],
      target_type: 'payment',
      target_id: id,
      at: now,
      request_id: mover.call_request_id,
      before: paymentView(before),
      after,
    };
    const message = moveMessage(PAYMENT_MACHINE.events[action], before.request_id, after, audit);
    const updated = await ctx.payments.findOneAndUpdate(
      { _id: id, status: before.status },
      pushOutbox({ $set: change }, [message]),
      { returnDocument: 'after' },
    );
    if (!updated) {
      throw changedMeanwhile(PAYMENT_MACHINE, (await findPayment(ctx, id)).status, action);
    }
    return { updated, message };
  });
  if (result.message) await ctx.publish(ctx.payments, id, [result.message]);
  return result.updated;
}
