import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { EXIT_DATABASE_LOST } from '@handoff/runtime';
import {
  databaseRelay,
  exited,
  natsOptions,
  serviceEnv,
  startServiceProcess,
  uniqueDatabase,
  type DatabaseRelay,
} from '@handoff/testkit';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { fileURLToPath } from 'node:url';

// The database watchdog end to end: the intake service as its own process reaches the real
// MongoDB-wire server through a TCP relay that the test then cuts (every connection dropped, new
// ones taken and never answered: a network partition). The process must stop with
// EXIT_DATABASE_LOST (75), which a supervisor restarts and `npm run chaos` accepts, also when
// its graceful stop cannot finish without the database (a chaos run saw intake#1 end 70 so).

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const database = uniqueDatabase('dblost');

let nc: NatsConnection;
let relay: DatabaseRelay;

beforeAll(async () => {
  nc = await connect({ ...natsOptions() });
  relay = await databaseRelay();
});

afterAll(async () => {
  await relay.close();
  await nc.close();
});

describe('a service whose database stays out of reach', () => {
  it(`stops with exit code ${EXIT_DATABASE_LOST}, even when its graceful stop cannot finish`, async () => {
    // Its bus endpoints answer before its background work has started: cut only once it says
    // it has, or the cut fails its start instead (69).
    let started: () => void = () => undefined;
    const running = new Promise<void>((resolve) => (started = resolve));
    const child = await startServiceProcess({
      service: 'intake',
      main: MAIN,
      env: {
        ...serviceEnv('intake', database),
        MONGO_URL: relay.url.toString(),
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
    relay.cut();
    expect(await exited(child)).toBe(EXIT_DATABASE_LOST);
  });
});
