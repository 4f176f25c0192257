import { describe, expect, it } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import { runClosedLoop, summarize } from '../src/measure.ts';

const DELAY_MS = 5;

/** Resolves no sooner than `ms` after it was called (a timer alone may fire a little early). */
async function atLeast(ms: number): Promise<void> {
  const started = performance.now();
  let left = ms;
  while (left > 0) {
    await sleep(Math.max(1, Math.ceil(left)));
    left = ms - (performance.now() - started);
  }
}

describe('runClosedLoop', () => {
  it('measures a call with a known delay: p50 at least the delay, rate at most 1 / delay', async () => {
    const measurement = await runClosedLoop(() => atLeast(DELAY_MS), {
      connections: 1,
      durationMs: 1_000,
    });
    const stats = summarize(measurement);
    expect(stats.errors).toBe(0);
    expect(measurement.histogram.count).toBe(measurement.ok);
    // Latency: never below the delay; and in ms, not µs or ns (a generous ceiling for a loaded box).
    expect(stats.p50_ms).toBeGreaterThanOrEqual(DELAY_MS);
    expect(stats.p99_ms).toBeGreaterThanOrEqual(stats.p50_ms);
    expect(stats.p50_ms).toBeLessThan(1_000);
    // Rate: one caller waiting 5 ms per call cannot exceed 200/s, and it did call repeatedly.
    expect(stats.requests_per_s).toBeLessThanOrEqual(1_000 / DELAY_MS);
    expect(stats.requests_per_s).toBeGreaterThan(10);
    // The run lasted its duration (and then let the call in flight finish).
    expect(measurement.elapsedMs).toBeGreaterThanOrEqual(1_000);
    expect(measurement.elapsedMs).toBeLessThan(30_000);
    expect(stats.requests_per_s).toBeCloseTo(stats.count / stats.elapsed_s, 0);
  });

  it('is far faster without the delay, so the delayed rate is the delay showing', async () => {
    const measurement = await runClosedLoop(() => Promise.resolve(), {
      connections: 1,
      durationMs: 300,
    });
    expect(summarize(measurement).requests_per_s).toBeGreaterThan(2 * (1_000 / DELAY_MS));
  });

  it('runs the callers concurrently', async () => {
    let inFlight = 0;
    let most = 0;
    const measurement = await runClosedLoop(
      async () => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        await atLeast(DELAY_MS);
        inFlight -= 1;
      },
      { connections: 8, durationMs: 500 },
    );
    const stats = summarize(measurement);
    expect(most).toBe(8);
    expect(stats.p50_ms).toBeGreaterThanOrEqual(DELAY_MS);
    expect(stats.requests_per_s).toBeLessThanOrEqual(8 * (1_000 / DELAY_MS));
    // Eight callers do more than one could at best.
    expect(stats.requests_per_s).toBeGreaterThan(1_000 / DELAY_MS);
  });

  it('counts failures as errors, keeps them out of the latencies, and goes on', async () => {
    let calls = 0;
    const measurement = await runClosedLoop(
      async () => {
        calls += 1;
        if (calls % 2 === 0) throw new Error('boom');
        await atLeast(1);
      },
      { connections: 2, durationMs: 300 },
    );
    expect(measurement.errors).toBeGreaterThan(0);
    expect(measurement.ok).toBeGreaterThan(0);
    expect(measurement.ok + measurement.errors).toBe(calls);
    expect(measurement.histogram.count).toBe(measurement.ok);
    expect(measurement.firstError).toBe('Error: boom');
  });

  it('stops early when aborted', async () => {
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 100);
    const measurement = await runClosedLoop(() => atLeast(1), {
      connections: 4,
      durationMs: 30_000,
      signal: abort.signal,
    });
    expect(measurement.elapsedMs).toBeLessThan(30_000);
    expect(measurement.ok).toBeGreaterThan(0);
  });
});
