import type { EventEnvelope, RequestStatus } from '@handoff/contracts';
import { boundedCache, lookupCache } from './cache.ts';

/** How long an answer is trusted without an event of its request: what a missed event costs. */
export const REQUEST_CACHE_TTL_MS = 5_000;
/** Requests whose answers are held, each kind; the least recently used go first. */
const HELD_REQUESTS = 10_000;
/** The most the held reads may weigh together (their JSON length), so long conversations fit. */
const HELD_VIEW_BYTES = 64 * 1024 * 1024;
/** Requests whose last event this replica remembers, to know a read it started is outdated. */
const REMEMBERED_EVENTS = 100_000;
/** Requests whose owner is held; an owner never changes, so only their number bounds them. */
const HELD_OWNERS = 50_000;

/** Who owns a request and its token's SHA-256: both fixed when the request is created. */
export interface RequestOwner {
  integration_id: string;
  token_hash: string;
}

/**
 * What one replica knows of requests between their events. The gateway keeps a request's owner and
 * token hash (its request token check), its status (for the actions a closed request refuses) and
 * the agent's read of it (`GET /v1/request/{id}`), and hears every event (its update hub's subscription); intake keeps the request documents a
 * provider's steps check, and hears `request.updated`. Every change of what is kept is
 * announced by an event of that request, which every replica hears on the bus, and an entry is
 * dropped when its request's event arrives (an owner never changes, and is kept).
 *
 * Why this is safe: the service that makes a change publishes its event before it answers the
 * call, and NATS hands a listening replica the event before that answer (intake, publishing on
 * the connection it listens on, hears its own event before the publish is acknowledged), so a
 * change made through a replica is never read back stale from it; through another replica, it is
 * stale here until the event arrives (milliseconds; the same window a status checked before the
 * write always had). A read that overlapped an event of its request is not kept, an entry lives
 * at most {@link REQUEST_CACHE_TTL_MS}, and everything but owners is dropped when the NATS
 * connection is lost (the events sent meanwhile are lost to this replica).
 */
export interface RequestCache {
  /**
   * The request's owner, from memory or from `load` (one load at a time per request). Unlike
   * the rest, it is kept through events and a lost connection: it never changes. A failed load
   * (an unknown request) is not kept.
   */
  owner(requestId: string, load: () => Promise<RequestOwner>): Promise<RequestOwner>;
  /** The owner of a request this replica just created: known without a lookup. */
  knowOwner(requestId: string, owner: RequestOwner): void;
  /** The request's status, from memory or from `load`. */
  status(requestId: string, load: () => Promise<RequestStatus>): Promise<RequestStatus>;
  /** A read of the request (the agent's in the gateway, the document in intake), from memory or from `load`. */
  view<T>(requestId: string, load: () => Promise<T>): Promise<T>;
  /** An event of a request was announced: what is held of that request goes. */
  heard(event: EventEnvelope): void;
  /** A change that no event announces was made here: what is held of that request goes. */
  drop(requestId: string): void;
  /** Drops everything (the connection to the bus was lost). */
  clear(): void;
  readonly stats: { owners: number; statuses: number; views: number; view_bytes: number };
}

export function createRequestCache(
  options: { ttlMs?: number; now?: () => number; maxViewBytes?: number } = {},
): RequestCache {
  const ttl = options.ttlMs ?? REQUEST_CACHE_TTL_MS;
  const now = options.now ?? Date.now;
  const maxViewBytes = options.maxViewBytes ?? HELD_VIEW_BYTES;
  const statuses = boundedCache<string, RequestStatus>({ max: HELD_REQUESTS, ttlMs: ttl, now });
  // Boxed: a read may be any value; weighed by its JSON length.
  const views = boundedCache<string, { value: unknown }>({
    max: HELD_REQUESTS,
    ttlMs: ttl,
    now,
    maxSize: maxViewBytes,
  });
  const owners = lookupCache<RequestOwner>(HELD_OWNERS);
  /** Counts events heard; `lastEvent` says when each request last had one. */
  let clock = 0;
  /** The clock when `lastEvent` last forgot a request: reads begun before then are not kept. */
  let forgotAt = 0;
  const lastEvent = boundedCache<string, number>({
    max: REMEMBERED_EVENTS,
    onEvict: () => (forgotAt = clock),
  });

  /** Whether a read of `requestId` that began at `began` may be kept. */
  const stillCurrent = (requestId: string, began: number) =>
    (lastEvent.peek(requestId) ?? 0) <= began && forgotAt <= began;

  /** The request changed: reads begun before are not kept, and what is held goes. */
  const changed = (requestId: string, status: boolean) => {
    clock += 1;
    lastEvent.set(requestId, clock);
    views.delete(requestId);
    if (status) statuses.delete(requestId);
  };

  return {
    owner(requestId, load) {
      return owners.get(requestId, async () => {
        const { integration_id, token_hash } = await load();
        // Only the two fields: the answer may carry more than what is kept.
        return { integration_id, token_hash };
      });
    },

    knowOwner(requestId, { integration_id, token_hash }) {
      owners.set(requestId, { integration_id, token_hash });
    },

    async status(requestId, load) {
      const held = statuses.get(requestId);
      if (held) return held;
      const began = clock;
      const value = await load();
      if (stillCurrent(requestId, began)) statuses.set(requestId, value);
      return value;
    },

    async view<T>(requestId: string, load: () => Promise<T>): Promise<T> {
      const held = views.get(requestId);
      if (held) return held.value as T;
      const began = clock;
      const value = await load();
      if (stillCurrent(requestId, began)) {
        const bytes = JSON.stringify(value).length;
        if (bytes <= maxViewBytes / 4) views.set(requestId, { value }, { size: bytes });
      }
      return value;
    },

    heard(event) {
      // Only the request's own events change its status.
      changed(event.data.request_id, event.type.startsWith('request.'));
    },

    drop(requestId) {
      changed(requestId, true);
    },

    clear() {
      clock += 1;
      forgotAt = clock;
      statuses.clear();
      views.clear();
    },

    get stats() {
      return {
        owners: owners.size,
        statuses: statuses.size,
        views: views.size,
        view_bytes: views.calculatedSize,
      };
    },
  };
}
