import { describe, expect, it } from '@jest/globals';
import {
  computeRatios,
  emptyMeasurement,
  problemsOf,
  recordNs,
  safeRatio,
  summarize,
} from '../src/measure.ts';
import { report, stats } from './support/reports.ts';

const MS = 1_000_000;

function measurementOf(latenciesMs: number[], elapsedMs: number) {
  const measurement = emptyMeasurement();
  for (const ms of latenciesMs) recordNs(measurement, ms * MS);
  measurement.ok = latenciesMs.length;
  measurement.elapsedMs = elapsedMs;
  return measurement;
}

const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, index) => from + index);

describe('summarize', () => {
  it('reports percentiles in ms and the rate as completions per second', () => {
    const stats = summarize(measurementOf(range(1, 100), 2_000));
    expect(stats.count).toBe(100);
    expect(stats.requests_per_s).toBe(50);
    expect(stats.elapsed_s).toBe(2);
    // The histogram keeps three significant digits.
    expect(stats.p50_ms).toBeGreaterThanOrEqual(50);
    expect(stats.p50_ms).toBeLessThan(50.1);
    expect(stats.p99_ms).toBeGreaterThanOrEqual(99);
    expect(stats.p99_ms).toBeLessThan(99.1);
    expect(stats.max_ms).toBeGreaterThanOrEqual(100);
    expect(stats.max_ms).toBeLessThan(100.1);
    expect(stats.mean_ms).toBeCloseTo(50.5, 1);
  });

  it('sees a slow tail in p99 but not in p50', () => {
    const latencies = [
      ...Array.from({ length: 980 }, () => 2),
      ...Array.from({ length: 20 }, () => 300),
    ];
    const stats = summarize(measurementOf(latencies, 1_000));
    expect(stats.p50_ms).toBeCloseTo(2, 2);
    expect(stats.p99_ms).toBeGreaterThanOrEqual(300);
    expect(stats.p99_ms).toBeLessThan(301);
    expect(stats.requests_per_s).toBe(1_000);
  });

  it('keeps sub-millisecond latencies', () => {
    const stats = summarize(measurementOf([0.25, 0.25, 0.25, 0.5], 1_000));
    expect(stats.p50_ms).toBeCloseTo(0.25, 3);
  });

  it('gives zeros, not NaN, when nothing completed', () => {
    const measurement = emptyMeasurement();
    measurement.errors = 3;
    measurement.elapsedMs = 1_000;
    const stats = summarize(measurement);
    expect(stats).toMatchObject({ requests_per_s: 0, p50_ms: 0, p99_ms: 0, count: 0, errors: 3 });
  });

  it('does not count errors and non-2xx responses as completions', () => {
    const measurement = measurementOf([1, 1], 1_000);
    measurement.errors = 5;
    measurement.non2xx = 7;
    const stats = summarize(measurement);
    expect(stats.requests_per_s).toBe(2);
    expect(stats.count).toBe(2);
    expect(stats.errors).toBe(5);
    expect(stats.non2xx).toBe(7);
  });
});

describe('problemsOf', () => {
  it('is empty for a clean run', () => {
    expect(problemsOf(measurementOf([1], 1_000), 200)).toEqual([]);
  });

  it('names errors and statuses other than the expected one', () => {
    const measurement = measurementOf([1], 1_000);
    measurement.errors = 2;
    measurement.firstError = 'Error: boom';
    measurement.unexpectedStatus = 3;
    measurement.statusCodes = { '200': 1, '503': 3 };
    const problems = problemsOf(measurement, 200);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toContain('2 error(s)');
    expect(problems[0]).toContain('Error: boom');
    expect(problems[1]).toContain('3 response(s) were not 200');
    expect(problems[1]).toContain('503×3');
  });

  it('flags a run in which nothing completed', () => {
    expect(problemsOf(emptyMeasurement())).toContain('no operation completed');
  });
});

describe('ratios', () => {
  it('divides, and refuses what cannot be divided', () => {
    expect(safeRatio(10, 4)).toBe(2.5);
    expect(safeRatio(1, 3)).toBe(0.333);
    // Small quotients keep three significant digits (30 deliveries/s against 23,386 POSTs/s).
    expect(safeRatio(30.1, 23_386)).toBe(0.00129);
    expect(safeRatio(0, 5)).toBe(0);
    expect(safeRatio(1, 0)).toBeNull();
    expect(safeRatio(null, 1)).toBeNull();
    expect(safeRatio(1, undefined)).toBeNull();
    expect(safeRatio(Number.NaN, 1)).toBeNull();
  });

  it('compares the subject with its baseline', () => {
    const [ratio] = computeRatios(
      [{ subject: 'gateway', baseline: 'bare' }],
      [report('bare', stats(20_000, 2, 8)), report('gateway', stats(5_000, 8, 40))],
    );
    expect(ratio).toEqual({
      subject: 'gateway',
      baseline: 'bare',
      requests_per_s: 0.25,
      p50: 4,
      p99: 5,
    });
  });

  it('gives nulls when a side failed or is missing', () => {
    const ratios = computeRatios(
      [
        { subject: 'gateway', baseline: 'bare' },
        { subject: 'other', baseline: 'bare' },
      ],
      [report('bare', stats(20_000, 2, 8)), report('gateway', null)],
    );
    for (const ratio of ratios) {
      expect(ratio).toMatchObject({ requests_per_s: null, p50: null, p99: null });
    }
  });
});
