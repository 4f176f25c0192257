import { describe, expect, it } from '@jest/globals';
import {
  computeGrowth,
  formatGrowthTable,
  formatPreloads,
  GROWTH_GROUP,
  GROWTH_OPERATIONS,
  growthRatios,
  growthScenarioName,
} from '../src/growth.ts';
import { computeRatios } from '../src/measure.ts';
import { ratiosFor, RATIOS, scenarios, selectScenarios } from '../src/scenarios/index.ts';
import { report, stats } from './support/reports.ts';

describe('the ratios to the raw insert on the same database server', () => {
  it('divide every write by stack-insert-one of the same run, and the read by express-bare', () => {
    const writes = RATIOS.filter((ratio) => ratio.baseline === 'stack-insert-one');
    expect(writes.map((ratio) => ratio.subject)).toEqual([
      'gateway-create',
      'gateway-message',
      'provider-proposal',
      'milestone-approval',
      'create-to-webhook',
    ]);
    const ratios = computeRatios(writes.slice(0, 2), [
      report('stack-insert-one', stats(800, 10, 40)),
      report('gateway-create', stats(200, 40, 120)),
      report('gateway-message', stats(100, 80, 200)),
    ]);
    expect(ratios.map(({ requests_per_s, p50, p99 }) => [requests_per_s, p50, p99])).toEqual([
      [0.25, 4, 3],
      [0.125, 8, 5],
    ]);
    expect(RATIOS).toContainEqual({ subject: 'gateway-read', baseline: 'express-bare' });
  });
});

