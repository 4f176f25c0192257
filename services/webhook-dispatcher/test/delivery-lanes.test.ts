import { describe, expect, it } from '@jest/globals';
import { Lanes } from '../src/delivery/lanes.ts';

/** Lanes of named jobs on a clock the test moves, with the slots each endpoint has. */
function lanes(concurrency: number, slots: Record<string, number> = {}, patienceMs = 1_000) {
  let now = 0;
  const board = new Lanes<string>(
    { concurrency, slots: (endpointId) => slots[endpointId] ?? 1, patienceMs: () => patienceMs },
    () => now,
  );
  const started: string[] = [];
  return {
    board,
    started,
    pump: () => board.startWaiting((job) => started.push(job)),
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('the lanes of held jobs', () => {
  it('serves the endpoints in turn, each within its slots, the replica within its concurrency', () => {
    const { board, started, pump } = lanes(4, { a: 2, b: 1 });
    for (const job of ['a1', 'a2', 'a3', 'b1', 'b2', 'c1']) board.hold(job.slice(0, 1), job);
    expect(board.held).toBe(6);
    pump();
    expect(started).toEqual(['a1', 'b1', 'c1', 'a2']);
    expect(board.running).toBe(4);
    expect(board.held).toBe(6);
    expect(board.ahead('a')).toBe(3);
    expect(board.busy('a')).toBe(true);
    // c's one slot is in use; d has nothing here.
    expect(board.busy('c')).toBe(true);
    expect(board.busy('d')).toBe(false);
    // b's slot is free but the replica is full until a job ends.
    board.sent('b');
    pump();
    expect(started).toHaveLength(4);
    board.ended();
    pump();
    expect(started).toEqual(['a1', 'b1', 'c1', 'a2', 'b2']);
    // a's slots are both in use: a3 waits.
    board.ended();
    pump();
    expect(started).toHaveLength(5);
    board.sent('a');
    pump();
    expect(started.at(-1)).toBe('a3');
    expect(board.held).toBe(4);
  });

  it('counts an endpoint stalled when it has attempts under way and no progress for its patience', () => {
    const { board, pump, advance } = lanes(4, { a: 1 }, 1_000);
    board.hold('a', 'a1');
    board.hold('a', 'a2');
    expect(board.stalled('a')).toBe(false);
    pump();
    advance(900);
    board.sent('a');
    board.ended();
    pump();
    // An answer is progress: the patience runs from there.
    advance(900);
    expect(board.stalled('a')).toBe(false);
    board.hold('a', 'a3');
    advance(200);
    expect(board.stalled('a')).toBe(true);
    expect(board.takeStalled()).toEqual(['a3']);
    expect(board.held).toBe(1);
    // Nothing under way, nothing stalled.
    board.sent('a');
    board.ended();
    expect(board.stalled('a')).toBe(false);
  });

  it('gives up every waiting job when the worker stops', () => {
    const { board, pump } = lanes(1);
    for (const job of ['a1', 'a2', 'b1']) board.hold(job.slice(0, 1), job);
    pump();
    // a was served, so it went to the back of the line.
    expect(board.takeAllWaiting()).toEqual(['b1', 'a2']);
    expect(board.held).toBe(1);
  });
});
