// Another process's CPU time from /proc (src/cpu.ts): the parse, and a real read of this one.
import { describe, expect, it } from '@jest/globals';
import { cpuSecondsOf, parseCpuSeconds } from '../src/cpu.ts';

describe('parseCpuSeconds', () => {
  it('adds utime and stime, counting the fields after the name', () => {
    // A name with spaces and parentheses of its own: the fields are counted from the last `)`.
    const stat =
      '4242 (node (a) b) S 1 4242 4242 0 -1 4194560 1000 0 0 0 250 75 0 0 20 0 11 0 500 0 0';
    expect(parseCpuSeconds(stat)).toBeCloseTo(3.25);
  });

  it('has no answer for a text that is not a stat line', () => {
    expect(parseCpuSeconds('')).toBeUndefined();
    expect(parseCpuSeconds('4242 (node) S 1 2 3')).toBeUndefined();
    expect(parseCpuSeconds('4242 (node) S 1 4242 4242 0 -1 0 0 0 0 0 x y')).toBeUndefined();
  });
});

describe('cpuSecondsOf', () => {
  it('reads a live process, whose count grows as it works', async () => {
    const before = await cpuSecondsOf(process.pid);
    expect(before).toBeGreaterThan(0);
    // Busy for at least 50 ms of this process's own CPU (five of /proc's ticks).
    const start = process.cpuUsage();
    while (process.cpuUsage(start).user < 50_000) Math.sqrt(Math.random());
    expect(await cpuSecondsOf(process.pid)).toBeGreaterThan(before ?? Infinity);
  });

  it('has no answer for a process that is gone', async () => {
    // Above the kernel's largest pid (4,194,304): never a live process.
    expect(await cpuSecondsOf(5_000_000)).toBeUndefined();
  });
});
