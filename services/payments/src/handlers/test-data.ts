// `test_data.purge`: intake deletes an integration's test data; here, its requests' payment
// requests and payments (test payments never reach a real payment processor). The audit log
// keeps what staff decided on them.
import { implement, type Endpoint } from '@handoff/bus';
import { testDataOps } from '@handoff/contracts';
import { deleteEach } from '@handoff/store';
import type { PaymentContext } from './context.ts';

export function testDataEndpoints(ctx: PaymentContext): Record<string, Endpoint> {
  return implement(testDataOps.payments, async ({ request_ids }) => {
    // Payments first: each points at its payment request.
    const payments = await deleteEach(ctx.payments, 'request_id', request_ids);
    const paymentRequests = await deleteEach(ctx.requests, 'request_id', request_ids);
    return { payment_requests: paymentRequests, payments };
  });
}
