import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import {
  ferretBackend,
  ServersUnavailableError,
  startMongo,
  startNats,
  type RunningServer,
} from '../src/index.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'handoff-testkit-'));
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
    if (ferretBackend(process.env) !== 'postgresql') {
      // No PostgreSQL here: the SQLite fallback is what the other tests exercise.
      expect(ferretBackend(process.env)).toBe('sqlite');
      return;
    }
    const server = await startMongo({ dataDir: join(dataDir, 'twins'), env: {}, durable: false });
    started.push(server);
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
    } finally {
      await client.close();
    }
  });
});
