import { BusError, implement, type Endpoint } from '@handoff/bus';
import { paymentRecordOps } from '@handoff/contracts';
import { paginate } from '@handoff/store';
import type { Filter } from 'mongodb';
import type { PaymentContext } from './context.ts';
import { listDeadlines } from './deadlines.ts';
import { paymentView, type PaymentDoc } from '../store/payments.ts';
import { findPayment, movePayment } from '../domain/moves.ts';
import { applyNotification } from '../domain/payments.ts';

/** Payments (staff's reads and moves), payment processor webhooks, and this service's deadlines. */
export function paymentEndpoints(ctx: PaymentContext): Record<string, Endpoint> {
  return {
    ...implement(paymentRecordOps.list, async (query) => {
      const filter: Filter<PaymentDoc> = {};
      if (query.status) filter.status = query.status;
      if (query.request_id) filter.request_id = query.request_id;
      const page = await paginate(ctx.payments, filter, query);
      return { object: 'list' as const, data: page.data.map(paymentView), has_more: page.has_more };
    }),

    ...implement(paymentRecordOps.get, async ({ id }) => paymentView(await findPayment(ctx, id))),

    ...implement(paymentRecordOps.confirm, async ({ id, actor, reference }, { requestId }) => {
      const moved = await movePayment(ctx, id, 'complete', {
        actor,
        call_request_id: requestId,
        ...(reference ? { provider_reference: reference } : {}),
        guard: (payment) => {
          if (payment.provider !== 'manual') {
            throw new BusError(
              'conflict',
              `This payment goes through ${payment.provider}, which reports its completion itself; staff cannot confirm it.`,
              { details: { code: 'provider_confirms', provider: payment.provider } },
            );
          }
        },
      });
      return paymentView(moved);
    }),

    ...implement(paymentRecordOps.fail, async ({ id, actor, reason }, { requestId }) =>
      paymentView(
        await movePayment(ctx, id, 'fail', {
          actor,
          call_request_id: requestId,
          failure_reason: reason,
        }),
      ),
    ),

    ...implement(paymentRecordOps.stripeWebhook, async ({ payload, signature }) => {
      const { processor } = ctx;
      if (processor.name !== 'stripe' || !processor.parseWebhook) {
        throw new BusError(
          'forbidden',
          'This deployment takes no Stripe webhooks (PAYMENT_PROVIDER is not stripe).',
        );
      }
      return applyNotification(ctx, processor.parseWebhook(payload, signature));
    }),

    ...implement(paymentRecordOps.deadlines, (query) => listDeadlines(ctx, query)),
  };
}
