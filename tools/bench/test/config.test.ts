import { describe, expect, it } from '@jest/globals';
import { readConfig } from '../src/config.ts';

describe('readConfig', () => {
  it('has the documented defaults', () => {
    expect(readConfig({})).toEqual({
      durationS: 10,
      connections: 50,
      warmupS: 2,
      logLevel: 'warn',
      only: null,
      growthSizes: [1_000, 10_000, 100_000, 1_000_000],
      webhookRate: null,
      replicas: 1,
    });
  });

  it('reads the BENCH_ variables', () => {
    expect(
      readConfig({
        BENCH_DURATION_S: '5',
        BENCH_CONNECTIONS: '8',
        BENCH_WARMUP_S: '0',
        BENCH_LOG_LEVEL: 'info',
        BENCH_ONLY: 'express-bare, gateway-readyz',
        BENCH_GROWTH_SIZES: '100, 10,100',
        BENCH_WEBHOOK_RATE: '250',
        BENCH_REPLICAS: '2',
      }),
    ).toEqual({
      durationS: 5,
      connections: 8,
      warmupS: 0,
      logLevel: 'info',
      only: ['express-bare', 'gateway-readyz'],
      growthSizes: [10, 100],
      webhookRate: 250,
      replicas: 2,
    });
  });

  it('refuses nonsense', () => {
    expect(() => readConfig({ BENCH_DURATION_S: 'ten' })).toThrow(/BENCH_DURATION_S/);
    expect(() => readConfig({ BENCH_DURATION_S: '-1' })).toThrow(/BENCH_DURATION_S/);
    expect(() => readConfig({ BENCH_CONNECTIONS: '2.5' })).toThrow(/BENCH_CONNECTIONS/);
    expect(() => readConfig({ BENCH_LOG_LEVEL: 'loud' })).toThrow(/BENCH_LOG_LEVEL/);
    expect(() => readConfig({ BENCH_GROWTH_SIZES: '0,10' })).toThrow(/BENCH_GROWTH_SIZES/);
    expect(() => readConfig({ BENCH_GROWTH_SIZES: '1k' })).toThrow(/BENCH_GROWTH_SIZES/);
    expect(() => readConfig({ BENCH_WEBHOOK_RATE: '0' })).toThrow(/BENCH_WEBHOOK_RATE/);
    expect(() => readConfig({ BENCH_WEBHOOK_RATE: 'fast' })).toThrow(/BENCH_WEBHOOK_RATE/);
    expect(() => readConfig({ BENCH_REPLICAS: '0' })).toThrow(/BENCH_REPLICAS/);
    expect(() => readConfig({ BENCH_REPLICAS: '1.5' })).toThrow(/BENCH_REPLICAS/);
    expect(() => readConfig({ BENCH_REPLICAS: '9' })).toThrow(/BENCH_REPLICAS/);
  });
});
