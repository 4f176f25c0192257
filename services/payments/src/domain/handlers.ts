import { BusError, implement, type Endpoint } from '@handoff/bus';
import {
  currencyExponent,
  DEFAULT_CURRENCY,
  newId,
  paymentOps,
  toMinorUnits,
} from '@handoff/contracts';
import type { Logger } from '@handoff/observability';
import {
  auditMessage,
  domainEvent,
  type AuditRecord,
  type Outbox,
  type OutboxDocument,
  type OutboxMessage,
} from '@handoff/runtime';
import { paginate, type Store } from '@handoff/store';
import type { Collection } from 'mongodb';
import { paymentRequestView, type PaymentRequestDoc } from './documents.ts';
import { illegalMove } from './states.ts';

/** Most approved payment requests that one request's list returns (the oldest ones). */
export const APPROVED_LIST_LIMIT = 1_000;

export const PAYMENT_REQUESTS = 'payment_requests';

export function paymentRequests(store: Store): Collection<PaymentRequestDoc> {
  return store.db.collection<PaymentRequestDoc>(PAYMENT_REQUESTS);
}

/** Collections whose documents carry outbox messages, for the outbox sweep. */
export function paymentOutboxCollections(store: Store): Collection<OutboxDocument>[] {
  return [store.db.collection<OutboxDocument>(PAYMENT_REQUESTS)];
}

function decimalsAllowed(currency: string, exponent: number): string {
  return exponent === 0
    ? `${currency} has no minor unit, so the amount must be a whole number`
    : `${currency} allows at most ${exponent} decimal place${exponent === 1 ? '' : 's'}`;
}

/**
 * The amount in integer minor units. The gateway checks precision too, but this is the last
 * line before storage: a float must never reach the database.
 */
function minorUnits(amount: number, currency: string): number {
  const exponent = currencyExponent(currency);
  if (exponent === undefined) {
    throw new BusError('validation_failed', `${currency} is not a known currency.`, {
      details: {
        errors: [{ pointer: '/currency', code: 'invalid_currency', detail: 'unknown currency' }],
      },
    });
  }
  const minor = toMinorUnits(amount, currency);
  // A positive amount far below the smallest unit rounds to 0 within toMinorUnits' tolerance.
  if (minor === undefined || minor < 1) {
    const detail =
      minor === undefined
        ? `amount ${amount} is too precise: ${decimalsAllowed(currency, exponent)}.`
        : `amount ${amount} is below the smallest unit of ${currency} (${10 ** -exponent}).`;
    throw new BusError('validation_failed', detail, {
      details: {
        errors: [{ pointer: '/amount', code: 'invalid_precision', detail }],
        currency,
        max_decimals: exponent,
      },
    });
  }
  return minor;
}

export interface PaymentDeps {
  store: Store;
  logger: Logger;
  outbox: Outbox;
}

export function paymentEndpoints(deps: PaymentDeps): Record<string, Endpoint> {
  const requests = paymentRequests(deps.store);
  const outboxCollection = requests as unknown as Collection<OutboxDocument>;
  const publish = (id: string, messages: OutboxMessage[]) =>
    deps.outbox.publish(outboxCollection, id, messages).catch((error: unknown) => {
      // The sweep publishes it later; the caller's change is already durable.
      deps.logger.warn(
        { err: error, document_id: id },
        'outbox publish failed; left for the sweep',
      );
    });

  const findRequest = async (id: string) => {
    const doc = await requests.findOne({ _id: id });
    if (!doc) throw new BusError('not_found', 'No such payment request.');
    return doc;
  };

  return {
    ...implement(paymentOps.create, async ({ request_id, integration_id, input }) => {
      const currency = input.currency ?? DEFAULT_CURRENCY;
      const doc: PaymentRequestDoc = {
        _id: newId('prq'),
        request_id,
        integration_id,
        amount_minor: minorUnits(input.amount, currency),
        currency,
        description: input.description,
        reference: input.reference ?? null,
        status: 'pending_approval',
        rejection_reason: null,
        created_at: new Date(),
        decided_at: null,
        decided_by: null,
      };
      const view = paymentRequestView(doc);
      const message = domainEvent('payment.requested', request_id, view);
      await requests.insertOne({ ...doc, outbox: [message] });
      await publish(doc._id, [message]);
      return view;
    }),

    ...implement(paymentOps.listApproved, async ({ request_id }) => {
      const rows = await requests
        .find({ request_id, status: 'approved' })
        .sort({ _id: 1 })
        .limit(APPROVED_LIST_LIMIT + 1)
        .toArray();
      return {
        object: 'list' as const,
        data: rows.slice(0, APPROVED_LIST_LIMIT).map(paymentRequestView),
        has_more: rows.length > APPROVED_LIST_LIMIT,
      };
    }),

    ...implement(paymentOps.decide, async ({ id, decision, actor, request_id: callId }) => {
      const { updated, message } = await deps.store.serialize(requests, id, async () => {
        const before = await findRequest(id);
        if (before.status !== 'pending_approval') {
          throw illegalMove(before.status, decision.decision);
        }
        const now = new Date();
        const change =
          decision.decision === 'approved'
            ? { status: 'approved' as const, decided_at: now, decided_by: actor }
            : {
                status: 'rejected' as const,
                rejection_reason: decision.reason ?? null,
                decided_at: now,
                decided_by: actor,
              };
        const after = paymentRequestView({ ...before, ...change });
        const audit: AuditRecord = {
          actor,
          action: `payment_request.${change.status}`,
          target_type: 'payment_request',
          target_id: id,
          at: now,
          request_id: callId,
          before: paymentRequestView(before),
          after,
        };
        // Approval announces the approved snapshot as `payment.requested` again (spec: "created
        // or approved"). A rejection has no event kind in the spec, so it goes to the audit
        // stream only. Either way the audit entry travels with the message.
        const message: OutboxMessage =
          change.status === 'approved'
            ? { ...domainEvent('payment.requested', before.request_id, after), local: { audit } }
            : auditMessage('payments', 'payment_request.rejected', audit);
        // The status filter makes the decision a compare-and-set on MongoDB; the serializer
        // gives a single replica the same guarantee on FerretDB.
        const updated = await requests.findOneAndUpdate(
          { _id: id, status: 'pending_approval' },
          { $set: change, $push: { outbox: message } },
          { returnDocument: 'after' },
        );
        if (!updated) throw illegalMove((await findRequest(id)).status, decision.decision);
        return { updated, message };
      });
      await publish(id, [message]);
      return paymentRequestView(updated);
    }),

    ...implement(paymentOps.list, async (query) => {
      const filter = query.status ? { status: query.status } : {};
      const page = await paginate(requests, filter, query);
      return {
        object: 'list' as const,
        data: page.data.map(paymentRequestView),
        has_more: page.has_more,
      };
    }),
  };
}
