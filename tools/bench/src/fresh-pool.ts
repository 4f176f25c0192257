// Pools of things each call uses up (a (provider, request) pair that has no proposal yet, a
// milestone still waiting for review): made in setup, sized from the run's length, handed out once
// each, in an order that spreads concurrent calls over different requests.

/** How much larger than the estimate a pool is made. */
export const POOL_MARGIN = 1.5;

/**
 * The calls a load may make in its warm-up and measurement at `ratePerS` (a generous estimate of
 * the path's rate), times {@link POOL_MARGIN}.
 */
export function expectedCalls(
  ratePerS: number,
  run: { durationMs: number; warmupMs: number },
): number {
  return Math.ceil((ratePerS * (run.durationMs + run.warmupMs) * POOL_MARGIN) / 1_000);
}

/** Used up: no item is left for the next call. */
export class PoolExhaustedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PoolExhaustedError';
  }
}

/** Hands out each item once, in order; then every `take` throws a {@link PoolExhaustedError}. */
export class FreshPool<T> {
  readonly #items: readonly T[];
  readonly #what: string;
  readonly #sizedFor: string;
  #next = 0;

  /**
   * `what` names the items (`fresh (provider, request) pairs`), `sizedFor` says what the pool was
   * sized for, both for the error that says it ran out.
   */
  constructor(items: readonly T[], what: string, sizedFor: string) {
    this.#items = items;
    this.#what = what;
    this.#sizedFor = sizedFor;
  }

  /** The next unused item. */
  take(): T {
    const item = this.#items[this.#next];
    if (item === undefined) {
      throw new PoolExhaustedError(
        `ran out of ${this.#what}: all ${this.#items.length} made in setup are used ` +
          `(sized for ${this.#sizedFor}); the path ran faster than estimated, so the pool needs ` +
          'to be larger (never reused: a used item would answer differently)',
      );
    }
    this.#next += 1;
    return item;
  }

  get size(): number {
    return this.#items.length;
  }

  get used(): number {
    return this.#next;
  }
}

/**
 * Every (a, b) pair once, ordered so that any few consecutive pairs have different `b`s and
 * different `a`s (when there are enough of each): pair k takes `bs[k mod B]` and
 * `as[(⌊k / B⌋ + k mod B) mod A]`. For one `b`, the offsets ⌊k / B⌋ run over all of `as`, so no
 * pair repeats.
 */
export function spreadPairs<A, B>(as: readonly A[], bs: readonly B[]): [A, B][] {
  const pairs: [A, B][] = [];
  for (let round = 0; round < as.length; round += 1) {
    for (const [j, b] of bs.entries()) {
      const a = as[(round + j) % as.length];
      if (a === undefined) throw new Error('a hole in the items to pair');
      pairs.push([a, b]);
    }
  }
  return pairs;
}

/** The lists' items taken in turn, one from each list (skipping those used up), in one list. */
export function interleave<T>(lists: readonly (readonly T[])[]): T[] {
  // rows[i]: the i-th item of each list that has one, in the lists' order.
  const rows: T[][] = [];
  for (const list of lists) {
    for (const [i, item] of list.entries()) (rows[i] ??= []).push(item);
  }
  return rows.flat();
}
