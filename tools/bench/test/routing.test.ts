import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { OfferTracker, offeredRequestId } from '../src/fixtures/offer-watch.ts';
import { ROUTING_CATEGORIES, writeCategoriesFile } from '../src/fixtures/routing-categories.ts';
import { categoryOf, ROUTING_PROVIDERS } from '../src/scenarios/routing.ts';
import { tempDirPerTest } from './support/run.ts';

/** The deployment's own list, which the bench's file replaces on its routing stack. */
const BUILT_IN = fileURLToPath(
  new URL('../../../services/gateway/config/service-categories.json', import.meta.url),
);

describe('the routing stack’s categories file', () => {
  const tempDir = tempDirPerTest('handoff-bench-routing-');

  it('lists 20 categories the way the gateway reads them', () => {
    const path = writeCategoriesFile(tempDir());
    const written: unknown = JSON.parse(readFileSync(path, 'utf8'));
    expect(written).toEqual(ROUTING_CATEGORIES);
    expect(ROUTING_CATEGORIES).toHaveLength(20);
    const slugs = ROUTING_CATEGORIES.map((category) => category.slug);
    expect(new Set(slugs).size).toBe(20);
    // The gateway's rules for an entry (services/gateway/src/categories.ts).
    for (const { slug, name, description } of ROUTING_CATEGORIES) {
      expect(slug).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
      expect(slug.length).toBeLessThanOrEqual(64);
      expect(name.length).toBeGreaterThanOrEqual(1);
      expect(name.length).toBeLessThanOrEqual(100);
      expect(description.length).toBeGreaterThanOrEqual(1);
      expect(description.length).toBeLessThanOrEqual(500);
    }
    // The same fields as the built-in file's entries, and none more (the gateway's are strict).
    const builtIn = JSON.parse(readFileSync(BUILT_IN, 'utf8')) as Record<string, unknown>[];
    const keys = (entry: object) => Object.keys(entry).sort();
    for (const entry of [...builtIn, ...ROUTING_CATEGORIES]) {
      expect(keys(entry)).toEqual(['description', 'name', 'slug']);
    }
  });

  it('spreads the providers evenly over them', () => {
    const counts = new Map<string, number>();
    for (let index = 0; index < ROUTING_PROVIDERS; index += 1) {
      const category = categoryOf(index);
      counts.set(category, (counts.get(category) ?? 0) + 1);
    }
    expect([...counts.keys()].sort()).toEqual(ROUTING_CATEGORIES.map((c) => c.slug).sort());
    expect(new Set(counts.values())).toEqual(new Set([ROUTING_PROVIDERS / 20]));
  });
});

const envelope = (type: string, object: Record<string, unknown>) => ({
  id: 'evt_1',
  type,
  timestamp: '2026-01-01T00:00:00.000Z',
  data: { request_id: 'req_1', sequence: 2, object },
});

describe('offeredRequestId', () => {
  it('takes a request.updated that shows the request routed directly to a provider', () => {
    const offered = { status: 'routed', routing: { mode: 'direct', provider_ids: ['prv_1'] } };
    expect(offeredRequestId(envelope('request.updated', offered))).toBe('req_1');
  });

  it('ignores every other event, status and routing, and what is not an envelope', () => {
    const queued = { status: 'submitted', routing: { mode: 'unassigned', provider_ids: [] } };
    const marketplace = { status: 'routed', routing: { mode: 'marketplace', provider_ids: [] } };
    const created = { status: 'routed', routing: { mode: 'direct', provider_ids: ['prv_1'] } };
    expect(offeredRequestId(envelope('request.updated', queued))).toBeNull();
    expect(offeredRequestId(envelope('request.updated', marketplace))).toBeNull();
    expect(offeredRequestId(envelope('request.created', created))).toBeNull();
    expect(offeredRequestId({ hello: 'world' })).toBeNull();
    expect(offeredRequestId(null)).toBeNull();
  });
});

describe('OfferTracker', () => {
  it('resolves a wait when the offer comes after it, and at once when it came before', async () => {
    const tracker = new OfferTracker();
    const later = tracker.offered('req_1', 1_000);
    expect(tracker.waiting).toBe(1);
    tracker.seen('req_1');
    await expect(later).resolves.toBeUndefined();
    tracker.seen('req_2');
    expect(tracker.unclaimed).toBe(1);
    await expect(tracker.offered('req_2', 1_000)).resolves.toBeUndefined();
    expect([tracker.waiting, tracker.unclaimed]).toEqual([0, 0]);
  });

  it('fails a wait that outlasts its time, and every wait once the offers cannot be seen', async () => {
    const tracker = new OfferTracker();
    await expect(tracker.offered('req_1', 10)).rejects.toThrow(
      'req_1 was not offered within 0.01 s',
    );
    expect(tracker.waiting).toBe(0);
    const waiting = tracker.offered('req_2', 1_000);
    tracker.fail(new Error('gone'));
    await expect(waiting).rejects.toThrow('gone');
    await expect(tracker.offered('req_3', 1_000)).rejects.toThrow('gone');
    // An offer seen before the failure is still claimed.
    const other = new OfferTracker();
    other.seen('req_4');
    other.fail(new Error('gone'));
    await expect(other.offered('req_4', 1_000)).resolves.toBeUndefined();
  });
});
