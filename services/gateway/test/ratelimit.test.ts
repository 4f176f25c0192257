import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { RATE_LIMIT_STREAM } from '@handoff/contracts';
import { natsOptions } from '@handoff/testkit';
import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { randomBytes } from 'node:crypto';
import {
  createRateLimiter,
  ensureRateLimitStream,
  keyToken,
  MAX_WINDOW_SECONDS,
  rateLimitHeaders,
  type RateLimitPolicy,
  type RateLimitResult,
} from '../src/ratelimit.ts';

const NAME = RATE_LIMIT_STREAM.name;
// Fixed clock: 15 s into a 60 s window.
const WINDOW_START_MS = 60_000 * 29_000_000;
const at = (offsetMs: number) => () => WINDOW_START_MS + offsetMs;

let nc: NatsConnection;
let other: NatsConnection;
let jsm: JetStreamManager;

// Policy names of their own, so tests never share counters.
const policy = (limit: number, windowSeconds = 60): RateLimitPolicy => ({
  name: `t${randomBytes(4).toString('hex')}`,
  limit,
  windowSeconds,
});

const connectTo = () => connect({ ...natsOptions(), name: 'ratelimit-test' });

// The limiter fails open after its timeout (250 ms by default), which a busy machine can reach;
// tests of counting give it long enough that a slow reply is never taken for an outage.
const COUNTING = { timeoutMs: 30_000 } as const;

async function streamSubjects(): Promise<string[]> {
  const info = await jsm.streams.info(NAME, { subjects_filter: '>' });
  return Object.keys(info.state.subjects ?? {});
}

beforeAll(async () => {
  nc = await connectTo();
  other = await connectTo();
  jsm = await jetstreamManager(nc);
  await ensureRateLimitStream(jsm);
});

afterAll(async () => {
  await Promise.all([nc.close(), other.close()]);
});

describe('rate limit stream', () => {
  it('is a memory stream of counters, and ensuring it again is harmless', async () => {
    const before = await jsm.streams.info(NAME);
    await ensureRateLimitStream(jsm);
    await Promise.all(Array.from({ length: 5 }, () => ensureRateLimitStream(jsm)));
    const after = await jsm.streams.info(NAME);
    expect(after.created).toBe(before.created);
    expect(after.config).toMatchObject({
      subjects: ['handoff.ratelimit.>'],
      allow_msg_counter: true,
      allow_direct: true,
      storage: 'memory',
      max_msgs_per_subject: 1,
      max_age: 2 * MAX_WINDOW_SECONDS * 1_000_000_000,
    });
  });

  it('puts drifted settings back', async () => {
    const { config } = await jsm.streams.info(NAME);
    await jsm.streams.update(NAME, {
      ...config,
      max_age: 300_000_000_000,
      max_msgs_per_subject: -1,
    });
    await ensureRateLimitStream(jsm);
    expect((await jsm.streams.info(NAME)).config).toMatchObject({
      max_age: 2 * MAX_WINDOW_SECONDS * 1_000_000_000,
      max_msgs_per_subject: 1,
    });
  });
});

