import { describe, expect, it } from '@jest/globals';
import type { EventEnvelope } from '@handoff/contracts';
import { createRequestCache } from '../src/request-cache.ts';

const event = (requestId: string, type: EventEnvelope['type']): EventEnvelope => ({
  id: `evt_${Math.random().toString(36).slice(2)}`,
  type,
  timestamp: new Date().toISOString(),
  livemode: true,
  data: { request_id: requestId, sequence: 1, object: {} },
});

/** A load that counts its calls and answers what it is told, when it is told. */
function loader<T>(value: T) {
  let calls = 0;
  let release: (() => void) | undefined;
  let gated = false;
  return {
    get calls() {
      return calls;
    },
    gate() {
      gated = true;
    },
    open() {
      gated = false;
      release?.();
    },
    load: async () => {
      calls += 1;
      if (gated) await new Promise<void>((resolve) => (release = resolve));
      return value;
    },
  };
}

/** What `cache` does on hearing an event of type `type` of request `id`. */
const hear =
  (cache: { heard(event: EventEnvelope): void }, id: string, type: EventEnvelope['type']) => () =>
    cache.heard(event(id, type));

/** Does `meanwhile` (hears an event, moves the clock), reads again, and counts the loads so far. */
async function loadsAfter(
  meanwhile: () => unknown,
  again: () => Promise<unknown>,
  counted: { calls: number },
) {
  meanwhile();
  await again();
  return counted.calls;
}

describe('the request cache', () => {
  it('answers a read from memory until an event of that request is heard', async () => {
    const cache = createRequestCache();
    const read = loader({ id: 'req_1', conversation: ['hi'] });
    expect(await cache.view('req_1', read.load)).toEqual({ id: 'req_1', conversation: ['hi'] });
    expect(await cache.view('req_1', read.load)).toEqual({ id: 'req_1', conversation: ['hi'] });
    expect(read.calls).toBe(1);
    const again = () => cache.view('req_1', read.load);
    // Another request's event changes nothing here.
    expect(await loadsAfter(hear(cache, 'req_2', 'message.created'), again, read)).toBe(1);
    expect(await loadsAfter(hear(cache, 'req_1', 'message.created'), again, read)).toBe(2);
  });

  it("drops a status only on the request's own events", async () => {
    const cache = createRequestCache();
    const status = loader('submitted' as const);
    const again = () => cache.status('req_1', status.load);
    await again();
    expect(await loadsAfter(hear(cache, 'req_1', 'message.created'), again, status)).toBe(1);
    expect(await loadsAfter(hear(cache, 'req_1', 'request.updated'), again, status)).toBe(2);
  });

  it('drops the read and the status of a request changed without an event, and no other', async () => {
    const cache = createRequestCache();
    const read = loader({ v: 1 });
    const status = loader('routed' as const);
    const reads = () => cache.view('req_1', read.load);
    const statuses = () => cache.status('req_1', status.load);
    await reads();
    await statuses();
    expect(await loadsAfter(() => cache.drop('req_2'), reads, read)).toBe(1);
    expect(await loadsAfter(() => cache.drop('req_1'), reads, read)).toBe(2);
    expect(await loadsAfter(() => undefined, statuses, status)).toBe(2);
  });

  it('does not keep a read that an event of its request overlapped', async () => {
    const cache = createRequestCache();
    const read = loader({ v: 'old' });
    read.gate();
    const pending = cache.view('req_1', read.load);
    await new Promise((resolve) => setImmediate(resolve));
    cache.heard(event('req_1', 'message.created'));
    read.open();
    expect(await pending).toEqual({ v: 'old' });
    await cache.view('req_1', read.load);
    expect(read.calls).toBe(2);
  });

  it('trusts an entry for the TTL only, and drops everything on clear', async () => {
    let clock = 1_000;
    const cache = createRequestCache({ ttlMs: 100, now: () => clock });
    const read = loader({ v: 1 });
    const again = () => cache.view('req_1', read.load);
    await again();
    expect(await loadsAfter(() => (clock += 50), again, read)).toBe(1);
    expect(await loadsAfter(() => (clock += 100), again, read)).toBe(2);
    expect(await loadsAfter(() => cache.clear(), again, read)).toBe(3);
  });

  it('keeps an owner through events, drops and clear, and loads it once at a time', async () => {
    const cache = createRequestCache();
    const owner = loader({ integration_id: 'int_a', token_hash: 'ab', extra: 'not kept' });
    owner.gate();
    const both = [cache.owner('req_1', owner.load), cache.owner('req_1', owner.load)];
    await new Promise((resolve) => setImmediate(resolve));
    owner.open();
    await Promise.all(both);
    expect(owner.calls).toBe(1);
    const again = () => cache.owner('req_1', owner.load);
    expect(await loadsAfter(hear(cache, 'req_1', 'request.updated'), again, owner)).toBe(1);
    expect(await loadsAfter(() => cache.drop('req_1'), again, owner)).toBe(1);
    expect(await loadsAfter(() => cache.clear(), again, owner)).toBe(1);
    expect(await again()).toEqual({ integration_id: 'int_a', token_hash: 'ab' });
    expect(cache.stats.owners).toBe(1);
  });

  it('does not keep an owner whose load failed', async () => {
    const cache = createRequestCache();
    let calls = 0;
    const missing = () => {
      calls += 1;
      return Promise.reject(new Error('No such request.'));
    };
    await expect(cache.owner('req_none', missing)).rejects.toThrow('No such request.');
    await expect(cache.owner('req_none', missing)).rejects.toThrow('No such request.');
    expect([calls, cache.stats.owners]).toEqual([2, 0]);
  });

  it('holds reads up to a weight, least recently used out', async () => {
    const cache = createRequestCache({ maxViewBytes: 400 });
    const big = (n: number) => ({ n, text: 'x'.repeat(80) });
    for (const n of [1, 2, 3, 4, 5]) await cache.view(`req_${n}`, () => Promise.resolve(big(n)));
    expect(cache.stats.view_bytes).toBeLessThanOrEqual(400);
    const again = loader(big(5));
    await cache.view('req_5', again.load);
    expect(again.calls).toBe(0);
    const first = loader(big(1));
    await cache.view('req_1', first.load);
    expect(first.calls).toBe(1);
  });
});
