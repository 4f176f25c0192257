import { BusError, call, implement, type Endpoint } from '@handoff/bus';
import {
  DEFAULT_CURRENCY,
  deadlineFor,
  isRequestClosed,
  newId,
  paymentOps,
  REQUEST_CLOSED,
  requestClosedDetail,
  requestOps,
} from '@handoff/contracts';
import {
  createdEarlier,
  creatingOperation,
  domainEvent,
  minorUnits,
  type OutboxMessage,
  withOutbox,
} from '@handoff/runtime';
import { byKeyWhere } from '@handoff/store';
import { moveRequest } from './moves.ts';
import { DECISION_ACTIONS, PAYMENT_REQUEST_MACHINE } from '../domain/states.ts';
import { paymentRequestView, type PaymentRequestDoc } from '../store/payment-requests.ts';
import { listPage } from '../store/queries.ts';
import type { PaymentContext } from './context.ts';
import { afterApproval } from './payments.ts';

/** Most approved payment requests that one request's list returns (the oldest ones). */
export const APPROVED_LIST_LIMIT = 1_000;

/** How long intake may take to answer a status read. */
const STATUS_TIMEOUT_MS = 5_000;

/** 409 `request_closed` when the request is completed or cancelled (a fresh read from intake). */
export async function refuseClosedRequest(ctx: PaymentContext, requestId: string): Promise<void> {
  const { status } = await call(
    ctx.bus.nc,
    requestOps.status,
    { request_id: requestId },
    { timeoutMs: STATUS_TIMEOUT_MS },
  );
  if (isRequestClosed(status)) {
    throw new BusError(REQUEST_CLOSED, requestClosedDetail(status), {
      details: { current_state: status },
    });
  }
}

/** Payment requests: agents propose, staff approve or reject, the deadline sweep expires. */
export function paymentRequestEndpoints(ctx: PaymentContext): Record<string, Endpoint> {
  const { requests } = ctx;
  return {
    ...implement(paymentOps.create, async ({ request_id, integration_id, input }) => {
      // A retry whose first answer was lost: the payment request that attempt made.
      const earlier = await createdEarlier(requests);
      if (earlier && earlier.request_id === request_id) return paymentRequestView(earlier);
      const currency = input.currency ?? DEFAULT_CURRENCY;
      const now = new Date();
      const status = PAYMENT_REQUEST_MACHINE.initial;
      const doc: PaymentRequestDoc = {
        _id: newId('prq'),
        request_id,
        integration_id,
        amount_minor: minorUnits(input.amount, currency),
        currency,
        description: input.description,
        reference: input.reference ?? null,
        status,
        rejection_reason: null,
        created_at: now,
        decided_at: null,
        decided_by: null,
        deadline_at: deadlineFor(PAYMENT_REQUEST_MACHINE, status, now),
        ...creatingOperation(),
      };
      const view = paymentRequestView(doc);
      const type = PAYMENT_REQUEST_MACHINE.created_event;
      const messages: OutboxMessage[] = type
        ? [domainEvent(type, request_id, view, integration_id)]
        : [];
      await requests.insertOne(withOutbox(doc, messages));
      await ctx.publish(requests, doc._id, messages);
      return view;
    }),

    ...implement(paymentOps.listApproved, async ({ request_id }) => {
      const rows = await requests
        // By the request's payment requests, then their status: never every approved one.
        .find(byKeyWhere<PaymentRequestDoc>({ request_id }, { status: 'approved' }))
        .sort({ _id: 1 })
        .limit(APPROVED_LIST_LIMIT + 1)
        .toArray();
      return {
        object: 'list' as const,
        data: rows.slice(0, APPROVED_LIST_LIMIT).map(paymentRequestView),
        has_more: rows.length > APPROVED_LIST_LIMIT,
      };
    }),

    ...implement(paymentOps.getForRequest, async ({ id, request_id }) => {
      const doc = await requests.findOne({ _id: id, request_id });
      if (!doc) throw new BusError('payment_request_not_found', 'No such payment request.');
      return paymentRequestView(doc);
    }),

    ...implement(paymentOps.decide, async ({ id, decision, actor }, { callId: call_id }) => {
      const action = DECISION_ACTIONS[decision.decision];
      const updated = await moveRequest(ctx, id, action, {
        actor,
        call_id,
        reason: decision.reason,
        // Money never moves for a closed request: its status is read fresh from intake in the
        // payment request's turn. A rejection stays possible, it moves no money.
        ...(action === 'approve'
          ? { guard: (before) => refuseClosedRequest(ctx, before.request_id) }
          : {}),
      });
      if (action === 'approve') await afterApproval(ctx, updated);
      return paymentRequestView(updated);
    }),

    ...implement(paymentOps.list, (query) => listPage(requests, query, paymentRequestView)),
  };
}
