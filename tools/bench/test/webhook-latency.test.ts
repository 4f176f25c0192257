import { describe, expect, it } from '@jest/globals';
import { RATIOS, scenarios } from '../src/scenarios/index.ts';
import {
  LATENCY_ENDPOINT_COUNTS,
  latencyRate,
  webhookLatency,
} from '../src/scenarios/webhook-latency.ts';
import type { Fixture, ScenarioContext, ScenarioReport, Stats } from '../src/types.ts';
import type { GatewayStack } from '../src/fixtures/gateway-stack.ts';

const stats = (requests_per_s: number, count = 1_000): Stats => ({
  requests_per_s,
  p50_ms: 100,
  p99_ms: 400,
  mean_ms: 120,
  max_ms: 500,
  count,
  errors: 0,
  non2xx: 0,
  elapsed_s: 10,
  status_codes: {},
});
const report = (name: string, s: Stats | null, failure: string | null = null): ScenarioReport => ({
  name,
  description: name,
  stats: s,
  failure,
  problems: [],
});

describe('latencyRate', () => {
  it('is half the deliveries/s of the same size’s peak, in events/s', () => {
    const earlier = [
      report('raw-http-post', stats(10_000)),
      report('webhook-deliveries-1', stats(600)),
      report('webhook-deliveries-100', stats(900)),
    ];
    expect(latencyRate(1, earlier, null)).toMatchObject({ eventsPerS: 300, deliveriesPerS: 300 });
    expect(latencyRate(100, earlier, null)).toMatchObject({ eventsPerS: 4.5, deliveriesPerS: 450 });
    expect(latencyRate(100, earlier, null).from).toMatch(/half of webhook-deliveries-100's 900/);
  });

  it('takes BENCH_WEBHOOK_RATE (deliveries/s) when set, with or without a peak', () => {
    expect(latencyRate(100, [], 200)).toMatchObject({ eventsPerS: 2, deliveriesPerS: 200 });
    expect(latencyRate(1, [report('webhook-deliveries-1', stats(600))], 50)).toMatchObject({
      eventsPerS: 50,
      from: 'BENCH_WEBHOOK_RATE=50',
    });
  });

  it('fails, saying what to do, when the peak did not run or measured nothing', () => {
    expect(() => latencyRate(1, [report('webhook-deliveries-100', stats(900))], null)).toThrow(
      /webhook-deliveries-1 measures, and it did not run: name webhook-deliveries-1 before webhook-latency-1 in BENCH_ONLY, or set BENCH_WEBHOOK_RATE/,
    );
    expect(() =>
      latencyRate(1, [report('webhook-deliveries-1', null, 'fixture gateway-stack: boom')], null),
    ).toThrow(/measured none \(fixture gateway-stack: boom\)/);
    expect(() => latencyRate(1, [report('webhook-deliveries-1', stats(0, 0))], null)).toThrow(
      /measured none \(no delivery completed\)/,
    );
  });

  it('fails the scenario before any setup work when there is no rate', async () => {
    let used = false;
    const stack: Fixture<GatewayStack> = {
      name: 'never-started',
      setup: () => Promise.reject(new Error('not to be started')),
    };
    const scenario = webhookLatency(stack, 1, 'warn', null);
    const ctx: ScenarioContext = {
      dataDir: '/nonexistent',
      env: {},
      signal: new AbortController().signal,
      progress: () => {},
      teardown: () => {},
      connections: 1,
      durationMs: 1_000,
      warmupMs: 0,
      use: () => {
        used = true;
        return Promise.reject(new Error('not to be used'));
      },
      earlier: [],
      figure: () => {},
    };
    await expect(scenario.setup(ctx)).rejects.toThrow(/did not run/);
    expect(used).toBe(false);
  });
});

describe('the latency scenarios', () => {
  const registered = scenarios({ logLevel: 'warn' });
  const names = registered.map((scenario) => scenario.name);

  it('run right after the peak of their size, at 1 and 100 endpoints', () => {
    expect(LATENCY_ENDPOINT_COUNTS).toEqual([1, 100]);
    for (const endpoints of LATENCY_ENDPOINT_COUNTS) {
      const latency = names.indexOf(`webhook-latency-${endpoints}`);
      expect(latency).toBeGreaterThan(0);
      expect(names[latency - 1]).toBe(`webhook-deliveries-${endpoints}`);
      const peak = registered[latency - 1];
      expect(registered[latency]?.uses).toEqual(peak?.uses);
    }
  });

  it('are compared with their peak, and the peaks of 1 and 100 endpoints name their target', () => {
    for (const endpoints of LATENCY_ENDPOINT_COUNTS) {
      const latency = RATIOS.find((ratio) => ratio.subject === `webhook-latency-${endpoints}`);
      expect(latency?.baseline).toBe(`webhook-deliveries-${endpoints}`);
      expect(latency?.note).toMatch(/p50 ≤ 50 ms, p99 ≤ 500 ms/);
      const peak = RATIOS.find((ratio) => ratio.subject === `webhook-deliveries-${endpoints}`);
      expect(peak?.note).toMatch(/req\/s ≥ 0\.100x/);
    }
    expect(RATIOS.find((ratio) => ratio.subject === 'webhook-deliveries-10')?.note).not.toMatch(
      /target/,
    );
  });
});
