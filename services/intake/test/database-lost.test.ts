import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { EXIT_DATABASE_LOST } from '@handoff/runtime';
import {
  exited,
  natsOptions,
  serviceEnv,
  startServiceProcess,
  testServers,
  uniqueDatabase,
} from '@handoff/testkit';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { createServer, connect as connectTcp, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

// The database watchdog end to end: the intake service as its own process reaches the real
// MongoDB-wire server through a TCP relay that the test then cuts (every connection dropped, new
// ones taken and never answered: a network partition). The process must stop with
// EXIT_DATABASE_LOST (75), which a supervisor restarts and `npm run chaos` accepts, also when
// its graceful stop cannot finish without the database (a chaos run saw intake#1 end 70 so).

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const database = uniqueDatabase('dblost');

let nc: NatsConnection;
let relay: Server;
let cut = false;
const sockets = new Set<Socket>();

beforeAll(async () => {
  nc = await connect({ ...natsOptions() });
  const target = new URL(testServers().mongoUrl);
  relay = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    // Cut: the connection is taken and never answered.
    if (cut) return;
    const upstream = connectTcp(Number(target.port), target.hostname);
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => relay.close(() => resolve()));
  await nc.close();
});

describe('a service whose database stays out of reach', () => {
  it(`stops with exit code ${EXIT_DATABASE_LOST}, even when its graceful stop cannot finish`, async () => {
    const url = new URL(testServers().mongoUrl);
    url.host = `127.0.0.1:${(relay.address() as AddressInfo).port}`;
    // Its bus endpoints answer before its background work has started: cut only once it says
    // it has, or the cut fails its start instead (69).
    let started: () => void = () => undefined;
    const running = new Promise<void>((resolve) => (started = resolve));
    const child = await startServiceProcess({
      service: 'intake',
      main: MAIN,
      env: {
        ...serviceEnv('intake', database),
        MONGO_URL: url.toString(),
        DB_LOST_EXIT_MS: '2000',
        // Shorter than anything the stop could wait out on a database that never answers.
        SHUTDOWN_TIMEOUT_MS: '500',
        LOG_LEVEL: 'info',
      },
      nc,
      onOutput: (line) => {
        if (line.includes('"service started"')) started();
      },
    });
    await running;
    cut = true;
    for (const socket of sockets) socket.destroy();
    expect(await exited(child)).toBe(EXIT_DATABASE_LOST);
  });
});
