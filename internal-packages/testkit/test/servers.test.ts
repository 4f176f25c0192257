import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { BACKEND_SERVICES } from '@handoff/contracts';
import { MongoClient } from 'mongodb';
import {
  ferretBackend,
  freePort,
  onFreePort,
  startProcess,
  serviceDatabase,
  ServersUnavailableError,
  startMongo,
  startNats,
  startNatsCluster,
  startPair,
  type MongoServer,
  type PortProbe,
  type RunningServer,
} from '../src/index.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'handoff-testkit-'));
/** PostgreSQL's page: an index without entries is its metapage alone. */
const PAGE_BYTES = 8192;
const started: RunningServer[] = [];

afterAll(async () => {
  await Promise.all(started.map((server) => server.stop()));
  rmSync(dataDir, { recursive: true, force: true });
});

function greeting(url: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = new Socket();
    socket.once('data', (chunk) => {
      socket.destroy();
      resolve(chunk.toString('utf8'));
    });
    socket.once('error', reject);
    socket.connect(Number(port), hostname);
  });
}

/**
 * A throwaway FerretDB on PostgreSQL in `dir` of the data dir, stopped after the file; none on a
 * machine without PostgreSQL, where the backend must then be SQLite.
 */
async function ferretOnPostgres(dir: string): Promise<MongoServer | undefined> {
  if (ferretBackend(process.env) !== 'postgresql') {
    expect(ferretBackend(process.env)).toBe('sqlite');
    return undefined;
  }
  const server = await startMongo({ dataDir: join(dataDir, dir), env: {}, durable: false });
  started.push(server);
  return server;
}

