import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { IDEMPOTENCY_KEY_MAX_LENGTH } from '@handoff/contracts';
import { natsOptions } from '@handoff/testkit';
import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { HttpError } from '../src/http/errors.ts';
import {
  createIdempotencyStore,
  ensureIdempotencyBucket,
  IDEMPOTENCY_BUCKET,
  IDEMPOTENCY_STREAM,
  IDEMPOTENCY_TTL_MS,
  idempotencyRecordKey,
  MAX_RECORD_BYTES,
  parseIdempotencyKey,
  requestFingerprint,
  type IdempotencyClaim,
  type IdempotencyOutcome,
  type IdempotencyStore,
} from '../src/idempotency.ts';

let nc: NatsConnection;
let other: NatsConnection;
let jsm: JetStreamManager;
let kv: KV;
// Two gateway replicas, each with its own NATS connection.
let a: IdempotencyStore;
let b: IdempotencyStore;

const connectTo = () => connect({ ...natsOptions(), name: 'idempotency-test' });
// Scopes of their own, so tests never share keys.
const scope = () => `int_${randomBytes(6).toString('hex')}`;
const fp = (body: unknown = { n: 1 }) => requestFingerprint('POST', '/v1/things', body);

function proceeds(outcome: IdempotencyOutcome): IdempotencyClaim {
  if (outcome.kind !== 'proceed') throw new Error(`expected proceed, got ${outcome.kind}`);
  return outcome;
}

async function httpError(promise: Promise<unknown>): Promise<HttpError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
  throw new Error('expected an HttpError');
}

async function record(scopeId: string, key: string): Promise<unknown> {
  const entry = await kv.get(idempotencyRecordKey(scopeId, key));
  return entry?.operation === 'PUT' ? entry.json() : null;
}

beforeAll(async () => {
  nc = await connectTo();
  other = await connectTo();
  jsm = await jetstreamManager(nc);
  [a, b] = await Promise.all([createIdempotencyStore(nc), createIdempotencyStore(other)]);
  kv = await new Kvm(nc).open(IDEMPOTENCY_BUCKET);
});

afterAll(async () => {
  await Promise.all([nc.close(), other.close()]);
});

describe('idempotency bucket', () => {
  it('is a file-backed KV bucket kept 24 h, and ensuring it again is harmless', async () => {
    const before = await jsm.streams.info(IDEMPOTENCY_STREAM);
    await Promise.all(Array.from({ length: 5 }, () => ensureIdempotencyBucket(jsm)));
    await Promise.all([createIdempotencyStore(nc), createIdempotencyStore(other)]);
    const after = await jsm.streams.info(IDEMPOTENCY_STREAM);
    expect(after.created).toBe(before.created);
    expect(after.config).toMatchObject({
      subjects: [`$KV.${IDEMPOTENCY_BUCKET}.>`],
      storage: 'file',
      max_age: IDEMPOTENCY_TTL_MS * 1_000_000,
      max_msgs_per_subject: 1,
      max_msg_size: MAX_RECORD_BYTES,
      allow_rollup_hdrs: true,
    });
    const status = await kv.status();
    expect(status.history).toBe(1);
    expect(status.ttl).toBe(IDEMPOTENCY_TTL_MS);
  });

  it('puts drifted settings back', async () => {
    const { config } = await jsm.streams.info(IDEMPOTENCY_STREAM);
    await jsm.streams.update(IDEMPOTENCY_STREAM, {
      ...config,
      max_age: 3 * 3600 * 1_000_000_000,
      max_msg_size: 1024,
      max_msgs_per_subject: 5,
    });
    await ensureIdempotencyBucket(jsm);
    expect((await jsm.streams.info(IDEMPOTENCY_STREAM)).config).toMatchObject({
      max_age: IDEMPOTENCY_TTL_MS * 1_000_000,
      max_msg_size: MAX_RECORD_BYTES,
      max_msgs_per_subject: 1,
    });
    // A TTL shorter than the duplicate window (2 min by default) is accepted, and undone.
    await ensureIdempotencyBucket(jsm, { ttlMs: 30_000 });
    expect((await jsm.streams.info(IDEMPOTENCY_STREAM)).config).toMatchObject({
      max_age: 30_000 * 1_000_000,
    });
    await ensureIdempotencyBucket(jsm);
    expect((await jsm.streams.info(IDEMPOTENCY_STREAM)).config).toMatchObject({
      max_age: IDEMPOTENCY_TTL_MS * 1_000_000,
      max_msg_size: MAX_RECORD_BYTES,
    });
  });
});

