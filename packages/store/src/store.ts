import { SpanKind, startSpan, tracesRecorded, type Logger } from '@handoff/observability';
import type { Span } from '@opentelemetry/api';
import { MongoClient, type CreateIndexesOptions, type Db } from 'mongodb';
import { documentLocks, isFerretDB } from './locks.ts';
import { createSerializer } from './serialize.ts';

export interface Store {
  client: MongoClient;
  db: Db;
  /**
   * Runs a read-modify-write of one document after any other one on the same document in this
   * process (see serialize.ts for why), and with `locks` on FerretDB after any other one in any
   * process (locks.ts). Every write of a document that may race goes through it.
   */
  serialize<T>(
    collection: { collectionName: string },
    id: string,
    task: () => Promise<T>,
  ): Promise<T>;
  /** Whether `serialize` also locks each document across processes (see locks.ts). */
  locking: boolean;
  ping(timeoutMs?: number): Promise<boolean>;
  close(): Promise<void>;
}

export interface StoreOptions {
  url: string;
  database: string;
  /** Shown in the server's connection list. */
  appName: string;
  logger: Logger;
  /**
   * Lock each document across processes in `serialize` when the server is FerretDB: several
   * replicas of a service on FerretDB need it (`STORE_LOCKS`; see locks.ts). MongoDB never does.
   */
  locks?: boolean;
  /** The driver's command events on `client`: on while traces are recorded unless set here. */
  monitorCommands?: boolean;
}

/**
 * Connects to MongoDB (or a MongoDB-wire server such as FerretDB). While traces are recorded
 * (telemetry started first, with an exporter), command monitoring is on, so that every database
 * command becomes a client span in the trace of the call that caused it; otherwise the driver
 * does not build the events (about 2 % of a busy service's CPU).
 */
export async function connectStore(options: StoreOptions): Promise<Store> {
  const traced = tracesRecorded();
  const client = new MongoClient(options.url, {
    appName: options.appName,
    monitorCommands: options.monitorCommands ?? traced,
    serverSelectionTimeoutMS: 5_000,
    retryWrites: false,
  });
  if (traced) traceCommands(client, options.database);
  await client.connect();
  const db = client.db(options.database);
  const serializer = createSerializer();
  const locks = options.locks && (await isFerretDB(db)) ? documentLocks(db) : undefined;
  return {
    client,
    db,
    locking: locks !== undefined,
    serialize: (collection, id, task) =>
      serializer(
        `${collection.collectionName}\u0000${id}`,
        locks ? () => locks.hold(`${collection.collectionName}/${id}`, task) : task,
      ),
    async ping(timeoutMs = 1_000) {
      try {
        await db.command({ ping: 1 }, { timeoutMS: timeoutMs });
        return true;
      } catch {
        return false;
      }
    },
    close: () => client.close(),
  };
}

const IGNORED_COMMANDS = new Set([
  'hello',
  'isMaster',
  'ismaster',
  'endSessions',
  'saslStart',
  'saslContinue',
]);

function traceCommands(client: MongoClient, database: string): void {
  const open = new Map<number, Span>();
  client.on('commandStarted', (event) => {
    if (IGNORED_COMMANDS.has(event.commandName)) return;
    const command = event.command as Record<string, unknown>;
    const collection = command[event.commandName];
    open.set(
      event.requestId,
      startSpan(
        `${event.commandName} ${typeof collection === 'string' ? collection : database}`,
        SpanKind.CLIENT,
        {
          'db.system.name': 'mongodb',
          'db.namespace': event.databaseName,
          'db.operation.name': event.commandName,
          ...(typeof collection === 'string' ? { 'db.collection.name': collection } : {}),
        },
      ),
    );
  });
  const finish = (event: { requestId: number }, failed: boolean) => {
    const span = open.get(event.requestId);
    if (!span) return;
    open.delete(event.requestId);
    if (failed) span.setStatus({ code: 2 });
    span.end();
  };
  client.on('commandSucceeded', (event) => finish(event, false));
  client.on('commandFailed', (event) => finish(event, true));
}

export interface IndexDefinition {
  key: Record<string, 1 | -1>;
  options: CreateIndexesOptions & { name: string };
}

/** A service's collections and the indexes each needs. */
export type CollectionPlan = Record<string, readonly IndexDefinition[]>;

/**
 * Creates the collections and indexes of a service. Idempotent: every replica runs it at start,
 * and creating an index that already exists with the same definition is a no-op on both MongoDB
 * and FerretDB.
 */
export async function ensureCollections(db: Db, plan: CollectionPlan): Promise<void> {
  const existing = new Set(
    (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name),
  );
  for (const [name, indexes] of Object.entries(plan)) {
    if (!existing.has(name)) {
      try {
        await db.createCollection(name);
      } catch (error) {
        // Another replica created it first (NamespaceExists).
        if ((error as { code?: number }).code !== 48) throw error;
      }
    }
    // One index per command: FerretDB 1.24 drops the connection when a multi-index
    // createIndexes names only indexes that already exist, and one at a time works on both.
    for (const index of indexes) {
      await db.collection(name).createIndex(index.key, index.options);
    }
  }
}
