import {
  busOptionsFromEnv,
  connectBus,
  endpoint,
  ensureStreams,
  serve,
  type Bus,
  type Endpoint,
  type Served,
} from '@handoff/bus';
import type { BaseServiceEnv } from '@handoff/config';
import { NATS_GRANTS } from '@handoff/config/nats-users';
import type { HealthReply } from '@handoff/contracts';
import { SEQUENCES_BUCKET, subjects, type BackendService } from '@handoff/contracts';
import { createLogger, type Logger } from '@handoff/observability';
import { connectStore, ensureCollections, type CollectionPlan, type Store } from '@handoff/store';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Collection } from 'mongodb';
import { z } from 'zod';
import { watchDatabase } from './db-watchdog.ts';
import { sequenceAllocator, type SequenceAllocator } from './sequences.ts';
import { startHealthServer, type HealthServer } from './health-server.ts';
import {
  createOutbox,
  OUTBOX_WRITERS,
  outboxIndex,
  outboxWindowIndex,
  RETIRED_OUTBOX_INDEX,
  type Outbox,
  type OutboxDocument,
  type OutboxMessage,
  type OutboxWriterDoc,
} from './outbox.ts';

export interface ServiceDefinition<E extends BaseServiceEnv> {
  name: BackendService;
  version: string;
  description: string;
  env: E;
  /** The collections this service owns, with their indexes. No other service touches them. */
  collections: CollectionPlan;
  /**
   * The collections (of `collections`) whose documents carry outbox messages, by name, and what
   * to do before each publish.
   */
  outbox?: {
    collections: readonly string[];
    /**
     * Those of `collections` whose documents keep their messages after the publish (see
     * `OutboxOptions.kept`): written through `outbox.withMessages`, moved through `moveDocument`
     * with the outbox, and never given a message any other way.
     */
    kept?: readonly string[];
    beforePublish?: (deps: {
      store: Store;
      bus: Bus;
      sequences: SequenceAllocator;
    }) => (message: OutboxMessage) => Promise<Record<string, unknown> | undefined>;
  };
  /** Bus operations beyond `health`, built once the store and bus are connected. */
  endpoints?: (deps: ServiceDeps<E>) => Record<string, Endpoint>;
  /** Extra work started after the endpoints (consumers, timers); returns its own stop. */
  background?: (deps: ServiceDeps<E>) => Promise<() => Promise<void>>;
  /** Lines go here instead of stdout (tests capture them). */
  logger?: Logger;
}

export interface ServiceDeps<E extends BaseServiceEnv> {
  env: E;
  bus: Bus;
  store: Store;
  logger: Logger;
  outbox: Outbox;
  /** Per-request event sequences (one counter per request, shared by every service). */
  sequences: SequenceAllocator;
}

export interface RunningService<E extends BaseServiceEnv> extends ServiceDeps<E> {
  instance: string;
  healthPort: number;
  /** Graceful stop: not ready, no new requests, in-flight work finished, bus drained, database closed. */
  stop(): Promise<void>;
  /** Resolves when the database has been unreachable for `DB_LOST_EXIT_MS` (db-watchdog.ts). */
  lost: Promise<string>;
}

const HEALTH_CACHE_MS = 1_000;

