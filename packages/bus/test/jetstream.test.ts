import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  eventually,
  natsOptions,
  startNatsCluster,
  testServers,
  TEST_NATS_USER,
  type NatsCluster,
} from '@handoff/testkit';
import { join } from 'node:path';
import {
  AckPolicy,
  DeliverPolicy,
  JetStreamApiError,
  jetstreamManager,
  StorageType,
  type JetStreamManager,
} from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { randomBytes } from 'node:crypto';
import {
  bucketStream,
  ensureConsumer,
  ensureStream,
  isJetStreamError,
  JetStreamCodes,
  type ConsumerSettings,
  type StreamSettings,
} from '../src/index.ts';

const SECOND_NS = 1_000_000_000;
let nc: NatsConnection;
let other: NatsConnection;
let jsm: JetStreamManager;
let otherJsm: JetStreamManager;
const made: string[] = [];

beforeAll(async () => {
  [nc, other] = await Promise.all([
    connect({ ...natsOptions(), name: 'jetstream-test' }),
    connect({ ...natsOptions(), name: 'jetstream-test-other' }),
  ]);
  [jsm, otherJsm] = await Promise.all([jetstreamManager(nc), jetstreamManager(other)]);
});

afterAll(async () => {
  for (const name of made) await jsm.streams.delete(name).catch(() => undefined);
  await Promise.all([nc.close(), other.close()]);
});

/** A stream of its own for one test: nothing another test did can be in it. */
function streamSettings(extra: Partial<StreamSettings> = {}): StreamSettings {
  const token = randomBytes(4).toString('hex');
  const name = `T_ENSURE_${token}`;
  made.push(name);
  return {
    name,
    subjects: [`test.ensure.${token}.>`],
    max_age: 3600 * SECOND_NS,
    max_msgs_per_subject: 1,
    storage: StorageType.Memory,
    ...extra,
  };
}

describe('ensureStream', () => {
  it('creates the stream with the wanted settings, and leaves a matching one alone', async () => {
    const wanted = streamSettings();
    const created = await ensureStream(jsm, wanted);
    expect(created.config).toMatchObject(wanted);
    const again = await ensureStream(jsm, wanted);
    expect(again.created).toBe(created.created);
    expect((await jsm.streams.info(wanted.name)).config).toMatchObject(wanted);
  });

  it('puts drifted settings back and keeps the settings it was not asked about', async () => {
    const wanted = streamSettings();
    await ensureStream(jsm, wanted);
    const { config } = await jsm.streams.info(wanted.name);
    await jsm.streams.update(wanted.name, {
      ...config,
      max_age: 7200 * SECOND_NS,
      max_msgs_per_subject: 5,
      max_msgs: 1_000,
      subjects: ['test.drifted.>'],
    });
    await ensureStream(jsm, wanted);
    expect((await jsm.streams.info(wanted.name)).config).toMatchObject({
      ...wanted,
      max_msgs: 1_000,
    });
  });

  it('is safe from many callers at once, on separate connections', async () => {
    const wanted = streamSettings();
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => ensureStream(i % 2 === 0 ? jsm : otherJsm, wanted)),
    );
    expect(new Set(results.map((info) => info.created)).size).toBe(1);
    expect((await jsm.streams.info(wanted.name)).config).toMatchObject(wanted);
  });

  it('brings a stream created meanwhile with other settings to the wanted ones', async () => {
    const wanted = streamSettings();
    // Another version of the service made it first, without max_msgs_per_subject.
    await jsm.streams.add({ ...wanted, max_msgs_per_subject: -1 });
    await Promise.all([ensureStream(jsm, wanted), ensureStream(otherJsm, wanted)]);
    expect((await jsm.streams.info(wanted.name)).config).toMatchObject(wanted);
  });

  it('refuses, naming them, settings that cannot change after creation', async () => {
    const wanted = streamSettings({ allow_msg_counter: true, max_msgs_per_subject: -1 });
    await jsm.streams.add({
      name: wanted.name,
      subjects: wanted.subjects,
      max_age: 60 * SECOND_NS,
    });
    const failure = ensureStream(jsm, wanted);
    await expect(failure).rejects.toThrow(/allow_msg_counter is unset, wanted true/);
    await expect(failure).rejects.toThrow(/storage is "file", wanted "memory"/);
    await expect(failure).rejects.toThrow(/cannot change after creation/);
    // Nothing was changed on the way.
    expect((await jsm.streams.info(wanted.name)).config).toMatchObject({
      max_age: 60 * SECOND_NS,
      max_msgs_per_subject: -1,
    });
  });

  it('takes the duplicate window down with a max_age shorter than it', async () => {
    const wanted = streamSettings();
    await ensureStream(jsm, wanted);
    const shorter = { ...wanted, max_age: 30 * SECOND_NS };
    await ensureStream(jsm, shorter);
    expect((await jsm.streams.info(wanted.name)).config).toMatchObject({
      max_age: 30 * SECOND_NS,
      duplicate_window: 30 * SECOND_NS,
    });
  });

  it('makes a KV bucket a KV client opens and uses as one', async () => {
    const bucket = `t_bucket_${randomBytes(4).toString('hex')}`;
    made.push(`KV_${bucket}`);
    await ensureStream(
      jsm,
      bucketStream(bucket, {
        max_msgs_per_subject: 1,
        storage: StorageType.Memory,
        num_replicas: 1,
      }),
    );
    const kv = await new Kvm(nc).open(bucket);
    await kv.put('k', 'v1');
    await expect(kv.create('k', 'v2')).rejects.toThrow();
    expect((await kv.get('k'))?.string()).toBe('v1');
    expect((await kv.status()).history).toBe(1);
  });
});

