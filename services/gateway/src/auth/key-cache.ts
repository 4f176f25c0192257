import { BusError } from '@handoff/bus';
import { AccessInvalidation } from '@handoff/contracts';
import type { NatsConnection } from '@nats-io/transport-node';

export interface KeyCacheOptions<V> {
  nc: NatsConnection;
  /** How long a verified key is trusted without asking the owning service again. */
  ttlMs: number;
  /** The broadcast of invalidations (`AccessInvalidation`), which every replica receives. */
  subject: string;
  /** Asks the owning service about a key's SHA-256; `not_found` over the bus means unknown. */
  fetch(hash: string, callId: string): Promise<V>;
  /** Whether a broadcast invalidation concerns this cached verification. */
  invalidatedBy(value: V, invalidation: AccessInvalidation): boolean;
}

/** Unknown keys are remembered briefly, so a flood of one bad key does not flood the bus. */
const NEGATIVE_TTL_MS = 5_000;
const MAX_ENTRIES = 50_000;

interface Entry<V> {
  value: V | null;
  expiresAt: number;
}

export interface KeyCache<V> {
  /** The verification of the key with this SHA-256, or `null` when the key is unknown. */
  lookup(hash: string, callId: string): Promise<V | null>;
  size(): number;
  stop(): void;
}

/**
 * A per-replica cache of key verifications, keyed by the key's SHA-256 (the key itself is never
 * kept). Concurrent lookups of one key share one bus call. Revocations and changes reach every
 * replica at once through the access invalidation broadcast; a replica that reconnects to NATS
 * forgets everything, since it may have missed broadcasts meanwhile.
 */
export function createKeyCache<V>(options: KeyCacheOptions<V>): KeyCache<V> {
  const cache = new Map<string, Entry<V>>();
  const pending = new Map<string, Promise<V | null>>();

  const subscription = options.nc.subscribe(options.subject, {
    callback: (error, msg) => {
      if (error) return;
      let parsed: ReturnType<typeof AccessInvalidation.safeParse>;
      try {
        parsed = AccessInvalidation.safeParse(msg.json());
      } catch {
        return;
      }
      if (!parsed.success) return;
      for (const [hash, entry] of cache) {
        if (entry.value !== null && options.invalidatedBy(entry.value, parsed.data))
          cache.delete(hash);
      }
      // A lookup in flight may have read the old state: its answer is not cached.
      pending.clear();
    },
  });
  void (async () => {
    for await (const status of options.nc.status()) {
      if (status.type === 'reconnect') cache.clear();
    }
  })();

  return {
    async lookup(hash: string, callId: string): Promise<V | null> {
      const cached = cache.get(hash);
      if (cached && cached.expiresAt > Date.now()) return cached.value;
      const inFlight = pending.get(hash);
      if (inFlight) return inFlight;
      const fetching = (async () => {
        try {
          return await options.fetch(hash, callId);
        } catch (error) {
          if (error instanceof BusError && error.code === 'not_found') return null;
          throw error;
        }
      })();
      pending.set(hash, fetching);
      try {
        const value = await fetching;
        if (pending.get(hash) === fetching) {
          if (cache.size >= MAX_ENTRIES) cache.clear();
          cache.set(hash, {
            value,
            expiresAt: Date.now() + (value === null ? NEGATIVE_TTL_MS : options.ttlMs),
          });
        }
        return value;
      } finally {
        if (pending.get(hash) === fetching) pending.delete(hash);
      }
    },
    size: () => cache.size,
    stop: () => subscription.unsubscribe(),
  };
}