describe('rate limiter', () => {
  it('allows `limit` hits in a window, counting down, then refuses with Retry-After', async () => {
    const limiter = createRateLimiter(nc, { ...COUNTING, now: at(15_000) });
    const p = policy(3);
    const results: RateLimitResult[] = [];
    for (let i = 0; i < 5; i += 1) results.push(await limiter.hit(p, 'key-1'));

    expect(results.map((r) => [r.allowed, r.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
      [false, 0],
    ]);
    for (const result of results) {
      expect(result).toMatchObject({ limit: 3, resetSeconds: 45, policy: p });
      expect(result.error).toBeUndefined();
    }
    expect(rateLimitHeaders(results[0] as RateLimitResult)).toEqual({
      'RateLimit-Policy': `"${p.name}";q=3;w=60`,
      RateLimit: `"${p.name}";r=2;t=45`,
    });
    expect(rateLimitHeaders(results[3] as RateLimitResult)).toEqual({
      'RateLimit-Policy': `"${p.name}";q=3;w=60`,
      RateLimit: `"${p.name}";r=0;t=45`,
      'Retry-After': '45',
    });
    const window = Math.floor(WINDOW_START_MS / 60_000);
    expect(await streamSubjects()).toContain(`handoff.ratelimit.${p.name}.key-1.${window}`);
  });

  it('shares one counter between replicas on separate connections', async () => {
    const p = policy(10);
    const replicas = [createRateLimiter(nc, COUNTING), createRateLimiter(other, COUNTING)];
    const results: RateLimitResult[] = [];
    for (let i = 0; i < 6; i += 1) {
      for (const replica of replicas) results.push(await replica.hit(p, 'shared'));
    }
    expect(results.filter((r) => r.allowed)).toHaveLength(10);
    expect(results.slice(10).every((r) => !r.allowed)).toBe(true);
    expect(results.every((r) => r.error === undefined)).toBe(true);
  });

  it('answers hits far below the limit here and adds them in batches, then asks at every hit', async () => {
    const p = policy(40);
    const limiter = createRateLimiter(nc, COUNTING);
    const window = Math.floor(Date.now() / 60_000);
    const subject = `handoff.ratelimit.${p.name}.batched.${window}`;
    const stored = async () => (await jsm.streams.info(NAME)).state.last_seq;
    const before = await stored();
    const results: RateLimitResult[] = [];
    for (let i = 0; i < 45; i += 1) results.push(await limiter.hit(p, 'batched'));
    await limiter.flush();
    // Exactly the limit, counting down one at a time, whether answered here or by the counter.
    expect(results.map((r) => r.allowed)).toEqual([
      ...Array.from({ length: 40 }, () => true),
      ...Array.from({ length: 5 }, () => false),
    ]);
    expect(results.slice(0, 40).map((r) => r.remaining)).toEqual(
      Array.from({ length: 40 }, (_, i) => 39 - i),
    );
    // The counter holds every hit: those answered here went in fewer increments than hits.
    const counted = await jsm.streams.getMessage(NAME, { last_by_subj: subject });
    expect(JSON.parse(counted?.string() ?? '{}')).toEqual({ val: '45' });
    expect((await stored()) - before).toBeLessThan(45);
  });

  it('starts a new window from zero', async () => {
    const p = policy(2);
    const early = createRateLimiter(nc, { ...COUNTING, now: at(59_500) });
    const late = createRateLimiter(nc, { ...COUNTING, now: at(60_000) });
    expect((await early.hit(p, 'k')).allowed).toBe(true);
    expect((await early.hit(p, 'k')).allowed).toBe(true);
    const refused = await early.hit(p, 'k');
    expect(refused).toMatchObject({ allowed: false, resetSeconds: 1 });
    expect(await late.hit(p, 'k')).toMatchObject({ allowed: true, remaining: 1, resetSeconds: 60 });
  });

  it('allows exactly `limit` of many concurrent hits from two replicas', async () => {
    const p = policy(50);
    const one = createRateLimiter(nc, COUNTING);
    const two = createRateLimiter(other, COUNTING);
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? one : two).hit(p, 'burst')),
    );
    const allowed = results.filter((r) => r.allowed);
    expect(results.every((r) => r.error === undefined)).toBe(true);
    expect(allowed).toHaveLength(50);
    expect(new Set(allowed.map((r) => r.remaining)).size).toBe(50);
  });

  it('maps odd keys to valid subjects without sharing counters', async () => {
    const keys = [
      '::ffff:127.0.0.1',
      '__ffff_127_0_0_1',
      '10.0.0.1',
      '10_0_0_1',
      '2001:db8::1',
      'key_01HZY.abc',
      'a b*c>d',
      'clé-ü',
      '',
      'x'.repeat(500),
      `${'x'.repeat(499)}y`,
      keyToken('::ffff:127.0.0.1'),
    ];
    const tokens = keys.map(keyToken);
    expect(new Set(tokens).size).toBe(keys.length);
    for (const token of tokens) {
      expect(token).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    }
    expect(keyToken('key_01HZY-abc')).toBe('key_01HZY-abc');

    const p = policy(1);
    const limiter = createRateLimiter(nc, COUNTING);
    const first = await Promise.all(keys.map((key) => limiter.hit(p, key)));
    expect(first.every((r) => r.allowed && r.error === undefined)).toBe(true);
    const second = await Promise.all(keys.map((key) => limiter.hit(p, key)));
    expect(second.every((r) => !r.allowed && r.error === undefined)).toBe(true);
  });

  it('refuses policies that cannot be a subject token or a shared window', async () => {
    const limiter = createRateLimiter(nc);
    await expect(limiter.hit({ name: 'a.b', limit: 1, windowSeconds: 60 }, 'k')).rejects.toThrow(
      TypeError,
    );
    await expect(limiter.hit({ name: 'a', limit: 1, windowSeconds: 7200 }, 'k')).rejects.toThrow(
      RangeError,
    );
    await expect(limiter.hit({ name: 'a', limit: 1.5, windowSeconds: 60 }, 'k')).rejects.toThrow(
      RangeError,
    );
  });
});

