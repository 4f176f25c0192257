import { describe, expect, it } from '@jest/globals';
import { createLogger } from '@handoff/observability';
import { eventually } from '@handoff/testkit';
import type { JsMsg } from '@nats-io/jetstream';
import { useJetStream } from './support/jetstream.ts';
import {
  BusError,
  consumeDurable,
  isFinalFailure,
  retryDelayMs,
  RETRY_CAP_MS,
  type ConsumeDurableOptions,
} from '../src/index.ts';

const SECOND_NS = 1_000_000_000;
const logger = createLogger({ service: 'consume-test', version: '0', level: 'silent' });
const bus = useJetStream('consume-test');

interface Termination {
  stream_seq: number;
  reason?: string;
}

/**
 * A stream and a durable consumer of their own, with `maxDeliver` deliveries and an ack wait of
 * `ackWaitS`; `publish` adds messages, `terminated` lists the server's termination advisories.
 */
async function durable(options: { maxDeliver?: number; ackWaitS?: number } = {}) {
  const { stream, consumer, subject } = await bus.durable('consume', {
    max_deliver: options.maxDeliver ?? 5,
    ack_wait: (options.ackWaitS ?? 30) * SECOND_NS,
  });
  const terminated: Termination[] = [];
  const advisories = bus.nc.subscribe(
    `$JS.EVENT.ADVISORY.CONSUMER.MSG_TERMINATED.${stream}.${consumer}`,
    {
      callback: (_error, msg) => {
        terminated.push(msg.json<Termination>());
      },
    },
  );
  await bus.nc.flush();
  bus.stops.push(async () => advisories.unsubscribe());
  const start = async (
    handle: ConsumeDurableOptions['handle'],
    extra: Partial<ConsumeDurableOptions> = {},
  ) => {
    const stop = await consumeDurable(bus.js, {
      stream,
      consumer,
      concurrency: 1,
      logger,
      handle,
      ...extra,
    });
    bus.stops.unshift(stop);
    return stop;
  };
  return {
    stream,
    consumer,
    terminated,
    start,
    publish: async (body: string) => (await bus.js.publish(subject, body)).seq,
    settled: (seq: number) =>
      eventually(
        async () => {
          const info = await bus.jsm.consumers.info(stream, consumer);
          return info.ack_floor.stream_seq >= seq && info.num_ack_pending === 0 ? info : undefined;
        },
        { timeoutMs: 30_000, what: `the consumer to settle up to ${seq}` },
      ),
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the retry policy', () => {
  it('doubles the delay from 2 s after the first delivery, up to 30 s', () => {
    expect([1, 2, 3, 4, 5, 6, 10].map(retryDelayMs)).toEqual([
      2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000,
    ]);
    expect(RETRY_CAP_MS).toBe(30_000);
  });

  it('gives up at once only on a refusal on the merits', () => {
    expect(isFinalFailure(new BusError('validation_failed', 'not JSON'))).toBe(true);
    expect(isFinalFailure(new BusError('not_found', 'no such request'))).toBe(true);
    expect(isFinalFailure(new BusError('service_unavailable', 'intake is down'))).toBe(false);
    expect(isFinalFailure(new BusError('internal_error', 'a bug'))).toBe(false);
    expect(isFinalFailure(new Error('connection reset'))).toBe(false);
  });
});

