// The chaos run's one source of chance: a seeded generator, so that a seed replays the same
// schedule of faults and the same choices of the load (the machine's timing still varies).

/** A pseudo-random generator over [0, 1) from a 32-bit seed (mulberry32). */
export interface Random {
  (): number;
  /** A whole number from `min` to `max`, both included. */
  int(min: number, max: number): number;
  /** One of `items` (never empty). */
  pick<T>(items: readonly T[]): T;
  /** True with probability `p`. */
  chance(p: number): boolean;
  /** A generator of its own, seeded from this one: a worker's choices do not shift the others'. */
  fork(): Random;
}

export function seeded(seed: number): Random {
  let state = seed >>> 0;
  const next = (() => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }) as Random;
  next.int = (min, max) => min + Math.floor(next() * (max - min + 1));
  next.pick = <T>(items: readonly T[]): T => {
    const item = items[Math.floor(next() * items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  };
  next.chance = (p) => next() < p;
  next.fork = () => seeded(Math.floor(next() * 4_294_967_296));
  return next;
}
