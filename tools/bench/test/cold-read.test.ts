import { describe, expect, it } from '@jest/globals';
import { idPattern } from '@handoff/contracts';
import { REQUEST_CACHE_TTL_MS } from '../../../packages/runtime/src/request-cache.ts';
import {
  CACHE_WINDOW_MS,
  coldPoolSize,
  DEFAULT_COLD_POOL,
  POOL_CONNECTIONS,
  RoundRobinReads,
} from '../src/fixtures/cold-pool.ts';
import { preloadId } from '../src/fixtures/preload.ts';
import { CREATE_TO_WEBHOOK_CONNECTIONS } from '../src/scenarios/create-to-webhook.ts';
import { AGENT_API_CONNECTIONS } from '../src/scenarios/gateway-requests.ts';
import { RATIOS, scenarios } from '../src/scenarios/index.ts';

describe('the cold pool', () => {
  it('is sized by BENCH_COLD_POOL, 24,000 unless set, and refuses nonsense', () => {
    expect(coldPoolSize({})).toBe(DEFAULT_COLD_POOL);
    expect(DEFAULT_COLD_POOL).toBe(24_000);
    expect(coldPoolSize({ BENCH_COLD_POOL: ' 300 ' })).toBe(300);
    for (const raw of ['0', '-1', '1.5', '12k']) {
      expect(() => coldPoolSize({ BENCH_COLD_POOL: raw })).toThrow(/BENCH_COLD_POOL/);
    }
  });

  it("keeps its window at the gateway's request cache TTL, and is made faster than it is read", () => {
    expect(CACHE_WINDOW_MS).toBe(REQUEST_CACHE_TTL_MS);
    expect(POOL_CONNECTIONS).toBeGreaterThanOrEqual(16);
    // Going round the default pool takes longer than the window up to 4,800 reads per second.
    expect(DEFAULT_COLD_POOL / (CACHE_WINDOW_MS / 1_000)).toBe(4_800);
  });

  it('hands out the items in turn and counts each that comes back within the window', () => {
    let now = 0;
    const reads = new RoundRobinReads(['a', 'b', 'c'], 5_000, () => now);
    const round = () => ['a', 'b', 'c'].map(() => reads.take());
    const first = round();
    expect(first.map((turn) => turn.item)).toEqual(['a', 'b', 'c']);
    for (const turn of first) turn.done();
    expect(reads.repeats).toBe(0);
    // Back 4.999 s after the last read ended: each one a repeat.
    now = 4_999;
    for (const turn of round()) turn.done();
    expect(reads.repeats).toBe(3);
    // Back 5 s after: none.
    now = 9_999;
    const third = round();
    expect(reads.repeats).toBe(3);
    // A read still under way is not a read that ended: only `done` starts the window.
    now = 20_000;
    third[0]?.done();
    now = 24_000;
    expect(reads.take().item).toBe('a');
    expect(reads.take().item).toBe('b');
    expect(reads.repeats).toBe(4);
    expect(reads.size).toBe(3);
    expect(() => new RoundRobinReads([], 5_000)).toThrow(/at least one/);
  });
});

describe('the registry of the new scenarios', () => {
  const registered = scenarios({ logLevel: 'warn' });
  const byName = (name: string) => registered.find((scenario) => scenario.name === name);
  const baselinesOf = (subject: string) =>
    RATIOS.filter((ratio) => ratio.subject === subject).map((ratio) => ratio.baseline);

  it('reads cold at the reads’ 10 connections, against a raw lookup at the same', () => {
    expect(byName('gateway-read-cold')?.connections).toBe(AGENT_API_CONNECTIONS);
    expect(byName('stack-find-one')?.connections).toBe(AGENT_API_CONNECTIONS);
    expect(byName('gateway-read-cold')?.uses).toEqual(byName('stack-find-one')?.uses);
    expect(baselinesOf('gateway-read-cold')).toEqual(['stack-find-one', 'express-bare']);
  });

  it('creates to the webhook at 16 connections, warmed up in setup, against the raw insert', () => {
    const scenario = byName('create-to-webhook');
    expect(scenario?.connections).toBe(CREATE_TO_WEBHOOK_CONNECTIONS);
    expect(CREATE_TO_WEBHOOK_CONNECTIONS).toBe(16);
    expect(scenario?.warmupMs).toBe(0);
    expect(scenario?.uses).toEqual(byName('gateway-create')?.uses);
    expect(baselinesOf('create-to-webhook')).toEqual(['stack-insert-one']);
  });
});

describe('preloadId', () => {
  it('makes the same id for the same index, of the id shape, unique per index and per seed', () => {
    const at = Date.UTC(2026, 0, 1);
    const id = preloadId('req', at, 'abcdefgh', 12_345);
    expect(preloadId('req', at, 'abcdefgh', 12_345)).toBe(id);
    expect(id).toMatch(idPattern('req'));
    expect(preloadId('evt', at, 'abcdefgh', 999_999)).toMatch(idPattern('evt'));
    const ids = new Set(
      Array.from({ length: 2_000 }, (_, index) => preloadId('req', at, 'abcdefgh', index)),
    );
    expect(ids.size).toBe(2_000);
    expect(preloadId('req', at, 'zzzzzzzz', 12_345)).not.toBe(id);
    // The time part is newId's, so preloaded ids sort among real ones by time.
    expect(preloadId('req', at + 1_000, 'abcdefgh', 0) > preloadId('req', at, 'abcdefgh', 0)).toBe(
      true,
    );
  });
});
