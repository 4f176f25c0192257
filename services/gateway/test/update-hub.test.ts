import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { natsOptions } from '@handoff/testkit';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { setTimeout as sleep } from 'node:timers/promises';
import { createUpdateHub, type UpdateHub } from '../src/routes/updates.ts';

// The long-polls' hub on a real NATS connection that drops and comes back: core NATS keeps
// nothing for a subscriber that is away, so an event published meanwhile would never wake a
// waiting long-poll (`npm run chaos` saw polls sleep through writes after NATS pauses).

/** Far longer than a reconnect takes; a waiter not woken by it sleeps this whole time. */
const LONG_WAIT_MS = 60_000;

let nc: NatsConnection;
let hub: UpdateHub;

beforeAll(async () => {
  nc = await connect({ ...natsOptions(), name: 'update-hub-test', reconnectTimeWait: 50 });
  hub = createUpdateHub(nc);
});

afterAll(async () => {
  await hub.close();
  await nc.close();
});

describe('a waiting long-poll whose bus connection drops and comes back', () => {
  it('is woken once the connection is back, and knows it may have missed events', async () => {
    const waiter = hub.register('req_hub_reconnect', 'key_hub');
    try {
      expect(waiter.missed).toBe(false);
      const stop = new AbortController();
      const woken = waiter.wait(LONG_WAIT_MS, stop.signal).then(() => 'woken' as const);
      const slept = sleep(LONG_WAIT_MS / 2, 'slept' as const);
      await nc.reconnect();
      const outcome = await Promise.race([woken, slept]);
      stop.abort();
      expect(outcome).toBe('woken');
      expect(waiter.missed).toBe(true);
    } finally {
      waiter.release();
    }
  });

  it('answers a waiter registered afterwards as usual', async () => {
    const waiter = hub.register('req_hub_after', 'key_hub');
    try {
      expect(waiter.missed).toBe(false);
      const stop = new AbortController();
      const woken = waiter.wait(LONG_WAIT_MS, stop.signal).then(() => 'woken' as const);
      const quiet = sleep(500, 'quiet' as const);
      expect(await Promise.race([woken, quiet])).toBe('quiet');
      stop.abort();
      await woken;
    } finally {
      waiter.release();
    }
  });
});