describe('rate limiter when the counters are unreachable', () => {
  it('fails open at once when its connection is closed', async () => {
    const closed = await connectTo();
    await closed.close();
    const started = performance.now();
    const result = await createRateLimiter(closed, COUNTING).hit(policy(5), 'k');
    // Well under the timeout: it did not wait for a reply that cannot come.
    expect(performance.now() - started).toBeLessThan(COUNTING.timeoutMs / 3);
    expect(result).toMatchObject({ allowed: true, remaining: 5, limit: 5 });
    expect(result.error).toBeInstanceOf(Error);
  });

  it('fails open when the stream is missing or silent, then refuses a non-counter stream', async () => {
    await jsm.streams.delete(NAME);
    try {
      let started = performance.now();
      const missing = await createRateLimiter(nc, COUNTING).hit(policy(5), 'k');
      expect(performance.now() - started).toBeLessThan(COUNTING.timeoutMs / 3);
      expect(missing).toMatchObject({ allowed: true, remaining: 5 });
      expect(String(missing.error)).toMatch(/no responders/i);

      // Something answers nothing on the subject: the hit waits only for its timeout.
      const limiter = createRateLimiter(nc, { timeoutMs: 150 });
      const silent = policy(5);
      const sub = nc.subscribe(`handoff.ratelimit.${silent.name}.>`);
      try {
        started = performance.now();
        const timedOut = await limiter.hit(silent, 'k');
        const elapsed = performance.now() - started;
        expect(elapsed).toBeGreaterThanOrEqual(140);
        // It gave up at its timeout rather than waiting on (generous, for a busy machine).
        expect(elapsed).toBeLessThan(COUNTING.timeoutMs / 3);
        expect(timedOut).toMatchObject({ allowed: true, remaining: 5 });
        expect(String(timedOut.error)).toMatch(/timeout/i);
      } finally {
        sub.unsubscribe();
      }

      await jsm.streams.add({ name: NAME, subjects: [...RATE_LIMIT_STREAM.subjects] });
      const plain = await createRateLimiter(nc, COUNTING).hit(policy(5), 'k');
      expect(plain).toMatchObject({ allowed: true, remaining: 5 });
      expect(String(plain.error)).toMatch(/counter/i);
      await expect(ensureRateLimitStream(jsm)).rejects.toThrow(/allow_msg_counter/);
      await jsm.streams.delete(NAME);
    } finally {
      await ensureRateLimitStream(jsm);
    }
    expect((await createRateLimiter(nc, COUNTING).hit(policy(1), 'k')).error).toBeUndefined();
  });
});

describe('rateLimitHeaders', () => {
  const p: RateLimitPolicy = { name: 'agent-calls', limit: 100, windowSeconds: 60 };

  it.each([
    ['formats an allowed result without Retry-After', true, 42, 17, {}],
    ['adds Retry-After to a refused result', false, 0, 5, { 'Retry-After': '5' }],
  ])('%s', (_title, allowed, remaining, resetSeconds, retry) => {
    expect(rateLimitHeaders({ allowed, limit: 100, remaining, resetSeconds, policy: p })).toEqual({
      'RateLimit-Policy': '"agent-calls";q=100;w=60',
      RateLimit: `"agent-calls";r=${remaining};t=${resetSeconds}`,
      ...retry,
    });
  });
});
