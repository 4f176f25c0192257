import { describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { BENCH_WEBHOOK_SETTINGS } from '../src/fixtures/gateway-stack.ts';
import type { Received } from '@handoff/testkit';
import { sampleEnvelope } from '../src/fixtures/webhook-events.ts';
import { RATIOS, scenarios } from '../src/scenarios/index.ts';
import { SHARED_STACK_ORDER } from './support/order.ts';
import { RAW_POST_CONNECTIONS } from '../src/scenarios/raw-http-post.ts';
import {
  eventsInFlight,
  PEAK_DELIVERIES_IN_FLIGHT,
  verifyDelivery,
  WEBHOOK_ENDPOINT_COUNTS,
} from '../src/scenarios/webhook-deliveries.ts';

const secret = () => `whsec_${randomBytes(32).toString('base64')}`;
const EVENT_ID = 'evt_01JBENCHRAWHTTPPOST0000000';

/** A delivery signed with `key` as the dispatcher signs one. */
function signed(key: string, body = sampleEnvelope(), id = EVENT_ID): Received {
  const at = new Date();
  return {
    path: '/hook/0',
    headers: {
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1_000)),
      'webhook-signature': new Webhook(key).sign(id, at, body),
    },
    body,
    receivedAt: 0n,
  };
}

describe('verifyDelivery', () => {
  it('accepts a request.created envelope signed with the endpoint secret', () => {
    const key = secret();
    expect(() => verifyDelivery(new Webhook(key), signed(key))).not.toThrow();
  });

  it('fails on another secret, a changed body or a missing header', () => {
    const key = secret();
    expect(() => verifyDelivery(new Webhook(secret()), signed(key))).toThrow(
      /signature check failed/,
    );
    const delivery = signed(key);
    expect(() =>
      verifyDelivery(new Webhook(key), { ...delivery, body: delivery.body.replace('1', '2') }),
    ).toThrow(/signature check failed/);
    const unsigned = { ...delivery.headers };
    delete unsigned['webhook-signature'];
    expect(() => verifyDelivery(new Webhook(key), { ...delivery, headers: unsigned })).toThrow(
      /without a webhook-signature header/,
    );
  });

  it('fails on a signed body that is not the event under its webhook-id', () => {
    const key = secret();
    expect(() =>
      verifyDelivery(new Webhook(key), signed(key, sampleEnvelope(), 'evt_other')),
    ).toThrow(/under webhook-id evt_other/);
    expect(() => verifyDelivery(new Webhook(key), signed(key, '{"id":"x"}'))).toThrow(
      /not an event envelope/,
    );
  });
});

describe('the webhook scenarios', () => {
  it('keep four times the dispatcher slots of deliveries in flight at the peak, at least one event', () => {
    expect(BENCH_WEBHOOK_SETTINGS.WEBHOOK_CONCURRENCY).toBe('32');
    expect(PEAK_DELIVERIES_IN_FLIGHT).toBe(128);
    expect(eventsInFlight(1)).toBe(128);
    expect(eventsInFlight(10)).toBe(13);
    expect(eventsInFlight(100)).toBe(2);
    expect(eventsInFlight(1_000)).toBe(1);
    for (const endpoints of WEBHOOK_ENDPOINT_COUNTS) {
      expect(eventsInFlight(endpoints) * endpoints).toBeGreaterThanOrEqual(128);
    }
  });

  it('are measured at 1, 10 and 100 endpoints on the shared stack, last, each against raw-http-post', () => {
    // Last on the shared stack in a run without BENCH_ONLY (the groups run only when named;
    // the telemetry cost's, routing, file-upload-rss and the -r3 scenarios after them run on
    // stacks of their own), with the latency at half the peak after the peaks it is measured at.
    const registered = scenarios({ logLevel: 'warn' }).filter(
      (scenario) =>
        scenario.group === undefined &&
        !scenario.name.endsWith('-r3') &&
        !/-telemetry-(on|off)$/.test(scenario.name) &&
        scenario.name !== 'routing' &&
        scenario.name !== 'file-upload-rss',
    );
    const names = registered.map((scenario) => scenario.name);
    expect(names.slice(-6)).toEqual(SHARED_STACK_ORDER.slice(-6));
    const stack = registered.find((scenario) => scenario.name === 'gateway-readyz')?.uses?.[0];
    for (const scenario of registered.slice(-6)) {
      expect(scenario.uses?.[0]).toBe(stack);
    }
    const raw = registered.find((scenario) => scenario.name === 'raw-http-post');
    expect(raw?.connections).toBe(RAW_POST_CONNECTIONS);
    expect(RAW_POST_CONNECTIONS).toBe(32);
    expect(raw?.uses).toBeUndefined();
    expect(
      RATIOS.filter((ratio) => ratio.baseline === 'raw-http-post').map((ratio) => ratio.subject),
    ).toEqual(['webhook-deliveries-1', 'webhook-deliveries-10', 'webhook-deliveries-100']);
    expect(RATIOS.find((ratio) => ratio.subject === 'webhook-deliveries-1-slow20')?.baseline).toBe(
      'webhook-deliveries-1',
    );
  });
});
