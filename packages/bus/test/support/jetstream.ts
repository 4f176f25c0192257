import { afterAll, afterEach, beforeAll } from '@jest/globals';
import { natsOptions } from '@handoff/testkit';
import {
  AckPolicy,
  DeliverPolicy,
  jetstream,
  jetstreamManager,
  StorageType,
  type ConsumerConfig,
  type JetStreamClient,
  type JetStreamManager,
} from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { randomBytes } from 'node:crypto';
import { ensureConsumer, ensureStream } from '../../src/index.ts';

/** A stream of a test's own (in memory) with one durable consumer, and a subject on it. */
export interface TestDurable {
  stream: string;
  consumer: string;
  subject: string;
}

/** A test file's connection to the test NATS, and what its tests made, undone after them. */
export interface TestJetStream {
  readonly nc: NatsConnection;
  readonly js: JetStreamClient;
  readonly jsm: JetStreamManager;
  /** Streams to delete once the file's tests ran. */
  readonly made: string[];
  /** What to stop after each test (consumers, subscriptions), in order. */
  readonly stops: (() => Promise<void>)[];
  /**
   * Makes a stream named after `prefix` and a token of its own, deleted at the end, with a
   * durable consumer (explicit ack, from the start, and `config`) and a subject to publish on.
   */
  durable(prefix: string, config?: Partial<ConsumerConfig>): Promise<TestDurable>;
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
    async durable(prefix, config = {}) {
      const { jsm } = connected();
      const token = randomBytes(4).toString('hex');
      const stream = `T_${prefix.toUpperCase()}_${token}`;
      const consumer = `${prefix}-${token}`;
      made.push(stream);
      await ensureStream(jsm, {
        name: stream,
        subjects: [`test.${prefix}.${token}.>`],
        storage: StorageType.Memory,
      });
      await ensureConsumer(jsm, stream, {
        durable_name: consumer,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
        ...config,
      });
      return { stream, consumer, subject: `test.${prefix}.${token}.m` };
    },
  };
}
