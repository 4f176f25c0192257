import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { EVENTS_STREAM } from '@handoff/contracts';
import { createLogger } from '@handoff/observability';
import { natsOptions } from '@handoff/testkit';
import { z } from 'zod';
import {
  BusError,
  connectBus,
  endpoint,
  endpointsOf,
  ensureStreams,
  callSubject,
  currentOperation,
  serve,
  type Bus,
  type Served,
  type SubjectCallOptions,
} from '../src/index.ts';

const logger = createLogger({ service: 'bus-test', version: '0', level: 'silent' });
let bus: Bus;
let served: Served;
const seen: (string | null)[] = [];
const operations: (string | undefined)[] = [];

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
        // What code below the handler reads, after an await as it would be.
        await Promise.resolve();
        operations.push(currentOperation());
        return { sum: a + b };
      }),
      missing: endpoint(z.unknown(), async () => {
        throw new BusError('request_not_found', 'no such thing');
      }),
      closed: endpoint(z.unknown(), async () => {
        throw new BusError('request_closed', 'The request is completed.', {
          details: { current_state: 'completed' },
        });
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
/** A bus call to `subject` that expects a Sum back within 2 s, unless `options` say otherwise. */
const sum = (
  subject: string,
  payload: unknown,
  options: Partial<SubjectCallOptions<z.ZodType>> = {},
) => callSubject(bus.nc, subject, payload, { timeoutMs: 2_000, reply: Sum, ...options });

describe('request-reply', () => {
  it('answers and carries the request id to the handler', async () => {
    await expect(sum('test.bus.add', { a: 2, b: 3 }, { callId: 'rid-12345678' })).resolves.toEqual({
      sum: 5,
    });
    expect(seen).toContain('rid-12345678');
  });

  it("carries the caller's operation to the code under the handler, and none when not named", async () => {
    operations.length = 0;
    await sum('test.bus.add', { a: 1, b: 1 }, { operation: 'op_abc' });
    await sum('test.bus.add', { a: 1, b: 2 });
    expect(operations).toEqual(['op_abc', undefined]);
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
      error: { code: 'request_not_found', message: 'no such thing', retryable: false },
    },
    {
      what: 'turns no responders into a retryable service_unavailable error',
      subject: 'test.bus.nobody',
      timeoutMs: 500,
      error: {
        code: 'service_unavailable',
        message: 'test.bus.nobody: no responders',
        retryable: true,
      },
    },
  ])('$what', async ({ subject, timeoutMs, error }) => {
    await expect(sum(subject, null, { timeoutMs })).rejects.toMatchObject(error);
  });

  it('answers with the code of the catalogue: its status, `<code>: <message>` and the details', async () => {
    const reply = await bus.nc.request('test.bus.closed', 'null', { timeout: 2_000 });
    expect(reply.headers?.get('Nats-Service-Error-Code')).toBe('409');
    expect(reply.headers?.get('Nats-Service-Error')).toBe(
      'request_closed: The request is completed.',
    );
    await expect(sum('test.bus.closed', null)).rejects.toMatchObject({
      code: 'request_closed',
      status: 409,
      message: 'The request is completed.',
      details: { current_state: 'completed' },
      retryable: false,
    });
  });

  it('answers a payload that is no JSON with validation_failed and its status', async () => {
    const reply = await bus.nc.request('test.bus.add', '{', { timeout: 2_000 });
    expect(reply.headers?.get('Nats-Service-Error-Code')).toBe('422');
    expect(reply.headers?.get('Nats-Service-Error')).toBe('validation_failed: payload is not JSON');
  });

  it('hides an unexpected error behind internal_error', async () => {
    const failure = sum('test.bus.broken', null);
    await expect(failure).rejects.toMatchObject({ code: 'internal_error' });
    await expect(failure).rejects.not.toThrow(/hunter2/);
  });

  it('turns a request nobody answers in time into a retryable service_unavailable error', async () => {
    // Subscribed, so the request has a responder, but never answered.
    const silent = bus.nc.subscribe('test.bus.silent');
    await bus.nc.flush();
    try {
      await expect(sum('test.bus.silent', null, { timeoutMs: 200 })).rejects.toMatchObject({
        code: 'service_unavailable',
        message: 'test.bus.silent: timed out',
        retryable: true,
      });
    } finally {
      silent.unsubscribe();
    }
  });

  it('rejects a reply that does not match the expected schema', async () => {
    const Total = z.object({ total: z.number() });
    await expect(sum('test.bus.add', { a: 1, b: 1 }, { reply: Total })).rejects.toMatchObject({
      code: 'internal_error',
    });
  });
});

describe('endpointsOf', () => {
  it('makes one table of the groups, and refuses an operation that two of them implement', () => {
    const group = (name: string) => (ctx: { n: number }) => ({
      [name]: endpoint(z.unknown(), async () => ctx.n),
    });
    expect(Object.keys(endpointsOf({ n: 1 }, [group('a'), group('b')]))).toEqual(['a', 'b']);
    expect(() => endpointsOf({ n: 1 }, [group('a'), group('a')])).toThrow('a is implemented twice');
  });
});

describe('BusError.fromReply', () => {
  it('reads a code of the catalogue with its message and details', () => {
    const error = BusError.fromReply(404, 'milestone_not_found: No such milestone.', { a: 1 });
    expect(error).toMatchObject({
      code: 'milestone_not_found',
      message: 'No such milestone.',
      details: { a: 1 },
      status: 404,
    });
  });

  it.each([
    { status: 409, description: 'conflict: something', code: 'internal_error' },
    { status: 500, description: 'no code at all', code: 'internal_error' },
    { status: 503, description: 'no responders', code: 'service_unavailable' },
  ])('makes $description ($status) $code, keeping the whole description', (reply) => {
    expect(BusError.fromReply(reply.status, reply.description)).toMatchObject({
      code: reply.code,
      message: reply.description,
      retryable: reply.code === 'service_unavailable',
    });
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