describe('the growth scenario', () => {
  it('is a group of one scenario per size and operation, sizes ascending, on the shared stack', () => {
    const registered = scenarios({ logLevel: 'warn', growthSizes: [100, 10] });
    const growth = registered.filter((scenario) => scenario.group === GROWTH_GROUP);
    expect(growth.map((scenario) => scenario.name)).toEqual([
      'growth-10-create',
      'growth-10-read',
      'growth-10-read-cold',
      'growth-10-message',
      'growth-10-webhook',
      'growth-100-create',
      'growth-100-read',
      'growth-100-read-cold',
      'growth-100-message',
      'growth-100-webhook',
    ]);
    const stack = registered.find((scenario) => scenario.name === 'gateway-create')?.uses?.[0];
    for (const scenario of growth) expect(scenario.uses).toEqual([stack]);
    // The same concurrency as the scenario each one repeats.
    const byName = (name: string) => registered.find((scenario) => scenario.name === name);
    expect(byName('growth-10-create')?.connections).toBe(byName('gateway-create')?.connections);
    expect(byName('growth-10-read-cold')?.connections).toBe(
      byName('gateway-read-cold')?.connections,
    );
    expect(byName('growth-10-webhook')?.connections).toBe(
      byName('webhook-deliveries-1')?.connections,
    );
  });

  it('runs only when BENCH_ONLY names the group or one of its scenarios', () => {
    const registered = scenarios({ logLevel: 'warn', growthSizes: [10, 100] });
    const names = (only: string[] | null) =>
      selectScenarios(registered, only).map((scenario) => scenario.name);
    expect(names(null).some((name) => name.startsWith('growth-'))).toBe(false);
    expect(names(null)).toContain('stack-insert-one');
    expect(names(['growth', 'express-bare'])).toEqual([
      'express-bare',
      ...registered.filter((s) => s.group === GROWTH_GROUP).map((s) => s.name),
    ]);
    expect(names(['growth-100-read'])).toEqual(['growth-100-read']);
    expect(() => names(['growth-1000-read'])).toThrow(/unknown scenarios: growth-1000-read/);
  });

  it('compares p50 at the largest size with the smallest, per operation', () => {
    expect(growthRatios([10])).toEqual([]);
    const specs = growthRatios([1_000, 10_000, 100_000]);
    expect(specs.map((spec) => [spec.subject, spec.baseline])).toEqual(
      GROWTH_OPERATIONS.map((operation) => [
        `growth-100000-${operation}`,
        `growth-1000-${operation}`,
      ]),
    );
    expect(ratiosFor([1_000, 100_000]).slice(0, RATIOS.length)).toEqual(RATIOS);
    expect(ratiosFor([1_000, 100_000])).toHaveLength(RATIOS.length + GROWTH_OPERATIONS.length);
  });

  it('reports each size against its baseline, and the p50 growth against the target', () => {
    const sizes = [1_000, 10_000, 100_000];
    const reports = [
      report('express-bare', stats(10_000, 1, 4)),
      report('stack-insert-one', stats(1_000, 10, 20)),
      report('raw-http-post', stats(5_000, 5, 10)),
      report(growthScenarioName(1_000, 'create'), stats(200, 40, 80)),
      report(growthScenarioName(10_000, 'create'), stats(190, 44, 90)),
      report(growthScenarioName(100_000, 'create'), stats(180, 50, 100)),
      report(growthScenarioName(1_000, 'read'), stats(500, 20, 40)),
      report(growthScenarioName(100_000, 'read'), stats(100, 100, 400)),
      // Completed nothing: no figures, not zeros.
      report(growthScenarioName(10_000, 'read'), { ...stats(0, 0, 0), count: 0 }),
      report(growthScenarioName(1_000, 'message'), null),
    ];
    const growth = computeGrowth(reports, sizes, [
      {
        size: 1_000,
        ms: 1_500,
        steps: [{ target: 'requests', before: 0, inserted: 1_000, ms: 300 }],
      },
    ]);
    const [create, read, readCold, message, webhook] = growth.operations;
    expect(create).toEqual({
      operation: 'create',
      baseline: 'stack-insert-one',
      rows: [
        {
          size: 1_000,
          requests_per_s: 200,
          p50_ms: 40,
          p99_ms: 80,
          requests_per_s_vs_baseline: 0.2,
          p50_vs_baseline: 4,
        },
        {
          size: 10_000,
          requests_per_s: 190,
          p50_ms: 44,
          p99_ms: 90,
          requests_per_s_vs_baseline: 0.19,
          p50_vs_baseline: 4.4,
        },
        {
          size: 100_000,
          requests_per_s: 180,
          p50_ms: 50,
          p99_ms: 100,
          requests_per_s_vs_baseline: 0.18,
          p50_vs_baseline: 5,
        },
      ],
      p50_growth: 1.25,
      within_target: true,
    });
    expect(read?.baseline).toBe('express-bare');
    expect(read?.rows[1]?.p50_ms).toBeNull();
    expect(read?.p50_growth).toBe(5);
    expect(read?.within_target).toBe(false);
    // The cold read against the raw lookup; not measured here, so no figures.
    expect(readCold?.baseline).toBe('stack-find-one');
    expect(readCold?.rows.map((row) => row.p50_ms)).toEqual([null, null, null]);
    expect(message?.p50_growth).toBeNull();
    expect(message?.within_target).toBeNull();
    expect(webhook?.baseline).toBe('raw-http-post');
    expect(growth.target_p50_growth).toBe(1.5);

    const table = formatGrowthTable(growth).split('\n');
    expect(table[0]?.split(/\s{2,}/)).toEqual([
      'growth',
      'existing',
      'req/s',
      'p50 ms',
      'p99 ms',
      'baseline',
      'req/s vs',
      'p50 vs',
      'p50 growth',
      'target',
    ]);
    expect(table[4]?.trim().split(/\s+/)).toEqual([
      '100000',
      '180',
      '50.00',
      '100.00',
      '0.180x',
      '5.000x',
      '1.250x',
      'ok',
    ]);
    expect(table[6]?.trim().split(/\s+/)).toEqual(['10000', '—', '—', '—', 'n/a', 'n/a']);
    expect(table[7]).toMatch(/5\.000x\s+over 1\.5x$/);
    expect(formatPreloads(growth.preloads)).toEqual([
      'preload to 1000: 1000 documents in 1.5 s (667 documents/s; requests 1000 in 300 ms)',
    ]);
  });
});
