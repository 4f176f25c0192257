// A test clock's part in payments (test mode): the deadlines of the clock's requests, moved and
// fired by the same code as the deadline sweep, for those requests only.
import { implement, type Endpoint } from '@handoff/bus';
import { paymentsClockOps } from '@handoff/contracts';
import { nextClockDeadline, shiftClockDeadlines, type ClockTracked } from '@handoff/runtime';
import { PAYMENT_MACHINE, PAYMENT_REQUEST_MACHINE } from '../domain/states.ts';
import type { PaymentContext } from './context.ts';
import { sweepDeadlines } from './deadlines.ts';

/** Payment requests (staff's decision) and payments (the processor's report), as a clock reads them. */
const tracked = (ctx: PaymentContext) =>
  [
    { machine: PAYMENT_REQUEST_MACHINE, collection: ctx.requests },
    { machine: PAYMENT_MACHINE, collection: ctx.payments },
  ] as unknown as ClockTracked[];

export function testClockEndpoints(ctx: PaymentContext): Record<string, Endpoint> {
  return {
    ...implement(paymentsClockOps.next, async ({ request_ids }) => ({
      next: await nextClockDeadline(tracked(ctx), request_ids),
    })),
    ...implement(paymentsClockOps.shift, async ({ request_ids, by_ms }) => ({
      shifted: await shiftClockDeadlines(ctx.store, tracked(ctx), request_ids, by_ms),
    })),
    ...implement(paymentsClockOps.fire, async ({ request_ids }) => {
      const { expired, failed } = await sweepDeadlines(ctx, new Date(), request_ids);
      return { fired: expired + failed };
    }),
  };
}
