import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
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
