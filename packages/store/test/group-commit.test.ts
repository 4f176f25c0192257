import { describe, expect, it } from '@jest/globals';
import { groupCommit, GroupCommitTimeoutError } from '../src/index.ts';

/** A write that records its batches and finishes only when told to. */
function gatedWrites() {
  const batches: number[][] = [];
  const gates: (() => void)[] = [];
  const write = (items: number[]) => {
    batches.push(items);
    return new Promise<void>((resolve) => gates.push(resolve));
  };
  const openNext = async () => {
    for (let turn = 0; turn < 100 && gates.length === 0; turn += 1) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    gates.shift()?.();
  };
  return { batches, write, openNext };
}

describe('groupCommit', () => {
  it('writes at once when idle, and gathers what comes during a write into the next batch', async () => {
    const { batches, write, openNext } = gatedWrites();
    const batch = groupCommit<number>(write);
    const first = batch.add(1);
    // Added in the same turn: they go together.
    const second = batch.add(2);
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toEqual([[1, 2]]);
    // While that write is under way, more come; none is written yet.
    const later = [batch.add(3), batch.add(4), batch.add(5)];
    expect(batches).toEqual([[1, 2]]);
    await openNext();
    await Promise.all([first, second]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toEqual([
      [1, 2],
      [3, 4, 5],
    ]);
    await openNext();
    await Promise.all(later);
    await batch.close();
    expect(batches).toHaveLength(2);
  });

  it('tries a failed batch again, then rejects its callers only', async () => {
    let calls = 0;
    const batch = groupCommit<string>((items) => {
      calls += 1;
      return items.includes('bad')
        ? Promise.reject(new Error('refused'))
        : Promise.resolve(undefined);
    });
    await expect(batch.add('bad')).rejects.toThrow('refused');
    expect(calls).toBe(3);
    await expect(batch.add('good')).resolves.toBeUndefined();
    await batch.close();
  });

  it('settles each caller with its own item’s error when the write names one', async () => {
    const batch = groupCommit<string>((items) =>
      Promise.resolve(items.map((item) => (item === 'bad' ? new Error(item) : undefined))),
    );
    const outcomes = await Promise.allSettled([batch.add('a'), batch.add('bad'), batch.add('b')]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    await batch.close();
  });
});

describe('groupCommit with a write that never ends', () => {
  it('aborts it after its timeout, fails its batch, and writes the next one', async () => {
    const signals: AbortSignal[] = [];
    const written: string[][] = [];
    const batch = groupCommit<string>(
      (items, signal) => {
        signals.push(signal);
        // The first write heeds nothing: the batch fails all the same.
        if (items.includes('never')) return new Promise(() => undefined);
        written.push(items);
        return Promise.resolve();
      },
      { tries: 1, timeoutMs: 50 },
    );
    const stuck = batch.add('never');
    await new Promise((resolve) => setImmediate(resolve));
    const next = batch.add('next');
    await expect(stuck).rejects.toBeInstanceOf(GroupCommitTimeoutError);
    await expect(stuck).rejects.toThrow('a batch of 1 write(s) took over 0.05 s and was aborted');
    await next;
    expect(written).toEqual([['next']]);
    expect(signals.map((signal) => signal.aborted)).toEqual([true, false]);
  });
});