describe('real servers', () => {
  it('prefers the URL the caller set', async () => {
    const server = await startNats({ dataDir, env: { NATS_URL: 'nats://example.invalid:4222' } });
    expect(server).toMatchObject({ source: 'env', url: 'nats://example.invalid:4222' });
  });

  it('starts a JetStream-enabled nats-server on a free port', async () => {
    const server = await startNats({ dataDir, env: {} });
    started.push(server);
    expect(server.url).toMatch(/^nats:\/\/127\.0\.0\.1:\d+$/);
    const info = await greeting(server.url);
    expect(info).toMatch(/^INFO /);
    expect(JSON.parse(info.slice(5))).toMatchObject({ jetstream: true });
  });

  it('starts a MongoDB-wire server on a free port', async () => {
    const server = await startMongo({ dataDir, env: {} });
    started.push(server);
    expect(server.url).toMatch(/^mongodb:\/\/127\.0\.0\.1:\d+\/$/);
    expect(server.source).not.toBe('env');
  });

  it('never gives out a port twice, though the kernel offers it again', async () => {
    const given = await freePort();
    // A kernel that offers the port it gave last time, twice, then another.
    const offers = [given, given, given + 1];
    const closed: number[] = [];
    const probe = async (): Promise<PortProbe> => {
      const port = offers.shift() ?? 0;
      return {
        address: () => ({ address: '127.0.0.1', family: 'IPv4', port }),
        close(done?: (error?: Error) => void) {
          closed.push(port);
          done?.();
          return this as never;
        },
      };
    };
    expect(await freePort(probe)).toBe(given + 1);
    // Every probe was held until the new port was found, then let go.
    expect(closed.sort((a, b) => a - b)).toEqual([given, given, given + 1]);
    expect(await freePort()).not.toBe(given);
  });

  it('stops the one of a pair that started when the other could not start', async () => {
    const stopped: string[] = [];
    const server = (name: string): RunningServer => ({
      url: `nats://127.0.0.1:1/${name}`,
      source: 'binary',
      description: name,
      stop: async () => {
        stopped.push(name);
      },
    });
    const nats = await startNats({ dataDir: join(dataDir, 'pair'), env: {} });
    started.push(nats);
    const [a, b] = await startPair(Promise.resolve(nats), Promise.resolve(server('db')));
    expect([a.url, b.description]).toEqual([nats.url, 'db']);
    expect(stopped).toEqual([]);

    await expect(
      startPair(Promise.resolve(server('nats')), Promise.reject(new Error('no database'))),
    ).rejects.toThrow('no database');
    await expect(
      startPair(Promise.reject(new Error('no nats')), Promise.resolve(server('db'))),
    ).rejects.toThrow('no nats');
    expect(stopped).toEqual(['nats', 'db']);
  });

  it('starts a cluster again on fresh ports when a port was taken before a node bound it', async () => {
    // Another socket takes the first node's route port between the pick and the start.
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const address = holder.address();
    const held = typeof address === 'object' && address ? address.port : 0;
    let picks = 0;
    const pickPort = async () => {
      picks += 1;
      return picks === 2 ? held : freePort();
    };
    try {
      const cluster = await startNatsCluster({
        dataDir: join(dataDir, 'cluster-retry'),
        size: 3,
        pickPort,
      });
      started.push({ ...cluster, source: 'binary', description: 'cluster' });
      // The first attempt's six ports, then six fresh ones.
      expect(picks).toBe(12);
      expect(cluster.nodes).toHaveLength(3);
      for (const node of cluster.nodes) expect(await greeting(node.url)).toMatch(/^INFO /);
    } finally {
      holder.close();
    }
  });

  it('starts a server again on a fresh port when its port was taken before it bound it', async () => {
    // Another socket takes the port between the pick and the start (a CI's PostgreSQL saw it).
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const address = holder.address();
    const held = typeof address === 'object' && address ? address.port : 0;
    const picked: number[] = [];
    const pickPort = async () => {
      const port = picked.length === 0 ? held : await freePort();
      picked.push(port);
      return port;
    };
    // A server process that says when it listens: the held port answers whoever holds it.
    const serve = (port: number) =>
      startProcess(
        'tiny',
        process.execPath,
        [
          '-e',
          `require('node:net').createServer().listen(${port}, '127.0.0.1', () => console.log('listening'))`,
        ],
        port,
        join(dataDir, 'taken'),
        process.env,
        /listening/,
      );
    try {
      const child = await onFreePort(serve, pickPort);
      child.kill();
      expect(picked).toHaveLength(2);
      expect(picked[1]).not.toBe(held);
      // Anything else that stops a start is not tried again.
      await expect(
        onFreePort(() => Promise.reject(new Error('no binary')), pickPort),
      ).rejects.toThrow('no binary');
      expect(picked).toHaveLength(3);
    } finally {
      holder.close();
    }
  });

  it('fails with instructions, never skips, when no server can be had', async () => {
    const none = { dataDir, env: {}, binDirs: [], containers: false };
    await expect(startNats(none)).rejects.toThrow(ServersUnavailableError);
    await expect(startNats(none)).rejects.toThrow(/NATS is not available[\s\S]*npm run setup/);
    await expect(startMongo(none)).rejects.toThrow(
      /MongoDB is not available[\s\S]*NATS_URL and MONGO_URL/,
    );
  });
});

