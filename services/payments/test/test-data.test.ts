// `test_data.purge`: intake's bulk deletion of an integration's test data, this service's part:
// the payment requests and payments of the named requests go, and nothing of any other request.
import { describe, expect, it } from '@jest/globals';
import { call } from '@handoff/bus';
import { testDataOps } from '@handoff/contracts';
import { opts, useStack } from './support/stack.ts';

const stack = useStack('payments_test_data');

const stored = async (request_id: string) => ({
  payment_requests: await stack.rawRequests().countDocuments({ request_id }),
  payments: await stack.rawPayments().countDocuments({ request_id }),
});

const purge = (request_ids: string[]) =>
  call(stack.nc, testDataOps.payments, { request_ids }, opts);

describe('test_data.purge', () => {
  it("deletes the named requests' payment requests and payments, nothing else", async () => {
    const gone = await stack.approvedPayment(10, 'USD', false);
    await stack.createPaymentRequest(gone.requestId);
    const kept = await stack.approvedPayment(10, 'USD');
    expect(await stored(gone.requestId)).toEqual({ payment_requests: 2, payments: 1 });

    expect(await purge([gone.requestId])).toEqual({ payment_requests: 2, payments: 1 });
    expect(await stored(gone.requestId)).toEqual({ payment_requests: 0, payments: 0 });
    expect(await stored(kept.requestId)).toEqual({ payment_requests: 1, payments: 1 });
    // Asked again (a deletion cut short is finished this way): nothing more to delete.
    expect(await purge([gone.requestId])).toEqual({ payment_requests: 0, payments: 0 });
  });
});
