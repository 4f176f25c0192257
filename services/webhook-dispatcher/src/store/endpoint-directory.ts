import { onBusInterrupted, type Bus } from '@handoff/bus';
import { dispatcherSubjects, type EventType } from '@handoff/contracts';
import type { Logger } from '@handoff/observability';
import { boundedCache } from '@handoff/runtime';
import type { Store } from '@handoff/store';
import { collectionsOf } from './collections.ts';
import type { EndpointDoc } from './endpoints.ts';

/** How long a replica trusts what it read without a change announced: a lost broadcast's cost. */
export const ENDPOINT_CACHE_TTL_MS = 5_000;
/** Integrations and endpoints held, each; the least recently used go first. */
const HELD = 10_000;

/** An LRU map whose entries expire; a value is boxed, since "no endpoint" (null) is kept too. */
function heldMap<T>(ttlMs: number, now: () => number) {
  const map = boundedCache<string, { value: T }>({ max: HELD, ttlMs, now });
  return {
    get: (key: string): T | undefined => map.get(key)?.value,
    set: (key: string, value: T) => void map.set(key, { value }),
    delete: (key: string) => map.delete(key),
    clear: () => map.clear(),
  };
}

export interface EndpointChange {
  id: string;
  integration_id: string;
}

/**
 * The webhook endpoints as the fan-out and the worker need them, without a database read per
 * event or per attempt. This service is the only writer of its endpoints, and every write goes
 * through {@link EndpointDirectory.changed}: the replica that wrote drops what it holds before the
 * call answers, and the others drop it when the broadcast reaches them (milliseconds later). An
 * entry is trusted for at most {@link ENDPOINT_CACHE_TTL_MS}, and everything is dropped when the
 * connection to NATS is lost, so a broadcast missed meanwhile costs at most that long.
 *
 * A read that was under way while a change was announced is not kept: it may predate the change.
 */
export interface EndpointDirectory {
  /** The endpoint, or null when there is none. */
  byId(id: string): Promise<EndpointDoc | null>;
  /**
   * The ids of the enabled endpoints of the event's integration that subscribe to its type and,
   * when `existedAt` is given, were created by then; an A2A task's endpoint only for its request.
   */
  subscribed(
    event: { integration_id: string; type: EventType; request_id: string },
    existedAt?: Date,
  ): Promise<{ _id: string }[]>;
  /** After a write of an endpoint: drops it here and tells every other replica. */
  changed(change: EndpointChange): Promise<void>;
  /** Listens for the other replicas' changes; the returned function stops listening. */
  listen(): () => void;
}

export function endpointDirectory(
  store: Store,
  bus: Bus,
  logger: Logger,
  options: { ttlMs?: number; now?: () => number } = {},
): EndpointDirectory {
  const c = collectionsOf(store);
  const ttl = options.ttlMs ?? ENDPOINT_CACHE_TTL_MS;
  const now = options.now ?? Date.now;
  const byId = heldMap<EndpointDoc | null>(ttl, now);
  const byIntegration = heldMap<EndpointDoc[]>(ttl, now);
  /** Bumped by every change heard: a read begun before it is not kept. */
  let generation = 0;

  const drop = (change: EndpointChange) => {
    generation += 1;
    byId.delete(change.id);
    byIntegration.delete(change.integration_id);
  };
  const dropAll = () => {
    generation += 1;
    byId.clear();
    byIntegration.clear();
  };

  const integrationEndpoints = async (integrationId: string) => {
    const held = byIntegration.get(integrationId);
    if (held) return held;
    const began = generation;
    const docs = await c.endpoints.find({ integration_id: integrationId }).toArray();
    if (began === generation) {
      byIntegration.set(integrationId, docs);
      for (const doc of docs) byId.set(doc._id, doc);
    }
    return docs;
  };

  return {
    async byId(id) {
      const held = byId.get(id);
      if (held !== undefined) return held;
      const began = generation;
      const doc = await c.endpoints.findOne({ _id: id });
      if (began === generation) byId.set(id, doc);
      return doc;
    },

    async subscribed(event, existedAt) {
      const docs = await integrationEndpoints(event.integration_id);
      return docs
        .filter(
          (doc) =>
            doc.enabled &&
            doc.event_types.includes(event.type) &&
            (doc.a2a === undefined || doc.a2a.request_id === event.request_id) &&
            (existedAt === undefined || doc.created_at <= existedAt),
        )
        .map((doc) => ({ _id: doc._id }));
    },

    async changed(change) {
      drop(change);
      bus.nc.publish(dispatcherSubjects.endpointChanged, JSON.stringify(change));
      // On its way before the call that made the change answers.
      await bus.nc.flush();
    },

    listen() {
      const sub = bus.nc.subscribe(dispatcherSubjects.endpointChanged, {
        callback: (error, msg) => {
          if (error) return;
          try {
            const change = msg.json<EndpointChange>();
            if (typeof change.id === 'string' && typeof change.integration_id === 'string')
              drop(change);
            else dropAll();
          } catch {
            dropAll();
          }
        },
      });
      // Broadcasts sent while disconnected are lost: start from the database again.
      const unwatch = onBusInterrupted(bus.nc, () => {
        logger.debug('webhook endpoints cache dropped: the NATS connection was interrupted');
        dropAll();
      });
      return () => {
        unwatch();
        sub.unsubscribe();
      };
    },
  };
}
