// A test clock's operations on intake: the requests made on a clock, and the response windows of
// their offers, moved earlier and lapsed as the lapse queue would.
import { describe, expect, it } from '@jest/globals';
import {
  intakeClockOps,
  newId,
  requestOps,
  routingOps,
  SIMULATED_PROVIDER_ID,
} from '@handoff/contracts';
import { eventually } from '@handoff/testkit';
import { createRequest, requestEvents, token, useIntake } from './support/stack.ts';

const intake = useIntake('intake_clocks');
const clock = newId('clk');

const offered = (id: string) =>
  eventually(
    async () => {
      const request = await intake.call(routingOps.get, { id });
      return request.automatic_routing.state === 'offered' ? request : undefined;
    },
    { what: `the offer of ${id}` },
  );

describe('test clocks on intake', () => {
  it('lists the test requests made on a clock, and moves and lapses their offers', async () => {
    const onClock = await createRequest(intake.nc, { test_clock: clock });
    const stored = await intake.call(routingOps.get, { id: onClock.id });
    expect(stored).toMatchObject({ test_clock: null, livemode: true });
    // Only a test request keeps its clock (the gateway refuses it from a live key anyway).
    const test = await intake.call(requestOps.create, {
      integration_id: 'int_a',
      token_hash: token,
      input: { message: 'Need help', test_clock: clock },
      livemode: false,
    });
    expect(test).toMatchObject({ test_clock: clock, livemode: false });
    expect(
      await intake.call(intakeClockOps.requests, { integration_id: 'int_a', test_clock: clock }),
    ).toEqual({ request_ids: [test.id] });
    expect(
      await intake.call(intakeClockOps.requests, { integration_id: 'int_b', test_clock: clock }),
    ).toEqual({ request_ids: [] });

    // The simulated provider is offered it and (with no test mode running here) never answers.
    const before = await offered(test.id);
    const [offer] = before.automatic_routing.offers;
    expect(offer).toMatchObject({ provider_id: SIMULATED_PROVIDER_ID, status: 'pending' });
    const scope = { request_ids: [test.id] };
    const { next } = await intake.call(intakeClockOps.next, scope);
    expect(next).toMatchObject({ resource: 'routing_offer', id: offer?.id, request_id: test.id });

    expect(await intake.call(intakeClockOps.fire, scope)).toEqual({ fired: 0 });
    expect(await intake.call(intakeClockOps.shift, { ...scope, by_ms: next?.in_ms ?? 0 })).toEqual({
      shifted: 1,
    });
    const moved = await intake.call(routingOps.get, { id: test.id });
    expect(Date.parse(moved.automatic_routing.offers[0]?.respond_by ?? '')).toBe(
      Date.parse(offer?.respond_by ?? '') - (next?.in_ms ?? 0),
    );

    expect(await intake.call(intakeClockOps.fire, scope)).toEqual({ fired: 1 });
    const lapsed = await intake.call(routingOps.get, { id: test.id });
    expect(lapsed.automatic_routing.offers[0]).toMatchObject({ status: 'lapsed' });
    expect(await intake.call(intakeClockOps.next, scope)).toEqual({ next: null });
    await eventually(
      async () =>
        (await requestEvents(intake.nc, test.id)).some(
          (event) => event.type === 'request.updated' && event.data.object.status === 'submitted',
        ) || undefined,
      { what: 'the request.updated of the lapse' },
    );
  });
});