/** Starts a backend service: bus, store, collections, endpoints and probes, in that order. */
export async function runService<E extends BaseServiceEnv>(
  definition: ServiceDefinition<E>,
): Promise<RunningService<E>> {
  const { env, name } = definition;
  const instance = `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  const logger =
    definition.logger ??
    createLogger({ service: name, version: definition.version, level: env.LOG_LEVEL });
  const startedAt = Date.now();
  let draining = false;

  const bus = await connectBus({
    ...busOptionsFromEnv(env),
    name: `${name}/${instance}`,
    logger,
  });
  let store: Store | undefined;
  let served: Served | undefined;
  let stopBackground: (() => Promise<void>) | undefined;
  let stopSweep: (() => Promise<void>) | undefined;
  let outboxRef: Outbox | undefined;
  let health: HealthServer | undefined;
  const sequences = sequenceAllocator(bus.js);
  try {
    // Only the services that number events touch the sequences bucket (their NATS grants say so).
    await ensureStreams(bus.jsm, env.NATS_STREAM_REPLICAS, {
      sequences: NATS_GRANTS[name].buckets.some((bucket) => bucket === SEQUENCES_BUCKET.name),
    });
    store = await connectStore({
      url: env.MONGO_URL,
      database: env.MONGO_DB,
      appName: name,
      logger,
      locks: env.STORE_LOCKS,
    });
    await ensureCollections(store.db, definition.collections);
    const outbox = await openOutbox(definition, { store, bus, logger, sequences });
    stopSweep = outbox.start();
    const deps: ServiceDeps<E> = { env, bus, store, logger, outbox, sequences };
    const connectedStore = store;

    const checks = healthChecks(bus, connectedStore);
    const healthEndpoint = endpoint(z.unknown(), async () => {
      const result = await checks();
      const reply: HealthReply = {
        service: name,
        version: definition.version,
        instance,
        uptime_s: Math.round((Date.now() - startedAt) / 1000),
        status: draining
          ? 'draining'
          : Object.values(result).every((s) => s === 'up')
            ? 'ok'
            : 'degraded',
        checks: result,
      };
      return reply;
    });

    served = await serve(bus.nc, {
      name: `handoff-${name}`,
      version: definition.version,
      description: definition.description,
      group: subjects.group(name),
      endpoints: { health: healthEndpoint, ...definition.endpoints?.(deps) },
      logger,
    });
    outboxRef = outbox;
    stopBackground = await definition.background?.(deps);
    health = await startHealthServer(env.HEALTH_PORT, async () => {
      const result = await checks();
      const ok = !draining && Object.values(result).every((s) => s === 'up');
      return { ok, body: { status: ok ? 'ready' : 'not_ready', draining, checks: result } };
    });
  } catch (error) {
    await served?.stop().catch(() => undefined);
    await stopBackground?.().catch(() => undefined);
    await stopSweep?.().catch(() => undefined);
    await bus.nc.close().catch(() => undefined);
    await store?.close().catch(() => undefined);
    throw error;
  }

  logger.info({ instance, health_port: health.port }, 'service started');
  const runningStore = store;
  const watch = watchDatabase(() => runningStore.ping(), env.DB_LOST_EXIT_MS);
  const runningOutbox = outboxRef;
  const runningServed = served;
  const runningHealth = health;
  let stopping: Promise<void> | undefined;
  return {
    env,
    bus,
    store: runningStore,
    logger,
    outbox: runningOutbox,
    sequences,
    instance,
    healthPort: runningHealth.port,
    lost: watch.lost,
    stop() {
      stopping ??= (async () => {
        draining = true;
        watch.stop();
        logger.info('stopping: draining requests');
        await runningServed.stop();
        await stopBackground?.();
        await stopSweep?.();
        await bus.nc.drain();
        await runningStore.close();
        await runningHealth.close();
        logger.info('stopped');
      })();
      return stopping;
    },
  };
}

/** What the probes and the health endpoint report: NATS as the connection says, the database pinged. */
function healthChecks(bus: Bus, store: Store) {
  // A database ping at most once a second, however often probes and /readyz ask.
  let mongoCheck: { at: number; up: Promise<boolean> } | undefined;
  const mongoUp = () => {
    if (!mongoCheck || Date.now() - mongoCheck.at > HEALTH_CACHE_MS) {
      mongoCheck = { at: Date.now(), up: store.ping() };
    }
    return mongoCheck.up;
  };
  return async () => ({
    nats: bus.nc.isClosed() ? ('down' as const) : ('up' as const),
    mongo: (await mongoUp()) ? ('up' as const) : ('down' as const),
  });
}

/**
 * The service's outbox over the collections it names, with their indexes; in the writer registry
 * before the first kept write, and with the messages a crash (or a version without the marker)
 * left behind published before new work arrives. The caller starts its sweep.
 */
async function openOutbox<E extends BaseServiceEnv>(
  definition: ServiceDefinition<E>,
  deps: { store: Store; bus: Bus; logger: Logger; sequences: SequenceAllocator },
): Promise<Outbox> {
  const { name } = definition;
  const { store, bus } = deps;
  const outboxDefinition = definition.outbox;
  const outboxCollections = outboxCollectionsOf(
    name,
    store,
    definition.collections,
    outboxDefinition?.collections ?? [],
  );
  const keptNames = outboxDefinition?.kept ?? [];
  const notOutbox = keptNames.filter((c) => !outboxDefinition?.collections.includes(c));
  if (notOutbox.length > 0) {
    throw new Error(`${name}: kept collections that carry no outbox: ${notOutbox.join(', ')}`);
  }
  const kept = outboxCollections.filter((c) => keptNames.includes(c.collectionName));
  await ensureOutboxIndexes(store, outboxCollections, kept);
  const beforePublish = outboxDefinition?.beforePublish?.({
    store,
    bus,
    sequences: deps.sequences,
  });
  const outbox = createOutbox({
    js: bus.js,
    logger: deps.logger,
    collections: outboxCollections,
    serialize: store.serialize,
    ...(kept.length > 0
      ? { kept, writers: store.db.collection<OutboxWriterDoc>(OUTBOX_WRITERS) }
      : {}),
    ...(beforePublish ? { beforePublish } : {}),
  });
  await outbox.register();
  await outbox.adoptUnmarked();
  await outbox.sweep();
  return outbox;
}

/**
 * A collection as the outbox reads and writes it: the one way to hand a service's collection to
 * the outbox (its documents' own type is not the outbox's).
 */
export function outboxCollection(
  store: Pick<Store, 'db'>,
  collection: string,
): Collection<OutboxDocument> {
  return store.db.collection<OutboxDocument>(collection);
}

/** The service's outbox collections, which must be among the collections it owns. */
function outboxCollectionsOf(
  service: BackendService,
  store: Store,
  plan: CollectionPlan,
  names: readonly string[],
): Collection<OutboxDocument>[] {
  const unknown = names.filter((collection) => !(collection in plan));
  if (unknown.length > 0) {
    throw new Error(`${service}: outbox collections it does not own: ${unknown.join(', ')}`);
  }
  return names.map((collection) => outboxCollection(store, collection));
}

/**
 * The outbox's indexes on each collection that carries messages (declared here once, not per
 * service): the marker's, and on kept collections the window's, beside the writer registry;
 * and the retired range index dropped where an earlier version created it.
 */
async function ensureOutboxIndexes(
  store: Store,
  collections: readonly Collection<OutboxDocument>[],
  kept: readonly Collection<OutboxDocument>[],
): Promise<void> {
  const keptNames = new Set(kept.map((collection) => collection.collectionName));
  await ensureCollections(store.db, {
    ...Object.fromEntries(
      collections.map((collection) => [
        collection.collectionName,
        keptNames.has(collection.collectionName) ? [outboxIndex, outboxWindowIndex] : [outboxIndex],
      ]),
    ),
    ...(kept.length > 0 ? { [OUTBOX_WRITERS]: [] } : {}),
  });
  for (const collection of collections) {
    try {
      await collection.dropIndex(RETIRED_OUTBOX_INDEX);
    } catch (error) {
      // IndexNotFound (27), or NamespaceNotFound (26) on a server that names it so: nothing to drop.
      const code = (error as { code?: number }).code;
      if (code !== 27 && code !== 26) throw error;
    }
  }
}