describe('consumeDurable', () => {
  it('acknowledges a message once its handler succeeds', async () => {
    const d = await durable();
    const seen: string[] = [];
    await d.start(async (msg) => {
      seen.push(msg.string());
    });
    const seq = await d.publish('one');
    await d.publish('two');
    const info = await d.settled(seq + 1);
    expect(seen).toEqual(['one', 'two']);
    expect(info.num_redelivered).toBe(0);
    expect(d.terminated).toEqual([]);
  });

  it('hands a retryable failure back with the policy delay, then acknowledges it', async () => {
    const d = await durable();
    const deliveries: { count: number; at: number }[] = [];
    await d.start(async (msg) => {
      deliveries.push({ count: msg.info.deliveryCount, at: performance.now() });
      if (msg.info.deliveryCount === 1) throw new BusError('service_unavailable', 'try later');
    });
    const seq = await d.publish('flaky');
    await d.settled(seq);
    expect(deliveries.map((d) => d.count)).toEqual([1, 2]);
    const [first, second] = deliveries;
    // Lower bound only: the server holds the message at least the policy's delay.
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(retryDelayMs(1) - 50);
    expect(d.terminated).toEqual([]);
  });

  it('hands a message back unhandled until it is due, then handles it once', async () => {
    const d = await durable();
    const dueAt = Date.now() + 1_000;
    const handled: number[] = [];
    await d.start(
      async () => {
        handled.push(Date.now());
      },
      { dueInMs: () => dueAt - Date.now() },
    );
    const info = await d.settled(await d.publish('later'));
    expect(handled).toHaveLength(1);
    expect(handled[0]).toBeGreaterThanOrEqual(dueAt - 50);
    expect(info.num_redelivered).toBe(0);
    expect(d.terminated).toEqual([]);
  });

  it('acknowledges a message it does not take without handling it, and handles the rest', async () => {
    const d = await durable();
    const handled: string[] = [];
    await d.start(
      async (msg) => {
        handled.push(msg.string());
      },
      { takes: (msg) => msg.string() !== 'skip' },
    );
    await d.publish('first');
    await d.publish('skip');
    const info = await d.settled(await d.publish('last'));
    expect(handled).toEqual(['first', 'last']);
    expect(info.num_redelivered).toBe(0);
    expect(d.terminated).toEqual([]);
  });

  it('gives a message up when deciding whether to take it fails on the merits', async () => {
    const d = await durable();
    const handled: string[] = [];
    await d.start(
      async (msg) => {
        handled.push(msg.string());
      },
      {
        takes: (msg) => {
          if (msg.string() === 'poison') throw new BusError('validation_failed', 'not an event');
          return true;
        },
      },
    );
    await d.publish('poison');
    await d.settled(await d.publish('fine'));
    expect(handled).toEqual(['fine']);
    await eventually(() => (d.terminated.length === 1 ? d.terminated : undefined), {
      what: 'the poison message terminated',
    });
    expect(d.terminated[0]?.reason).toBe('not an event');
  });

  it('tries an internal error again rather than giving up', async () => {
    const d = await durable();
    let calls = 0;
    await d.start(async () => {
      calls += 1;
      if (calls === 1) throw new BusError('internal_error', 'a hiccup');
    });
    await d.settled(await d.publish('x'));
    expect(calls).toBe(2);
  });

  it('terminates a poison message at its first delivery, with the reason', async () => {
    const d = await durable();
    let calls = 0;
    await d.start(async (msg) => {
      calls += 1;
      try {
        msg.json();
      } catch {
        throw new BusError('validation_failed', 'not JSON');
      }
    });
    const seq = await d.publish('{');
    await eventually(() => (d.terminated.length > 0 ? true : undefined), {
      timeoutMs: 30_000,
      what: 'the termination advisory',
    });
    expect(d.terminated).toEqual([expect.objectContaining({ stream_seq: seq })]);
    expect(d.terminated[0]?.reason).toMatch(/not JSON/);
    await d.settled(seq);
    expect(calls).toBe(1);
  });

  it('parks a poison message before terminating it, and retries a park that failed', async () => {
    const d = await durable();
    const parked: { body: string; reason: string }[] = [];
    let parks = 0;
    await d.start(
      async () => {
        throw new BusError('validation_failed', 'not an event envelope');
      },
      {
        park: async (msg: JsMsg, reason: string) => {
          parks += 1;
          if (parks === 1) throw new Error('database down');
          parked.push({ body: msg.string(), reason });
        },
      },
    );
    const seq = await d.publish('{"not":"an event"}');
    await eventually(() => (d.terminated.length > 0 ? true : undefined), {
      timeoutMs: 30_000,
      what: 'the termination advisory',
    });
    expect(parks).toBe(2);
    expect(parked).toEqual([{ body: '{"not":"an event"}', reason: 'not an event envelope' }]);
    expect(d.terminated).toEqual([expect.objectContaining({ stream_seq: seq })]);
  });

  it('gives up when the last of max_deliver deliveries fails, and parks it', async () => {
    const d = await durable({ maxDeliver: 3 });
    const counts: number[] = [];
    const parked: string[] = [];
    await d.start(
      async (msg) => {
        counts.push(msg.info.deliveryCount);
        throw new BusError('service_unavailable', 'still down');
      },
      {
        park: async (_msg, reason) => {
          parked.push(reason);
        },
      },
    );
    const seq = await d.publish('doomed');
    await eventually(() => (d.terminated.length > 0 ? true : undefined), {
      timeoutMs: 60_000,
      what: 'the termination advisory',
    });
    expect(counts).toEqual([1, 2, 3]);
    expect(parked).toEqual([expect.stringMatching(/^gave up after 3 deliveries: .*still down/)]);
    expect(d.terminated).toEqual([expect.objectContaining({ stream_seq: seq })]);
  });

  it('keeps at most `concurrency` handlers at work', async () => {
    const d = await durable();
    let working = 0;
    let most = 0;
    let done = 0;
    await d.start(
      async () => {
        working += 1;
        most = Math.max(most, working);
        await sleep(100);
        working -= 1;
        done += 1;
      },
      { concurrency: 3 },
    );
    let last = 0;
    for (let i = 0; i < 12; i += 1) last = await d.publish(`m${i}`);
    await d.settled(last);
    expect(done).toBe(12);
    expect(most).toBe(3);
  });

  it('reports a slow handler in progress, so its message is not handed out again', async () => {
    const d = await durable({ ackWaitS: 1 });
    const counts: number[] = [];
    await d.start(async (msg) => {
      counts.push(msg.info.deliveryCount);
      // Three ack waits long.
      await sleep(3_000);
    });
    await d.settled(await d.publish('slow'));
    expect(counts).toEqual([1]);
  });

  it('logs a message whose handler is still at work after `longHandlingMs`, once', async () => {
    const d = await durable({ ackWaitS: 1 });
    const lines: Record<string, unknown>[] = [];
    const watched = createLogger({
      service: 'consume-test',
      version: '0',
      level: 'warn',
      destination: { write: (line: string) => void lines.push(JSON.parse(line)) },
    });
    await d.start(
      async () => {
        await sleep(1_500);
      },
      { logger: watched, longHandlingMs: 500 },
    );
    const seq = await d.publish('long');
    await d.settled(seq);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'warn',
        msg: 'message still at work; held from every other replica meanwhile',
        consumer: d.consumer,
        seq,
        deliveries: 1,
        handling_ms: expect.any(Number),
      }),
    ]);
    expect(lines[0]?.handling_ms).toBeGreaterThanOrEqual(500);
  });

  it('waits for the handlers at work when stopped', async () => {
    const d = await durable();
    let finished = false;
    let started: () => void = () => undefined;
    const running = new Promise<void>((resolve) => (started = resolve));
    const stop = await d.start(async () => {
      started();
      await sleep(300);
      finished = true;
    });
    const seq = await d.publish('x');
    await running;
    bus.stops.splice(bus.stops.indexOf(stop), 1);
    await stop();
    expect(finished).toBe(true);
    await d.settled(seq);
  });
});
