import type { EventEnvelope, RequestStatus } from '@handoff/contracts';

/** How long an answer is trusted without an event of its request: what a missed event costs. */
export const REQUEST_CACHE_TTL_MS = 5_000;
/** Requests whose answers are held, each kind; the least recently used go first. */
const HELD_REQUESTS = 10_000;
/** The most the held reads may weigh together (their JSON length), so long conversations fit. */
const HELD_VIEW_BYTES = 64 * 1024 * 1024;
/** Requests whose last event this replica remembers, to know a read it started is outdated. */
const REMEMBERED_EVENTS = 100_000;

interface Held<T> {
  value: T;
  at: number;
  bytes: number;
}

/**
 * What one replica knows of requests between their events. The gateway keeps a request's status
 * (for the actions a closed request refuses) and the agent's read of it (`GET /v1/request/{id}`),
 * and hears every event (its update hub's subscription); intake keeps the request documents a
 * provider's steps check, and hears `request.updated`. Every change of what is kept is
 * announced by an event of that request, which every replica hears on the bus, and an entry is
 * dropped when its request's event arrives.
 *
 * Why this is safe: the service that makes a change publishes its event before it answers the
 * call, and NATS hands a listening replica the event before that answer (intake, publishing on
 * the connection it listens on, hears its own event before the publish is acknowledged), so a
 * change made through a replica is never read back stale from it; through another replica, it is
 * stale here until the event arrives (milliseconds; the same window a status checked before the
 * write always had). A read that overlapped an event of its request is not kept, an entry lives
 * at most {@link REQUEST_CACHE_TTL_MS}, and everything is dropped when the NATS connection is
 * lost (the events sent meanwhile are lost to this replica).
 */
export interface RequestCache {
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
  readonly stats: { statuses: number; views: number; view_bytes: number };
}

export function createRequestCache(
  options: { ttlMs?: number; now?: () => number; maxViewBytes?: number } = {},
): RequestCache {
  const ttl = options.ttlMs ?? REQUEST_CACHE_TTL_MS;
  const now = options.now ?? Date.now;
  const maxViewBytes = options.maxViewBytes ?? HELD_VIEW_BYTES;
  const statuses = new Map<string, Held<RequestStatus>>();
  const views = new Map<string, Held<unknown>>();
  let viewBytes = 0;
  /** Counts events heard; `lastEvent` says when each request last had one. */
  let clock = 0;
  const lastEvent = new Map<string, number>();
  /** The clock when `lastEvent` last forgot a request: reads begun before then are not kept. */
  let forgotAt = 0;

  const dropView = (requestId: string) => {
    const held = views.get(requestId);
    if (!held) return;
    views.delete(requestId);
    viewBytes -= held.bytes;
  };

  const fresh = <T>(map: Map<string, Held<T>>, requestId: string): Held<T> | undefined => {
    const held = map.get(requestId);
    if (!held) return undefined;
    if (now() - held.at > ttl) return undefined;
    // Most recently used last, so the first entry is the one to evict.
    map.delete(requestId);
    map.set(requestId, held);
    return held;
  };

  /** Whether a read of `requestId` that began at `began` may be kept. */
  const stillCurrent = (requestId: string, began: number) =>
    (lastEvent.get(requestId) ?? 0) <= began && forgotAt <= began;

  /** The request changed: reads begun before are not kept, and what is held goes. */
  const changed = (requestId: string, status: boolean) => {
    clock += 1;
    lastEvent.delete(requestId);
    lastEvent.set(requestId, clock);
    if (lastEvent.size > REMEMBERED_EVENTS) {
      const oldest = lastEvent.keys().next();
      if (!oldest.done) lastEvent.delete(oldest.value);
      forgotAt = clock;
    }
    dropView(requestId);
    if (status) statuses.delete(requestId);
  };

  return {
    async status(requestId, load) {
      const held = fresh(statuses, requestId);
      if (held) return held.value;
      const began = clock;
      const value = await load();
      if (stillCurrent(requestId, began)) {
        statuses.delete(requestId);
        statuses.set(requestId, { value, at: now(), bytes: 0 });
        if (statuses.size > HELD_REQUESTS) {
          const oldest = statuses.keys().next();
          if (!oldest.done) statuses.delete(oldest.value);
        }
      }
      return value;
    },

    async view<T>(requestId: string, load: () => Promise<T>): Promise<T> {
      const held = fresh(views, requestId);
      if (held) return held.value as T;
      const began = clock;
      const value = await load();
      if (stillCurrent(requestId, began)) {
        const bytes = JSON.stringify(value).length;
        if (bytes <= maxViewBytes / 4) {
          dropView(requestId);
          views.set(requestId, { value, at: now(), bytes });
          viewBytes += bytes;
          while (views.size > HELD_REQUESTS || viewBytes > maxViewBytes) {
            const oldest = views.keys().next();
            if (oldest.done) break;
            dropView(oldest.value);
          }
        }
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
      viewBytes = 0;
    },

    get stats() {
      return { statuses: statuses.size, views: views.size, view_bytes: viewBytes };
    },
  };
}
