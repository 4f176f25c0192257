import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { EVENTS_STREAM } from '@handoff/contracts';
import { createLogger } from '@handoff/observability';
import { natsOptions } from '@handoff/testkit';
import { z } from 'zod';
import {
  BusError,
  connectBus,
  endpoint,
  ensureStreams,
  request,
  serve,
  type Bus,
  type Served,
} from '../src/index.ts';

const logger = createLogger({ service: 'bus-test', version: '0', level: 'silent' });
let bus: Bus;
let served: Served;
const seen: (string | null)[] = [];

beforeAll(async () => {
  const { servers, user, pass } = natsOptions();
  // The test user: these endpoints (test.bus.*) belong to no service.
  bus = await connectBus({ url: servers, user, password: pass, name: 'bus-test', logger });
  served = await serve(bus.nc, {
    name: 'bus-test',
    version: '0.0.1',
    description: 'test endpoints',
    group: 'test.bus',
    logger,
    endpoints: {
      add: endpoint(z.object({ a: z.number(), b: z.number() }), async ({ a, b }, ctx) => {
        seen.push(ctx.callId);
        return { sum: a + b };
      }),
      missing: endpoint(z.unknown(), async () => {
        throw new BusError('not_found', 'no such thing');
      }),
      broken: endpoint(z.unknown(), async () => {
        throw new Error('secret internals /var/lib/db password=hunter2');
      }),
    },
  });
});

afterAll(async () => {
  await served.stop();
  await bus.nc.close();
});

const Sum = z.object({ sum: z.number() });
/** A request to `subject` that expects a Sum back. */
const sum = (subject: string, payload: unknown, timeoutMs = 2_000) =>
  request(bus.nc, subject, payload, { timeoutMs, reply: Sum });

describe('request-reply', () => {
  it('answers and carries the request id to the handler', async () => {
    await expect(
      request(
        bus.nc,
        'test.bus.add',
        { a: 2, b: 3 },
        { timeoutMs: 2_000, reply: Sum, callId: 'rid-12345678' },
      ),
    ).resolves.toEqual({ sum: 5 });
    expect(seen).toContain('rid-12345678');
  });

  it('refuses input that does not match the endpoint schema', async () => {
    await expect(sum('test.bus.add', { a: 'two' })).rejects.toMatchObject({
      code: 'validation_failed',
    });
  });

  it.each([
    {
      what: 'carries a handler BusError code and message back to the caller',
      subject: 'test.bus.missing',
      timeoutMs: 2_000,
      error: { code: 'not_found', message: 'no such thing', retryable: false },
    },
    {
      what: 'turns no responders into a retryable unavailable error',
      subject: 'test.bus.nobody',
      timeoutMs: 500,
      error: { code: 'unavailable', message: 'test.bus.nobody: no responders', retryable: true },
    },
  ])('$what', async ({ subject, timeoutMs, error }) => {
    await expect(sum(subject, null, timeoutMs)).rejects.toMatchObject(error);
  });

  it('hides an unexpected error behind internal_error', async () => {
    const failure = sum('test.bus.broken', null);
    await expect(failure).rejects.toMatchObject({ code: 'internal_error' });
    await expect(failure).rejects.not.toThrow(/hunter2/);
  });

  it('turns a request nobody answers in time into a retryable unavailable error', async () => {
    // Subscribed, so the request has a responder, but never answered.
    const silent = bus.nc.subscribe('test.bus.silent');
    await bus.nc.flush();
    try {
      await expect(sum('test.bus.silent', null, 200)).rejects.toMatchObject({
        code: 'unavailable',
        message: 'test.bus.silent: timed out',
        retryable: true,
      });
    } finally {
      silent.unsubscribe();
    }
  });

  it('rejects a reply that does not match the expected schema', async () => {
    await expect(
      request(
        bus.nc,
        'test.bus.add',
        { a: 1, b: 1 },
        { timeoutMs: 2_000, reply: z.object({ total: z.number() }) },
      ),
    ).rejects.toMatchObject({ code: 'internal_error' });
  });
});

describe('streams', () => {
  it('creates HANDOFF_EVENTS once and leaves it alone when it matches', async () => {
    await ensureStreams(bus.jsm);
    await ensureStreams(bus.jsm);
    const info = await bus.jsm.streams.info(EVENTS_STREAM.name);
    expect(info.config.subjects).toEqual(['handoff.events.>']);
    expect(info.config.duplicate_window).toBe(EVENTS_STREAM.duplicateWindowMs * 1_000_000);
    expect(info.config.max_age).toBe(EVENTS_STREAM.maxAgeMs * 1_000_000);
  });

  it('drops a second publish with the same Nats-Msg-Id inside the window', async () => {
    await ensureStreams(bus.jsm);
    const first = await bus.js.publish('handoff.events.request.created', '{}', {
      msgID: 'evt_dup_test',
    });
    const second = await bus.js.publish('handoff.events.request.created', '{}', {
      msgID: 'evt_dup_test',
    });
    expect(first.duplicate).toBe(false);
    expect(second.duplicate).toBe(true);
    expect(second.seq).toBe(first.seq);
  });
});
