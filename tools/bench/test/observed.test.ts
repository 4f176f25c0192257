import { describe, expect, it } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import { runScenario } from '../src/harness.ts';
import { recordNs, runObserved } from '../src/measure.ts';
import type { LoadOptions, Measurement, ObservedLoad } from '../src/types.ts';
import { runOptions, tempDirPerTest } from './support/run.ts';

/** A load that records a completion of `latencyMs` every few ms, as a receiver would. */
function ticking(latencyMs: number, stopTakesMs = 0) {
  const calls: string[] = [];
  let timer: NodeJS.Timeout | undefined;
  let seen: LoadOptions | undefined;
  const load: ObservedLoad = {
    kind: 'observed',
    start(measurement: Measurement, options) {
      calls.push('start');
      seen = options;
      timer = setInterval(() => {
        recordNs(measurement, latencyMs * 1e6);
        measurement.ok += 1;
      }, 2);
    },
    async stop() {
      calls.push('stop');
      await sleep(stopTakesMs);
      clearInterval(timer);
    },
  };
  return { load, calls, options: () => seen };
}

describe('runObserved', () => {
  it('starts the load, lets it run its duration, stops it, and keeps the time until it stopped', async () => {
    const { load, calls, options } = ticking(7, 100);
    const measurement = await runObserved(load, { connections: 3, durationMs: 200 });
    expect(calls).toEqual(['start', 'stop']);
    expect(options()?.connections).toBe(3);
    expect(measurement.ok).toBeGreaterThan(5);
    expect(measurement.histogram.count).toBe(measurement.ok);
    expect(measurement.histogram.percentile(50) / 1e6).toBeCloseTo(7, 1);
    // The drain in `stop` is part of the time.
    expect(measurement.elapsedMs).toBeGreaterThanOrEqual(290);
    expect(measurement.elapsedMs).toBeLessThan(30_000);
  });

  it('stops early when the run is interrupted', async () => {
    const { load, calls } = ticking(1);
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 20);
    const measurement = await runObserved(load, {
      connections: 1,
      durationMs: 60_000,
      signal: abort.signal,
    });
    expect(calls).toEqual(['start', 'stop']);
    expect(measurement.elapsedMs).toBeLessThan(30_000);
  });
});

describe('an observed scenario', () => {
  const tempDir = tempDirPerTest('bench-observed-test-');

  it('is warmed up and measured like any other, with its own concurrency', async () => {
    const { load, calls, options } = ticking(3);
    const report = await runScenario(
      { name: 'seen', description: 'seen', connections: 4, setup: () => Promise.resolve(load) },
      runOptions(tempDir(), { connections: 50, durationMs: 100, warmupMs: 30 }),
    );
    expect(report.failure).toBeNull();
    expect(report.problems).toEqual([]);
    expect(calls).toEqual(['start', 'stop', 'start', 'stop']);
    expect(options()?.connections).toBe(4);
    expect(report.stats?.p50_ms).toBeCloseTo(3, 1);
  });

  it('skips the warm-up when it has one of its own, of 0', async () => {
    const { load, calls } = ticking(3);
    const lines: string[] = [];
    const report = await runScenario(
      { name: 'warm', description: 'warm', warmupMs: 0, setup: () => Promise.resolve(load) },
      runOptions(tempDir(), {
        connections: 1,
        durationMs: 30,
        warmupMs: 2_000,
        progress: (line) => lines.push(line),
      }),
    );
    expect(report.failure).toBeNull();
    expect(calls).toEqual(['start', 'stop']);
    expect(lines.some((line) => line.includes('warming up'))).toBe(false);
  });

  it('reports the errors its load recorded', async () => {
    const load: ObservedLoad = {
      kind: 'observed',
      start(measurement) {
        measurement.ok += 1;
        recordNs(measurement, 1e6);
        measurement.errors += 2;
        measurement.firstError = 'a signature check failed';
      },
      stop: () => Promise.resolve(),
    };
    const report = await runScenario(
      { name: 'bad', description: 'bad', setup: () => Promise.resolve(load) },
      runOptions(tempDir(), { connections: 1, durationMs: 10 }),
    );
    expect(report.stats?.errors).toBe(2);
    expect(report.problems).toEqual(['2 error(s), the first: a signature check failed']);
  });
});
