import { afterAll, afterEach, beforeAll } from '@jest/globals';
import { natsOptions } from '@handoff/testkit';
import {
  jetstream,
  jetstreamManager,
  type JetStreamClient,
  type JetStreamManager,
} from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';

/** A test file's connection to the test NATS, and what its tests made, undone after them. */
export interface TestJetStream {
  readonly nc: NatsConnection;
  readonly js: JetStreamClient;
  readonly jsm: JetStreamManager;
  /** Streams to delete once the file's tests ran. */
  readonly made: string[];
  /** What to stop after each test (consumers, subscriptions), in order. */
  readonly stops: (() => Promise<void>)[];
}

/** Connects before the file's tests, stops `stops` after each, deletes `made` at the end. */
export function useJetStream(name: string): TestJetStream {
  let connection: { nc: NatsConnection; js: JetStreamClient; jsm: JetStreamManager } | undefined;
  const made: string[] = [];
  const stops: (() => Promise<void>)[] = [];
  const connected = () => {
    if (!connection) throw new Error('useJetStream: used outside a test');
    return connection;
  };

  beforeAll(async () => {
    const nc = await connect({ ...natsOptions(), name });
    connection = { nc, js: jetstream(nc), jsm: await jetstreamManager(nc) };
  });
  afterEach(async () => {
    for (const stop of stops.splice(0)) await stop();
  });
  afterAll(async () => {
    const { nc, jsm } = connected();
    for (const stream of made) await jsm.streams.delete(stream).catch(() => undefined);
    await nc.close();
  });

  return {
    get nc() {
      return connected().nc;
    },
    get js() {
      return connected().js;
    },
    get jsm() {
      return connected().jsm;
    },
    made,
    stops,
  };
}