describe('IdempotencyStore', () => {
  it('replays the stored status and body, on every replica', async () => {
    const s = scope();
    const claim = proceeds(await a.begin(s, 'k1', fp()));
    expect(await record(s, 'k1')).toMatchObject({ state: 'in_flight', fingerprint: fp() });
    const body = { id: 'req_1', nested: { list: [1, 'two', null] }, text: 'é ✓' };
    await claim.complete(201, body);

    for (const store of [a, b]) {
      expect(await store.begin(s, 'k1', fp())).toEqual({
        kind: 'replay',
        status: 201,
        body,
        bodyStored: true,
      });
    }
    expect(await record(s, 'k1')).toMatchObject({ state: 'done', status: 201, body });
  });

  it('replays handler 4xx answers too', async () => {
    const s = scope();
    await proceeds(await a.begin(s, 'k', fp())).complete(409, { code: 'invalid_state_transition' });
    expect(await b.begin(s, 'k', fp())).toMatchObject({ kind: 'replay', status: 409 });
  });

  it('refuses the same key for a different request with 422, in flight or done', async () => {
    const s = scope();
    const claim = proceeds(await a.begin(s, 'k', fp({ n: 1 })));
    for (const fingerprint of [fp({ n: 2 }), requestFingerprint('POST', '/v1/other', { n: 1 })]) {
      const error = await httpError(b.begin(s, 'k', fingerprint));
      expect(error).toMatchObject({ status: 422, code: 'idempotency_key_reused' });
    }
    await claim.complete(201, { ok: true });
    const error = await httpError(a.begin(s, 'k', fp({ n: 2 })));
    expect(error).toMatchObject({ status: 422, code: 'idempotency_key_reused' });
    // The original request still replays.
    expect(await a.begin(s, 'k', fp({ n: 1 }))).toMatchObject({ kind: 'replay', status: 201 });
  });

  it('lets exactly one of two concurrent replicas proceed; the other gets 409', async () => {
    for (let i = 0; i < 10; i++) {
      const s = scope();
      const results = await Promise.allSettled([a.begin(s, 'k', fp()), b.begin(s, 'k', fp())]);
      const winners = results.filter((r) => r.status === 'fulfilled');
      const losers = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
      expect(winners).toHaveLength(1);
      expect(losers).toHaveLength(1);
      expect(losers[0]).toBeInstanceOf(HttpError);
      expect(losers[0]).toMatchObject({
        status: 409,
        code: 'idempotency_key_in_use',
        headers: { 'Retry-After': '1' },
      });
    }
  });

  it('answers 409 while in flight, then replays once completed', async () => {
    const s = scope();
    const claim = proceeds(await a.begin(s, 'k', fp()));
    expect(await httpError(b.begin(s, 'k', fp()))).toMatchObject({
      status: 409,
      code: 'idempotency_key_in_use',
    });
    await claim.complete(200, { done: 1 });
    expect(await b.begin(s, 'k', fp())).toMatchObject({ kind: 'replay', body: { done: 1 } });
  });

  it('makes an abandoned key reusable', async () => {
    const s = scope();
    const first = proceeds(await a.begin(s, 'k', fp()));
    await first.abandon();
    expect(await record(s, 'k')).toBeNull();
    // Reusable, even with another body, and then claimed again.
    const second = proceeds(await b.begin(s, 'k', fp({ n: 2 })));
    expect(await httpError(a.begin(s, 'k', fp({ n: 2 })))).toMatchObject({ status: 409 });
    await second.complete(201, { second: true });
    expect(await a.begin(s, 'k', fp({ n: 2 }))).toMatchObject({
      kind: 'replay',
      body: { second: true },
    });
  });

  it('settles a claim only once', async () => {
    const claim = proceeds(await a.begin(scope(), 'k', fp()));
    await expect(claim.complete(99, {})).rejects.toThrow(RangeError);
    await claim.complete(201, {});
    await expect(claim.abandon()).rejects.toThrow(/already settled/);
    await expect(claim.complete(201, {})).rejects.toThrow(/already settled/);
  });

  it('lets one of two concurrent retries take over a stale claim', async () => {
    const [fastA, fastB] = await Promise.all([
      createIdempotencyStore(nc, { inFlightMs: 200 }),
      createIdempotencyStore(other, { inFlightMs: 200 }),
    ]);
    for (let i = 0; i < 3; i++) {
      const s = scope();
      const crashed = proceeds(await a.begin(s, 'k', fp()));
      // Not yet stale.
      expect(await httpError(fastA.begin(s, 'k', fp()))).toMatchObject({ status: 409 });
      await sleep(300);

      const results = await Promise.allSettled([
        fastA.begin(s, 'k', fp()),
        fastB.begin(s, 'k', fp()),
      ]);
      const winners = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
      const losers = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
      expect(winners).toHaveLength(1);
      expect(losers).toHaveLength(1);
      expect(losers[0]).toMatchObject({ status: 409, code: 'idempotency_key_in_use' });
      const [won] = winners;
      if (!won) throw new Error('no winner');
      const winner = proceeds(won);

      // The request that lost its claim can neither complete nor release the new one.
      await expect(crashed.complete(201, { stale: true })).rejects.toThrow(/taken over/);
      await winner.complete(201, { fresh: true });
      expect(await b.begin(s, 'k', fp())).toMatchObject({ kind: 'replay', body: { fresh: true } });
    }
  });

  it('keeps a claim whose holder is alive, however long its request runs', async () => {
    // A holder beats every third of its in-flight time: a long upload is never taken over, while
    // a killed gateway's claim (no more beats) is free that long after its last beat.
    const [live, reader] = await Promise.all([
      createIdempotencyStore(nc, { inFlightMs: 300 }),
      createIdempotencyStore(other, { inFlightMs: 300 }),
    ]);
    const s = scope();
    const running = proceeds(await live.begin(s, 'k', fp()));
    await sleep(1_000);
    expect(await httpError(reader.begin(s, 'k', fp()))).toMatchObject({
      status: 409,
      code: 'idempotency_key_in_use',
    });
    await running.complete(201, { long: true });
    expect(await reader.begin(s, 'k', fp())).toMatchObject({
      kind: 'replay',
      body: { long: true },
    });
  });

  it('asks a retry to come back when a claim that missed its beat may be taken over', async () => {
    const reader = await createIdempotencyStore(other, { inFlightMs: 6_000 });
    const s = scope();
    // Held by a store that beats every 5 s: past 3 s it has missed a beat for this reader.
    proceeds(await a.begin(s, 'k', fp()));
    const fresh = await httpError(reader.begin(s, 'k', fp()));
    expect(fresh.headers).toMatchObject({ 'Retry-After': '1' });
    await sleep(3_500);
    const late = await httpError(reader.begin(s, 'k', fp()));
    expect(late).toMatchObject({ status: 409, code: 'idempotency_key_in_use' });
    expect(Number(late.headers['Retry-After'])).toBeGreaterThanOrEqual(2);
    expect(Number(late.headers['Retry-After'])).toBeLessThanOrEqual(3);
  });

  it('does not let a stale claim release a claim that took it over', async () => {
    const fast = await createIdempotencyStore(other, { inFlightMs: 100 });
    const s = scope();
    const crashed = proceeds(await a.begin(s, 'k', fp()));
    await sleep(200);
    const winner = proceeds(await fast.begin(s, 'k', fp()));
    await crashed.abandon();
    expect(await record(s, 'k')).toMatchObject({ state: 'in_flight' });
    await winner.complete(201, { ok: 1 });
    expect(await a.begin(s, 'k', fp())).toMatchObject({ kind: 'replay', body: { ok: 1 } });
  });

  it('keeps scopes apart', async () => {
    const [s1, s2] = [scope(), scope()];
    const one = proceeds(await a.begin(s1, 'shared', fp()));
    const two = proceeds(await a.begin(s2, 'shared', fp()));
    await one.complete(201, { scope: 1 });
    await two.complete(201, { scope: 2 });
    expect(await b.begin(s1, 'shared', fp())).toMatchObject({ body: { scope: 1 } });
    expect(await b.begin(s2, 'shared', fp())).toMatchObject({ body: { scope: 2 } });
    // Scope and key are separated, so ("ab", "c") and ("a", "bc") differ.
    expect(idempotencyRecordKey('ab', 'c')).not.toBe(idempotencyRecordKey('a', 'bc'));
  });

  it('accepts any printable key, and never uses it as the KV key', async () => {
    const s = scope();
    const keys = [
      'with spaces and . dots',
      '$KV.*.>',
      '../../etc/passwd',
      '"quoted" \\ back\\slash',
      '~!@#$%^&*()_+`-={}[]|:;<>?,',
      'x'.repeat(IDEMPOTENCY_KEY_MAX_LENGTH),
    ];
    for (const [i, key] of keys.entries()) {
      expect(parseIdempotencyKey(key)).toBe(key);
      await proceeds(await a.begin(s, key, fp())).complete(201, { i });
    }
    for (const [i, key] of keys.entries()) {
      expect(await b.begin(s, key, fp())).toMatchObject({ kind: 'replay', body: { i } });
      expect(idempotencyRecordKey(s, key)).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it('keeps only the status when the body is too large or must not be stored', async () => {
    const s = scope();
    await proceeds(await a.begin(s, 'big', fp())).complete(201, {
      blob: 'x'.repeat(MAX_RECORD_BYTES),
    });
    expect(await b.begin(s, 'big', fp())).toEqual({
      kind: 'replay',
      status: 201,
      body: undefined,
      bodyStored: false,
    });
    await proceeds(await a.begin(s, 'secret', fp())).complete(
      201,
      { api_key: 'hk_live_secret' },
      { storeBody: false },
    );
    expect(await b.begin(s, 'secret', fp())).toMatchObject({ status: 201, bodyStored: false });
    expect(JSON.stringify(await record(s, 'secret'))).not.toContain('hk_live_secret');
    // Just under the limit is still stored.
    const fits = { blob: 'y'.repeat(MAX_RECORD_BYTES - 8 * 1024) };
    await proceeds(await a.begin(s, 'fits', fp())).complete(201, fits);
    expect(await b.begin(s, 'fits', fp())).toMatchObject({ bodyStored: true, body: fits });
  });

  it('answers 503 with Retry-After when NATS cannot be reached', async () => {
    const lost = await connectTo();
    const store = await createIdempotencyStore(lost, { timeoutMs: 300 });
    const s = scope();
    const claim = proceeds(await store.begin(s, 'k', fp()));
    await lost.close();
    const error = await httpError(store.begin(s, 'k2', fp()));
    expect(error).toMatchObject({
      status: 503,
      code: 'service_unavailable',
      headers: { 'Retry-After': '1' },
    });
    await expect(claim.complete(201, {})).rejects.toThrow(/could not be stored/);
  });
});

describe('parseIdempotencyKey', () => {
  it('accepts an absent header and 1 to 255 printable ASCII characters', () => {
    expect(parseIdempotencyKey(undefined)).toBeUndefined();
    expect(parseIdempotencyKey('a')).toBe('a');
    expect(parseIdempotencyKey(' padded ')).toBe(' padded ');
    expect(parseIdempotencyKey('7d0b8f5e-2f3c-4a51-9a43-3c1e0f6a9b21')).toBe(
      '7d0b8f5e-2f3c-4a51-9a43-3c1e0f6a9b21',
    );
  });

  it.each([
    ['empty', '', 'too_small'],
    ['too long', 'x'.repeat(IDEMPOTENCY_KEY_MAX_LENGTH + 1), 'too_big'],
    ['non-ASCII', 'clé', 'invalid_format'],
    ['emoji', 'key-✓', 'invalid_format'],
    ['a control character', 'a\tb', 'invalid_format'],
    ['DEL', 'a\x7fb', 'invalid_format'],
  ])('refuses %s with 422 validation_failed', (_name, header, code) => {
    let error: unknown;
    try {
      parseIdempotencyKey(header);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({
      status: 422,
      code: 'validation_failed',
      extra: { errors: [{ pointer: '/headers/idempotency-key', code }] },
    });
  });
});

describe('requestFingerprint', () => {
  it('ignores object key order at every depth', () => {
    const one = { a: 1, b: { c: [1, { x: 1, y: 2 }], d: null }, '10': 'ten', '2': 'two' };
    const two = { '2': 'two', b: { d: null, c: [1, { y: 2, x: 1 }] }, '10': 'ten', a: 1 };
    expect(requestFingerprint('POST', '/v1/x', one)).toBe(requestFingerprint('post', '/v1/x', two));
    expect(requestFingerprint('POST', '/v1/x', one)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('differs for different methods, paths and bodies', () => {
    const base = requestFingerprint('POST', '/v1/x', { a: 1 });
    const others = [
      requestFingerprint('PATCH', '/v1/x', { a: 1 }),
      requestFingerprint('POST', '/v1/y', { a: 1 }),
      requestFingerprint('POST', '/v1/x', { a: 2 }),
      requestFingerprint('POST', '/v1/x', { a: '1' }),
      requestFingerprint('POST', '/v1/x', { a: 1, b: 2 }),
      requestFingerprint('POST', '/v1/x', [{ a: 1 }]),
      requestFingerprint('POST', '/v1/x', {}),
      requestFingerprint('POST', '/v1/x', undefined),
      requestFingerprint('POST', '/v1/x', null),
    ];
    expect(new Set([base, ...others]).size).toBe(others.length + 1);
    expect(requestFingerprint('POST', '/v1/x', [1, 2])).not.toBe(
      requestFingerprint('POST', '/v1/x', [2, 1]),
    );
    // The separator keeps path and body apart.
    expect(requestFingerprint('POST', '/v1/x', 'y')).not.toBe(
      requestFingerprint('POST', '/v1/', 'xy'),
    );
  });
});
