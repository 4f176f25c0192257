import { describe, expect, it } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import { paceOpenLoop } from '../src/measure.ts';

const NS_PER_MS = 1_000_000;

interface Started {
  scheduledAt: bigint;
  startedAt: bigint;
}

/** Runs an open loop of operations that record when they were due and when they started. */
function recording(ratePerS: number, work: () => Promise<void> = () => Promise.resolve()) {
  const started: Started[] = [];
  const loop = paceOpenLoop(
    async (scheduledAt) => {
      started.push({ scheduledAt, startedAt: process.hrtime.bigint() });
      await work();
    },
    { ratePerS },
  );
  return { loop, started };
}

/** Blocks the event loop for `ms`, as a busy process would. */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // Spinning on purpose: no timer may fire meanwhile.
  }
}

describe('paceOpenLoop', () => {
  it('starts operations at the asked rate, evenly spaced from the start, none before its time', async () => {
    const ratePerS = 200;
    const from = process.hrtime.bigint();
    const { loop, started } = recording(ratePerS);
    await sleep(500);
    await loop.stop();
    const until = process.hrtime.bigint();
    // Every operation due between the start and the stop, and no other: as many as the time
    // that passed (however long that was on this machine) holds at this rate.
    const elapsedS = Number(until - from) / 1e9;
    expect(loop.started).toBe(started.length);
    expect(started.length).toBeGreaterThanOrEqual(Math.floor(0.5 * ratePerS));
    expect(started.length).toBeLessThanOrEqual(Math.floor(elapsedS * ratePerS) + 1);
    const first = started[0]?.scheduledAt ?? 0n;
    for (const [index, operation] of started.entries()) {
      expect(Number(operation.scheduledAt - first)).toBeCloseTo((index * 1e9) / ratePerS, -1);
      expect(operation.startedAt).toBeGreaterThanOrEqual(operation.scheduledAt);
    }
  });

  it('does not wait for an operation to finish before starting the next', async () => {
    let inFlight = 0;
    let most = 0;
    const { loop, started } = recording(100, async () => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await sleep(200);
      inFlight -= 1;
    });
    await sleep(300);
    await loop.stop();
    // At 100/s, an operation of 200 ms overlaps about 20 others.
    expect(most).toBeGreaterThan(5);
    expect(inFlight).toBe(0);
    expect(started.length).toBeGreaterThan(most);
  });

  it('keeps the scheduled time of operations it started late, and omits none', async () => {
    const ratePerS = 100;
    const { loop, started } = recording(ratePerS);
    await sleep(100);
    // 200 ms in which the loop cannot start anything: about 20 operations fall due meanwhile.
    const blockedFrom = process.hrtime.bigint();
    busy(200);
    const blockedUntil = process.hrtime.bigint();
    await sleep(100);
    await loop.stop();
    const late = started.filter(
      (operation) => operation.scheduledAt > blockedFrom && operation.scheduledAt < blockedUntil,
    );
    // Every one due while blocked was started afterwards, with the time it was due: counted from
    // there, its latency includes the wait.
    expect(late.length).toBeGreaterThanOrEqual(Math.floor((0.2 * ratePerS) / 2));
    for (const operation of late) expect(operation.startedAt).toBeGreaterThanOrEqual(blockedUntil);
    expect(
      Number((late.at(-1)?.startedAt ?? 0n) - (late[0]?.scheduledAt ?? 0n)) / NS_PER_MS,
    ).toBeGreaterThanOrEqual(150);
    // None left out: the schedule runs on with no gap.
    const gaps = started.slice(1).map((operation, index) => {
      const previous = started[index]?.scheduledAt ?? 0n;
      return Number(operation.scheduledAt - previous) / NS_PER_MS;
    });
    for (const gap of gaps) expect(gap).toBeCloseTo(1_000 / ratePerS, 3);
  });

  it('starts at stop the operations that fell due while it could not run', async () => {
    const { loop, started } = recording(1_000);
    // Due now: the first one starts at once; blocked, nothing more can start until stop.
    busy(50);
    const count = started.length;
    await loop.stop();
    expect(count).toBe(1);
    expect(started.length).toBeGreaterThanOrEqual(50);
  });

  it('waits for the operations under way, and reports one that rejected', async () => {
    let finished = 0;
    const loop = paceOpenLoop(
      async () => {
        await sleep(50);
        finished += 1;
        if (finished === 1) throw new Error('boom');
      },
      { ratePerS: 100 },
    );
    await sleep(30);
    await expect(loop.stop()).rejects.toThrow('boom');
    expect(finished).toBe(loop.started);
  });

  it('starts nothing more once aborted', async () => {
    const abort = new AbortController();
    let count = 0;
    const loop = paceOpenLoop(
      async () => {
        count += 1;
      },
      { ratePerS: 1_000, signal: abort.signal },
    );
    await sleep(20);
    abort.abort();
    const atAbort = count;
    busy(20);
    await loop.stop();
    expect(count).toBe(atAbort);
  });

  it('refuses a rate that is not above 0', () => {
    expect(() => paceOpenLoop(() => Promise.resolve(), { ratePerS: 0 })).toThrow(/rate above 0/);
    expect(() => paceOpenLoop(() => Promise.resolve(), { ratePerS: Number.NaN })).toThrow(
      /rate above 0/,
    );
  });
});