describe('FerretDB on PostgreSQL', () => {
  it('serves an equality lookup on any declared index from an index, not a scan', async () => {
    // Without PostgreSQL, the SQLite fallback is what the other tests exercise.
    const server = await ferretOnPostgres('twins');
    if (!server) return;
    const client = new MongoClient(server.url);
    try {
      const things = client.db('twins').collection<{ _id: string; owner: string }>('things');
      await things.createIndex({ owner: 1 }, { name: 'owner' });
      await things.insertMany(
        Array.from({ length: 2_000 }, (_, i) => ({ _id: `t_${i}`, owner: `o_${i % 500}` })),
      );
      // FerretDB's explain carries PostgreSQL's plan: the index each scan node used.
      const indexesUsed = async (filter: Record<string, unknown>) =>
        [
          ...JSON.stringify(await things.find(filter).explain()).matchAll(
            /"Index Name":"([^"]+)"/g,
          ),
        ].map((match) => match[1]);
      // The GIN twin of each btree index answers `_jsonb -> 'field' @> value`.
      expect(await indexesUsed({ owner: 'o_7' })).toEqual([expect.stringContaining('_gin_')]);
      expect(await indexesUsed({ _id: 't_7' })).toEqual([expect.stringContaining('_gin_')]);
      expect(await things.countDocuments({ owner: 'o_7' })).toBe(4);

      // FerretDB's own btree of a non-unique index served none of that: it is an empty
      // placeholder under the index's name (PostgreSQL's size of it, as collStats reports it, is
      // its one metapage), so writes do not pay for it. The unique `_id` one holds every document.
      const sizes = async () =>
        (await client.db('twins').command({ collStats: 'things' })).indexSizes as Record<
          string,
          number
        >;
      const before = await sizes();
      expect(before.owner).toBe(PAGE_BYTES);
      expect(before._id_).toBeGreaterThan(PAGE_BYTES);
      // The name is kept for FerretDB: dropping the index and declaring it again both work.
      await things.dropIndex('owner');
      expect(Object.keys(await sizes())).toEqual(['_id_']);
      await things.createIndex({ owner: 1 }, { name: 'owner' });
      expect((await sizes()).owner).toBe(PAGE_BYTES);
      expect(await indexesUsed({ owner: 'o_7' })).toEqual([expect.stringContaining('_gin_')]);
    } finally {
      await client.close();
    }
  });
});

