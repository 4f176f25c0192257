import { AccessInvalidation } from '@handoff/contracts';
import type { NatsConnection } from '@nats-io/transport-node';
import { onBusInterrupted } from './connection.ts';

export interface AccessCacheOptions<V> {
  nc: NatsConnection;
  /** How long an answer is trusted without asking its owner again. */
  ttlMs: number;
  /**
   * The broadcast(s) of invalidations (`AccessInvalidation`), which every replica receives: the
   * access broadcast, and for a cache that also holds what its own service changes, that
   * service's own.
   */
  subject: string | readonly string[];
  /** Reads the current answer for a key (`callId`: the call that asks); `null` when unknown. */
  fetch(key: string, callId?: string): Promise<V | null>;
  /** Whether a broadcast invalidation concerns this cached answer. */
  invalidatedBy(value: V, invalidation: AccessInvalidation): boolean;
}

/** Unknown keys are remembered briefly, so a flood of one bad key does not flood the owner. */
const NEGATIVE_TTL_MS = 5_000;
const MAX_ENTRIES = 50_000;

interface Entry<V> {
  value: V | null;
  expiresAt: number;
}

export interface AccessCache<V> {
  /** The answer for this key, or `null` when it is unknown. */
  lookup(key: string, callId?: string): Promise<V | null>;
  size(): number;
  stop(): void;
}

/**
 * A per-replica cache of access facts (the gateway's key verifications, intake's providers): each
 * answer is kept for `ttlMs`, and concurrent lookups of one key share one fetch. A change reaches
 * every replica at once through the access invalidation broadcast (`accessSubjects.invalidate`).
 * The replica that made the change hears its own broadcast before its flush returns (the server
 * answers a connection in order), so it reads its own write when it publishes and flushes on the
 * connection the cache listens on. A replica whose NATS connection drops forgets everything, since
 * it may miss broadcasts meanwhile.
 */
export function createAccessCache<V>(options: AccessCacheOptions<V>): AccessCache<V> {
  const cache = new Map<string, Entry<V>>();
  const pending = new Map<string, Promise<V | null>>();

  const drop = (error: Error | null, msg: { json(): unknown }) => {
    if (error) return;
    let parsed: ReturnType<typeof AccessInvalidation.safeParse>;
    try {
      parsed = AccessInvalidation.safeParse(msg.json());
    } catch {
      return;
    }
    if (!parsed.success) return;
    for (const [key, entry] of cache) {
      if (entry.value !== null && options.invalidatedBy(entry.value, parsed.data))
        cache.delete(key);
    }
    // A lookup in flight may have read the old state: its answer is not cached.
    pending.clear();
  };
  const subscriptions = (
    typeof options.subject === 'string' ? [options.subject] : options.subject
  ).map((subject) => options.nc.subscribe(subject, { callback: drop }));
  const unwatch = onBusInterrupted(options.nc, () => cache.clear());

  return {
    async lookup(key, callId) {
      const cached = cache.get(key);
      if (cached && cached.expiresAt > Date.now()) return cached.value;
      const inFlight = pending.get(key);
      if (inFlight) return inFlight;
      const fetching = options.fetch(key, callId);
      pending.set(key, fetching);
      try {
        const value = await fetching;
        if (pending.get(key) === fetching) {
          if (cache.size >= MAX_ENTRIES) cache.clear();
          cache.set(key, {
            value,
            expiresAt: Date.now() + (value === null ? NEGATIVE_TTL_MS : options.ttlMs),
          });
        }
        return value;
      } finally {
        if (pending.get(key) === fetching) pending.delete(key);
      }
    },
    size: () => cache.size,
    stop: () => {
      unwatch();
      for (const subscription of subscriptions) subscription.unsubscribe();
    },
  };
}
