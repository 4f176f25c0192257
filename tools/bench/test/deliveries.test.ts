import { describe, expect, it } from '@jest/globals';
import { DeliveryTracker } from '../src/deliveries.ts';
import { emptyMeasurement } from '../src/measure.ts';

const MS = 1_000_000n;
const LONG = { timeoutMs: 10_000 };

describe('DeliveryTracker', () => {
  it('waits for one delivery to each endpoint, each a completion with its latency from the send', async () => {
    const tracker = new DeliveryTracker(3);
    const measurement = emptyMeasurement();
    let done = false;
    const waiting = tracker.expect('req_1', 1_000n * MS, measurement, LONG).then(() => {
      done = true;
    });
    tracker.received('req_1', 2, 1_005n * MS);
    tracker.received('req_1', 0, 1_010n * MS);
    await Promise.resolve();
    expect(done).toBe(false);
    expect(tracker.pending).toBe(1);
    tracker.received('req_1', 1, 1_020n * MS);
    await waiting;
    expect(done).toBe(true);
    expect(tracker.pending).toBe(0);
    expect(measurement.ok).toBe(3);
    expect(measurement.errors).toBe(0);
    expect(measurement.histogram.min).toBeGreaterThanOrEqual(Number(5n * MS) * 0.99);
    expect(measurement.histogram.max).toBeLessThanOrEqual(Number(20n * MS) * 1.01);
  });

  it('keeps a delivery that came before its event was expected, and counts it then', async () => {
    const tracker = new DeliveryTracker(2);
    const measurement = emptyMeasurement();
    tracker.received('req_early', 1, 7n * MS);
    tracker.received('req_early', 0, 8n * MS);
    await tracker.expect('req_early', 2n * MS, measurement, LONG);
    expect(measurement.ok).toBe(2);
    expect(tracker.takeStrays()).toBe(0);
  });

  it('counts a second delivery to the same endpoint as an error, not a completion', async () => {
    const tracker = new DeliveryTracker(2);
    const measurement = emptyMeasurement();
    const waiting = tracker.expect('req_dup', 0n, measurement, LONG);
    tracker.received('req_dup', 0, MS);
    tracker.received('req_dup', 0, 2n * MS);
    tracker.received('req_dup', 1, 3n * MS);
    await waiting;
    expect(measurement.ok).toBe(2);
    expect(measurement.errors).toBe(1);
    expect(measurement.firstError).toMatch(/duplicate delivery to endpoint 0/);
  });

  it('counts each delivery still missing when the time is up as an error', async () => {
    const tracker = new DeliveryTracker(3);
    const measurement = emptyMeasurement();
    const waiting = tracker.expect('req_slow', 0n, measurement, { timeoutMs: 20 });
    tracker.received('req_slow', 1, MS);
    await waiting;
    expect(measurement.ok).toBe(1);
    expect(measurement.errors).toBe(2);
    expect(measurement.firstError).toMatch(/2 of 3 deliveries of the event of req_slow/);
    expect(tracker.pending).toBe(0);
    // One that comes after all is a stray.
    tracker.received('req_slow', 0, 50n * MS);
    expect(tracker.takeStrays()).toBe(1);
    expect(tracker.takeStrays()).toBe(0);
  });

  it('stops waiting at once when the run is interrupted, counting nothing', async () => {
    const tracker = new DeliveryTracker(1);
    const measurement = emptyMeasurement();
    const abort = new AbortController();
    const waiting = tracker.expect('req_x', 0n, measurement, {
      timeoutMs: 60_000,
      signal: abort.signal,
    });
    abort.abort();
    await waiting;
    expect(measurement.errors).toBe(0);
    expect(tracker.pending).toBe(0);
    const aborted = emptyMeasurement();
    await tracker.expect('req_y', 0n, aborted, { timeoutMs: 60_000, signal: abort.signal });
    expect(aborted.errors).toBe(0);
  });

  it('counts a delivery after its event was complete as a stray', async () => {
    const tracker = new DeliveryTracker(1);
    const measurement = emptyMeasurement();
    const waiting = tracker.expect('req_done', 0n, measurement, LONG);
    tracker.received('req_done', 0, MS);
    await waiting;
    tracker.received('req_done', 0, 2n * MS);
    tracker.received('req_other', 0, 2n * MS);
    expect(tracker.takeStrays()).toBe(2);
    expect(measurement.ok).toBe(1);
  });

  it('refuses nonsense', async () => {
    expect(() => new DeliveryTracker(0)).toThrow(/at least 1/);
    const tracker = new DeliveryTracker(2);
    expect(() => tracker.received('req_1', 2, 0n)).toThrow(/no endpoint number 2/);
    expect(() => tracker.received('req_1', -1, 0n)).toThrow(/no endpoint number -1/);
    const measurement = emptyMeasurement();
    const waiting = tracker.expect('req_twice', 0n, measurement, { timeoutMs: 10 });
    await expect(tracker.expect('req_twice', 0n, measurement, LONG)).rejects.toThrow(
      /already expected/,
    );
    await waiting;
  });
});