describe('database isolation', () => {
  it('gives each service a role that PostgreSQL refuses on every database but its own', async () => {
    // Without PostgreSQL, FerretDB on SQLite has no users: the next test pins that down.
    const server = await ferretOnPostgres('roles');
    if (!server) return;
    const urls = server.serviceUrls;
    expect(Object.keys(urls ?? {}).sort()).toEqual([...BACKEND_SERVICES].sort());
    if (!urls) return;
    const admin = new MongoClient(server.url);
    const intake = new MongoClient(urls.intake);
    const conversation = new MongoClient(urls.conversation);
    const milestones = new MongoClient(urls.milestones);
    const dispatcher = new MongoClient(urls['webhook-dispatcher']);
    const wrong = new MongoClient(urls.intake.replace(/:[^:@]+@/, ':not-the-password@'), {
      serverSelectionTimeoutMS: 2_000,
    });
    try {
      const own = intake.db(serviceDatabase('intake')).collection('requests');
      await own.createIndex({ status: 1 });
      await own.insertOne({ _id: 'req_1', status: 'submitted' } as never);
      expect(await own.find({ status: 'submitted' }).toArray()).toEqual([
        { _id: 'req_1', status: 'submitted' },
      ]);
      // The index layout trigger (the superuser's) serves the role's indexes as well.
      expect(JSON.stringify(await own.find({ status: 'submitted' }).explain())).toContain('_gin_');
      await conversation
        .db(serviceDatabase('conversation'))
        .collection('messages')
        .insertOne({ _id: 'msg_1', body: 'hello' } as never);

      // intake's credentials on conversation's database: read, write and a new collection.
      const theirs = intake.db(serviceDatabase('conversation'));
      const refused = /permission denied for schema handoff_conversation/;
      await expect(theirs.collection('messages').find().toArray()).rejects.toThrow(refused);
      await expect(theirs.collection('messages').insertOne({ body: 'x' })).rejects.toThrow(refused);
      await expect(theirs.collection('other').insertOne({ body: 'x' })).rejects.toThrow(refused);
      await expect(theirs.dropDatabase()).rejects.toThrow(/must be owner of schema/);
      // ... and the other way round.
      await expect(
        conversation.db(serviceDatabase('intake')).collection('requests').findOne({}),
      ).rejects.toThrow(/permission denied for schema handoff_intake/);
      // A role's name without its password is refused by PostgreSQL too.
      await expect(
        wrong.db(serviceDatabase('intake')).collection('requests').findOne({}),
      ).rejects.toThrow(/password authentication failed for user "intake"/);

      // The all-access URL (tools, tests, the bench) reaches every database ...
      expect(
        await admin.db(serviceDatabase('conversation')).collection('messages').countDocuments(),
      ).toBe(1);
      // ... and what it creates in a service's database still belongs to that service.
      await admin
        .db(serviceDatabase('milestones'))
        .collection('milestones')
        .insertOne({ _id: 'ms_1', state: 'open' } as never);
      const theirMilestones = milestones.db(serviceDatabase('milestones')).collection('milestones');
      await theirMilestones.insertOne({ _id: 'ms_2', state: 'open' } as never);
      expect(await theirMilestones.countDocuments({ state: 'open' })).toBe(2);
      // A hyphenated service name is a role and a URL like any other.
      const deliveries = dispatcher
        .db(serviceDatabase('webhook-dispatcher'))
        .collection('webhook_deliveries');
      await deliveries.insertOne({ _id: 'whd_1' } as never);
      expect(await deliveries.countDocuments()).toBe(1);
    } finally {
      await Promise.all(
        [admin, intake, conversation, milestones, dispatcher, wrong].map((client) =>
          client.close(),
        ),
      );
    }

    // Restarted on the same data, with a service the first to ask: every database is still there.
    await server.stop();
    const again = await startMongo({ dataDir: join(dataDir, 'roles'), env: {}, durable: false });
    started.push(again);
    const intakeAgain = new MongoClient(again.serviceUrls?.intake ?? again.url);
    const conversationAgain = new MongoClient(again.serviceUrls?.conversation ?? again.url);
    try {
      expect(
        await intakeAgain.db(serviceDatabase('intake')).collection('requests').countDocuments(),
      ).toBe(1);
      const messages = conversationAgain.db(serviceDatabase('conversation')).collection('messages');
      await messages.insertOne({ _id: 'msg_2', body: 'again' } as never);
      expect(await messages.countDocuments()).toBe(2);
    } finally {
      await Promise.all([intakeAgain, conversationAgain].map((client) => client.close()));
    }
  });

  it("names each role and database as production's MongoDB user and database", () => {
    const repo = (path: string) =>
      readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');
    // docker-compose.yml: each service's MONGO_URL user and MONGO_DB, in the order they appear.
    const compose = repo('docker-compose.yml');
    const users = [...compose.matchAll(/MONGO_URL: mongodb:\/\/([^:]+):/g)].map((m) => m[1]);
    const databases = [...compose.matchAll(/MONGO_DB: (\S+)/g)].map((m) => m[1]);
    expect(users).toEqual([...BACKEND_SERVICES]);
    expect(databases).toEqual(BACKEND_SERVICES.map(serviceDatabase));
    // deploy/compose/mongo-users.js, given the mongo container's environment, creates those users.
    const env = Object.fromEntries(
      [...compose.matchAll(/^ {6}(MONGO_\w+): \$\{\w+:-([^}]+)\}$/gm)].map((m) => [m[1], m[2]]),
    );
    const created: { user: string; db: string }[] = [];
    const db = {
      getSiblingDB: (name: string) => ({
        createUser: (user: { user: string }) => created.push({ user: user.user, db: name }),
      }),
    };
    runInNewContext(repo('deploy/compose/mongo-users.js'), { db, process: { env } });
    expect(created).toEqual(
      BACKEND_SERVICES.map((service) => ({ user: service, db: serviceDatabase(service) })),
    );
  });

  it('has no per-service users on the SQLite fallback: services share the URL', async () => {
    const server = await startMongo({
      dataDir: join(dataDir, 'sqlite'),
      env: { HANDOFF_FERRETDB_BACKEND: 'sqlite' },
      durable: false,
    });
    started.push(server);
    expect(server.description).toContain('on SQLite');
    expect(server.serviceUrls).toBeUndefined();
  });
});
