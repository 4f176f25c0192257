import { describe, expect, it } from '@jest/globals';
import { boundedCache, lookupCache, sweepExpired } from '../src/cache.ts';

describe('boundedCache', () => {
  it('holds at most `max` entries, the least recently used out first', () => {
    const evicted: string[] = [];
    const cache = boundedCache<string, number>({
      max: 2,
      onEvict: (key) => evicted.push(key),
    });
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1);
    cache.set('c', 3);
    expect([cache.has('a'), cache.has('b'), cache.has('c')]).toEqual([true, false, true]);
    // Deleting or replacing an entry is no eviction.
    cache.delete('a');
    cache.set('c', 4);
    expect(evicted).toEqual(['b']);
  });

  it('trusts an entry for its TTL only, on the clock it is given', () => {
    let clock = 1_000;
    const cache = boundedCache<string, string>({ max: 10, ttlMs: 100, now: () => clock });
    cache.set('a', 'x');
    clock += 100;
    expect(cache.get('a')).toBe('x');
    clock += 1;
    expect(cache.get('a')).toBeUndefined();
  });

  it('lets go of expired entries without their being read again', () => {
    let clock = 1_000;
    const expiring = boundedCache<string, string>({ max: 100, ttlMs: 100, now: () => clock });
    const lasting = boundedCache<string, string>({ max: 100 });
    for (let i = 0; i < 50; i += 1) {
      expiring.set(`req_${i}`, 'a view');
      lasting.set(`req_${i}`, 'an owner');
    }
    clock += 50;
    expiring.set('req_new', 'a view');
    sweepExpired();
    expect(expiring.size).toBe(51);
    clock += 60;
    // `size` counts expired entries until they are dropped; reading them would drop them.
    sweepExpired();
    expect(expiring.size).toBe(1);
    expect(expiring.has('req_new')).toBe(true);
    expect(lasting.size).toBe(50);
  });

  it('holds entries up to a weight', () => {
    const cache = boundedCache<string, string>({ max: 10, maxSize: 10 });
    cache.set('a', 'a', { size: 4 });
    cache.set('b', 'b', { size: 4 });
    cache.set('c', 'c', { size: 4 });
    expect([...cache.keys()].sort()).toEqual(['b', 'c']);
    expect(cache.calculatedSize).toBe(8);
  });
});

describe('lookupCache', () => {
  it('looks a key up once while callers wait together, then answers from memory', async () => {
    const cache = lookupCache<string>(10);
    let calls = 0;
    let release: (value: string) => void = () => undefined;
    const lookup = () => {
      calls += 1;
      return new Promise<string>((resolve) => (release = resolve));
    };
    const both = Promise.all([cache.get('req_1', lookup), cache.get('req_1', lookup)]);
    await new Promise((resolve) => setImmediate(resolve));
    release('int_a');
    expect(await both).toEqual(['int_a', 'int_a']);
    expect(await cache.get('req_1', lookup)).toBe('int_a');
    expect(calls).toBe(1);
    // A value learned elsewhere is kept as if looked up.
    cache.set('req_2', 'int_b');
    expect(await cache.get('req_2', lookup)).toBe('int_b');
    expect(calls).toBe(1);
  });

  it('keeps neither a lookup that found nothing nor one that failed', async () => {
    const cache = lookupCache<string | undefined>(10);
    let calls = 0;
    const nothing = () => {
      calls += 1;
      return Promise.resolve(undefined);
    };
    const failing = () => {
      calls += 1;
      return Promise.reject(new Error('unavailable'));
    };
    expect(await cache.get('req_1', nothing)).toBeUndefined();
    expect(await cache.get('req_1', nothing)).toBeUndefined();
    await expect(cache.get('req_2', failing)).rejects.toThrow('unavailable');
    await expect(cache.get('req_2', failing)).rejects.toThrow('unavailable');
    expect([calls, cache.size]).toEqual([4, 0]);
  });

  it('holds at most `max` values', async () => {
    const cache = lookupCache<number>(2);
    for (const n of [1, 2, 3]) await cache.get(`req_${n}`, () => Promise.resolve(n));
    expect(cache.size).toBe(2);
    let asked = false;
    await cache.get('req_1', () => ((asked = true), Promise.resolve(1)));
    expect(asked).toBe(true);
  });
});