describe('ensureConsumer', () => {
  const consumerSettings = (extra: Partial<ConsumerSettings> = {}): ConsumerSettings => ({
    durable_name: `ensure-${randomBytes(4).toString('hex')}`,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    max_deliver: 5,
    backoff: [1, 5, 30].map((s) => s * SECOND_NS),
    max_ack_pending: 100,
    ...extra,
  });

  it('creates the consumer, and puts drifted settings back', async () => {
    const stream = streamSettings();
    await ensureStream(jsm, stream);
    const wanted = consumerSettings({ filter_subjects: [stream.subjects?.[0] ?? ''] });
    const created = await ensureConsumer(jsm, stream.name, wanted);
    expect(created.config).toMatchObject(wanted);

    await jsm.consumers.update(stream.name, wanted.durable_name, {
      max_deliver: 2,
      backoff: [SECOND_NS],
      max_ack_pending: 7,
    });
    await ensureConsumer(jsm, stream.name, wanted);
    const info = await jsm.consumers.info(stream.name, wanted.durable_name);
    expect(info.config).toMatchObject(wanted);
    expect(info.created).toBe(created.created);
  });

  it('is safe from many callers at once', async () => {
    const stream = streamSettings();
    await ensureStream(jsm, stream);
    const wanted = consumerSettings();
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        ensureConsumer(i % 2 === 0 ? jsm : otherJsm, stream.name, wanted),
      ),
    );
    expect(new Set(results.map((info) => info.created)).size).toBe(1);
    expect((await jsm.consumers.info(stream.name, wanted.durable_name)).config).toMatchObject(
      wanted,
    );
  });

  it('refuses a setting fixed at creation, naming it', async () => {
    const stream = streamSettings();
    await ensureStream(jsm, stream);
    const wanted = consumerSettings();
    await ensureConsumer(jsm, stream.name, wanted);
    await expect(
      ensureConsumer(jsm, stream.name, { ...wanted, deliver_policy: DeliverPolicy.New }),
    ).rejects.toThrow(/consumer .*: deliver_policy is "all", wanted "new"/);
  });

  it('fails with the server code when the stream is missing', async () => {
    const failure = ensureConsumer(jsm, 'T_ENSURE_NO_SUCH_STREAM', consumerSettings());
    await expect(failure).rejects.toBeInstanceOf(JetStreamApiError);
    const error = await failure.catch((e: unknown) => e);
    expect(isJetStreamError(error, JetStreamCodes.StreamNotFound)).toBe(true);
  });
});

describe('ensureStream on a cluster that cannot place the stream', () => {
  let cluster: NatsCluster;
  let clusterNc: NatsConnection;

  beforeAll(async () => {
    cluster = await startNatsCluster({
      dataDir: join(testServers().dataDir, `bus-cluster-${randomBytes(4).toString('hex')}`),
      size: 3,
    });
    clusterNc = await connect({
      servers: cluster.url.split(','),
      user: TEST_NATS_USER,
      pass: cluster.passwords[TEST_NATS_USER],
    });
  }, 120_000);

  afterAll(async () => {
    await clusterNc?.close();
    await cluster?.stop();
  });

  it('waits out "no suitable peers for placement", then says so; places what it can', async () => {
    // JetStream answers once the nodes have elected a meta leader.
    const clusterJsm = await eventually(() => jetstreamManager(clusterNc, { timeout: 5_000 }), {
      timeoutMs: 60_000,
      what: 'the JetStream cluster',
    });
    // No node carries this tag, so no peer is ever suitable: the refusal a forming cluster gives
    // an R3 stream, made to last.
    const unplaceable: StreamSettings = {
      name: `PLACE_NONE_${randomBytes(4).toString('hex')}`,
      subjects: [`place.none.${randomBytes(4).toString('hex')}`],
      num_replicas: 3,
      storage: StorageType.Memory,
      placement: { cluster: '', tags: ['no-such-tag'] },
    };
    const startedAt = Date.now();
    const refused = await ensureStream(clusterJsm, unplaceable, { placementWaitMs: 1_000 }).catch(
      (error: unknown) => error,
    );
    expect(isJetStreamError(refused, JetStreamCodes.ClusterNoPeers)).toBe(true);
    // Refused only once the wait was over, not at the first refusal.
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(1_000);
    const placed = await ensureStream(clusterJsm, {
      name: `PLACE_R3_${randomBytes(4).toString('hex')}`,
      subjects: [`place.r3.${randomBytes(4).toString('hex')}`],
      num_replicas: 3,
      storage: StorageType.Memory,
    });
    expect(placed.config.num_replicas).toBe(3);
  }, 180_000);
});
