// The services' in-memory caches, on one maintained LRU library (lru-cache) rather than each
// with its own eviction.
import { LRUCache } from 'lru-cache';

export interface BoundedCacheOptions<K, V> {
  /** Entries held; past it the least recently used goes. */
  max: number;
  /** How long an entry is trusted after it was set; without it, until it is evicted or deleted. */
  ttlMs?: number;
  /** The clock the TTL is read on, in ms (tests move it); it must not stand at 0. */
  now?: () => number;
  /** The most the entries may weigh together, each weighed by the `size` it is set with. */
  maxSize?: number;
  /** Told of each entry that made room for another (not of those deleted or replaced). */
  onEvict?: (key: K, value: V) => void;
}

/** What the library holds: any key or value but `null` and `undefined`. */
type Held = NonNullable<unknown>;

/** A map bounded by count (and by weight), least recently used out, whose entries may expire. */
export type BoundedCache<K extends Held, V extends Held> = LRUCache<K, V>;

export function boundedCache<K extends Held, V extends Held>(
  options: BoundedCacheOptions<K, V>,
): BoundedCache<K, V> {
  const { max, ttlMs, now, maxSize, onEvict } = options;
  const cache = new LRUCache<K, V>({
    max,
    // Resolution 0: the clock is read at every check, so a test's clock that moved is seen.
    ...(ttlMs === undefined ? {} : { ttl: ttlMs, ttlResolution: 0 }),
    ...(now ? { perf: { now } } : {}),
    ...(maxSize === undefined ? {} : { maxSize }),
    ...(onEvict
      ? { dispose: (value: V, key: K, reason: string) => reason === 'evict' && onEvict(key, value) }
      : {}),
  });
  if (ttlMs !== undefined) sweptLater(cache);
  return cache;
}

/**
 * How often the caches whose entries expire are rid of the expired ones. The library drops an
 * expired entry only when it is read or pushed out by `max`, so a cache of a few seconds' reads
 * held the last `max` requests read long after they expired: memory that grew with the requests
 * a process had seen, up to the bound (the soak of seed 71 read it as a leak of the gateway).
 */
export const SWEEP_EVERY_MS = 10_000;

/** What the sweep needs of a cache. */
interface Expiring {
  purgeStale(): boolean;
}

const expiring = new Set<WeakRef<Expiring>>();
let sweeper: NodeJS.Timeout | undefined;

function sweptLater(cache: Expiring): void {
  expiring.add(new WeakRef(cache));
  // Unref'd: the sweep never keeps a process alive; one timer for every cache of the process.
  sweeper ??= setInterval(sweepExpired, SWEEP_EVERY_MS).unref();
}

/** Drops the expired entries of every cache with a TTL (every SWEEP_EVERY_MS, on its own). */
export function sweepExpired(): void {
  for (const ref of expiring) {
    const cache = ref.deref();
    if (cache) cache.purgeStale();
    else expiring.delete(ref);
  }
}

/**
 * Values that never change once they exist, such as who owns a request: held by key in a bounded
 * LRU and looked up once at a time per key (callers that ask together share the lookup). A lookup
 * that finds nothing (`undefined`) or fails is not kept, so the next caller asks again.
 */
export interface LookupCache<V> {
  get(key: string, lookup: () => Promise<V>): Promise<V>;
  /** Keeps a value learned without a lookup. */
  set(key: string, value: V): void;
  readonly size: number;
}

export function lookupCache<V>(max: number): LookupCache<V> {
  // Boxed: a value may be `undefined` (found nothing), which the library cannot hold.
  const held = boundedCache<string, { value: V }>({ max });
  const pending = new Map<string, Promise<V>>();
  const keep = (key: string, value: V) => {
    if (value !== undefined) held.set(key, { value });
  };
  return {
    get(key, lookup) {
      const known = held.get(key);
      if (known) return Promise.resolve(known.value);
      const asking = pending.get(key);
      if (asking) return asking;
      const asked = Promise.resolve()
        .then(lookup)
        .then((value) => {
          keep(key, value);
          return value;
        })
        .finally(() => pending.delete(key));
      pending.set(key, asked);
      return asked;
    },
    set: keep,
    get size() {
      return held.size;
    },
  };
}
