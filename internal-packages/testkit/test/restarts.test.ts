// Fault tests' restarts of the database servers the testkit runs (the chaos run restarts the
// stack's FerretDB and PostgreSQL under load): the data stays, clients connected before carry
// on, and the stop ends the processes the restarts started.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { MongoClient } from 'mongodb';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  eventually,
  ferretBackend,
  serviceDatabase,
  startMongo,
  startNats,
  type MongoServer,
} from '../src/index.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'handoff-restarts-'));
const onPostgres = ferretBackend(process.env) === 'postgresql';
let server: MongoServer;
/** Connected before any restart, kept across all of them. */
let client: MongoClient;
/** Every pid the server has had, for the check that the stop leaves none. */
const seen = new Set<number>();
const closing: MongoClient[] = [];

beforeAll(async () => {
  // Durable, as the local stack's: an immediate shutdown of PostgreSQL then loses no commit.
  server = await startMongo({ dataDir, env: {} });
  client = new MongoClient(server.url, { serverSelectionTimeoutMS: 30_000 });
  closing.push(client);
  await client.connect();
  remember();
}, 120_000);

afterAll(async () => {
  for (const open of closing) await open.close();
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

function remember(): number[] {
  const pids = server.pids?.() ?? [];
  for (const pid of pids) seen.add(pid);
  return pids;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The processes PostgreSQL's postmaster runs (its backends, the checkpointer, ...). */
function childrenOf(pid: number): number[] {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .map((line) => Number(line.trim()))
      .filter((child) => child > 0);
  } catch {
    // ps exits 1 when there is none.
    return [];
  }
}

const notes = () => client.db('restarts').collection<{ _id: string; n: number }>('notes');

/** A backend service's own client (FerretDB on PostgreSQL passes its login to PostgreSQL). */
function serviceClient(service: 'intake' | 'conversation'): MongoClient {
  const url = server.serviceUrls?.[service];
  if (!url) throw new Error('no service URLs: not FerretDB on PostgreSQL');
  const opened = new MongoClient(url, { serverSelectionTimeoutMS: 30_000 });
  closing.push(opened);
  return opened;
}

describe('restarting the database servers', () => {
  it('runs FerretDB the testkit started, restartable', () => {
    expect(server.source).toBe('binary');
    expect(typeof server.restartFerretDB).toBe('function');
    expect(typeof server.restartPostgres).toBe(onPostgres ? 'function' : 'undefined');
  });

  it('restarts FerretDB with its data, and a client connected before carries on', async () => {
    await notes().insertMany([
      { _id: 'before-1', n: 1 },
      { _id: 'before-2', n: 2 },
    ]);
    const [ferretBefore] = remember();
    await server.restartFerretDB?.();
    const [ferretAfter] = remember();
    expect(ferretAfter).toBeDefined();
    expect(ferretAfter).not.toBe(ferretBefore);
    expect(alive(ferretBefore ?? 0)).toBe(false);
    // The driver retries a read and a write once on a new connection after a network error.
    expect(await notes().findOne({ _id: 'before-2' })).toEqual({ _id: 'before-2', n: 2 });
    await notes().insertOne({ _id: 'after', n: 3 });
    expect(await notes().countDocuments()).toBe(3);
  });

  it('lets every service back in after a FerretDB restart, even one reconnecting throughout', async () => {
    if (!onPostgres) {
      expect(server.serviceUrls).toBeUndefined();
      return;
    }
    const intake = serviceClient('intake');
    const conversation = serviceClient('conversation');
    const own = (c: MongoClient, service: 'intake' | 'conversation') =>
      c.db(serviceDatabase(service)).collection<{ _id: string }>('restarts');
    await own(intake, 'intake').insertOne({ _id: 'intake-before' });
    await own(conversation, 'conversation').insertOne({ _id: 'conversation-before' });
    // One service asks all along: were it FerretDB's first client after the restart, FerretDB
    // would know only its database, and the other's next write would fail ("relation
    // _ferretdb_database_metadata already exists").
    let asking = true;
    const asks = (async () => {
      while (asking) {
        await own(intake, 'intake')
          .findOne({ _id: 'intake-before' })
          .catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    try {
      await server.restartFerretDB?.();
    } finally {
      asking = false;
      await asks;
    }
    remember();
    await own(conversation, 'conversation').insertOne({ _id: 'conversation-after' });
    expect(await own(conversation, 'conversation').countDocuments()).toBe(2);
    expect(await own(intake, 'intake').findOne({ _id: 'intake-before' })).toEqual({
      _id: 'intake-before',
    });
  });

  it('restarts PostgreSQL under a running FerretDB with every committed write, and FerretDB answers again', async () => {
    if (!onPostgres) return;
    const writes = Array.from({ length: 50 }, (_, i) => ({ _id: `committed-${i}`, n: i }));
    for (const write of writes) await notes().insertOne(write);
    const [ferret, postgresBefore] = remember();
    await server.restartPostgres?.();
    const [ferretAfter, postgresAfter] = remember();
    expect(ferretAfter).toBe(ferret);
    expect(postgresAfter).not.toBe(postgresBefore);
    expect(alive(postgresBefore ?? 0)).toBe(false);
    // FerretDB's pooled connections to the old server fail once each before new ones are made.
    const found = await eventually(
      async () => {
        const count = await notes().countDocuments({ _id: { $regex: '^committed-' } });
        return count === writes.length ? count : undefined;
      },
      { timeoutMs: 30_000, what: 'FerretDB to answer with every committed write' },
    );
    expect(found).toBe(writes.length);
    // An upsert: a write retried after its reply was lost must not fail as a duplicate.
    const wrote = await eventually(
      () => notes().updateOne({ _id: 'after-postgres' }, { $set: { n: 0 } }, { upsert: true }),
      { timeoutMs: 30_000, what: 'a write after the restart' },
    );
    expect(wrote.acknowledged).toBe(true);
  });

  it('takes restarts asked for at once one after another, data and clients intact', async () => {
    await Promise.all([
      server.restartFerretDB?.(),
      server.restartPostgres?.(),
      server.restartFerretDB?.(),
    ]);
    remember();
    const count = await eventually(() => notes().countDocuments(), {
      timeoutMs: 30_000,
      what: 'FerretDB to answer after three restarts',
    });
    expect(count).toBe(onPostgres ? 54 : 3);
  });

  it('stops the processes the restarts started, and refuses a restart after the stop', async () => {
    const running = remember();
    expect(running).toHaveLength(onPostgres ? 2 : 1);
    const backends = onPostgres ? childrenOf(running[1] ?? 0) : [];
    if (onPostgres) expect(backends.length).toBeGreaterThan(0);
    // A restart under way when the stop is asked for finishes first; the stop ends what it started.
    const restarting = server.restartFerretDB?.();
    const stopping = server.stop();
    const refused = expect(server.restartFerretDB?.()).rejects.toThrow(/stopped/);
    await restarting;
    remember();
    await stopping;
    await refused;
    const left = [...seen, ...backends].filter(alive);
    expect(left).toEqual([]);
    expect(server.pids?.()).toEqual([]);
  });
});

describe('restarting FerretDB on SQLite', () => {
  it('keeps the data, and the stop ends the process of a restart under way', async () => {
    const sqlite = await startMongo({
      dataDir: join(dataDir, 'sqlite'),
      env: { HANDOFF_FERRETDB_BACKEND: 'sqlite' },
    });
    const before = new MongoClient(sqlite.url, { serverSelectionTimeoutMS: 30_000 });
    closing.push(before);
    const pids = new Set(sqlite.pids?.());
    try {
      expect(sqlite.restartPostgres).toBeUndefined();
      await before.db('restarts').collection<{ _id: string }>('notes').insertOne({ _id: 'kept' });
      await sqlite.restartFerretDB?.();
      for (const pid of sqlite.pids?.() ?? []) pids.add(pid);
      expect(pids.size).toBe(2);
      expect(
        await before.db('restarts').collection<{ _id: string }>('notes').findOne({ _id: 'kept' }),
      ).toEqual({
        _id: 'kept',
      });
      const restarting = sqlite.restartFerretDB?.();
      const stopping = sqlite.stop();
      await restarting;
      for (const pid of sqlite.pids?.() ?? []) pids.add(pid);
      await stopping;
      expect(pids.size).toBe(3);
      expect([...pids].filter(alive)).toEqual([]);
    } finally {
      await sqlite.stop();
    }
  });
});

describe('the NATS server a fault test pauses', () => {
  it('names its pid while it runs, and none of another one', async () => {
    const nats = await startNats({ dataDir: join(dataDir, 'nats'), env: {} });
    try {
      const [pid] = nats.pids();
      expect(nats.pids()).toHaveLength(1);
      expect(alive(pid ?? 0)).toBe(true);
      await nats.stop();
      expect(alive(pid ?? 0)).toBe(false);
    } finally {
      await nats.stop();
    }
    const theirs = await startNats({ dataDir, env: { NATS_URL: 'nats://127.0.0.1:4222' } });
    expect(theirs.pids()).toEqual([]);
  });
});
