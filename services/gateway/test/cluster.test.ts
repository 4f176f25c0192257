import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  EVENTS_STREAM,
  EventEnvelope,
  RATE_LIMIT_STREAM,
  type BackendService,
} from '@handoff/contracts';
import {
  eventually,
  startNatsCluster,
  testServers,
  TEST_NATS_USER,
  type NatsCluster,
} from '@handoff/testkit';
import { DeliverPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { IDEMPOTENCY_STREAM } from '../src/idempotency.ts';
import { http, type Onboarded } from './support/http.ts';
import { startStack, type Stack } from './support/stack.ts';

// Clustered JetStream: three nats-servers on loopback, every stream and bucket with three
// replicas (NATS_STREAM_REPLICAS=3). The leader of HANDOFF_EVENTS is killed (SIGKILL) while an
// agent creates requests with a webhook endpoint subscribed; nothing acknowledged may be lost.

const REQUESTS = 1_000;
/** The node dies once this many requests were acknowledged: a point in the work, not in time. */
const KILL_AFTER = 300;
const CLIENTS = 8;

let cluster: NatsCluster;
let stack: Stack;
let agent: Onboarded;
let observer: NatsConnection;
let receiver: Server;
let receiverUrl = '';
/** webhook-id → how many times it arrived. */
const received = new Map<string, number>();
const receivedRequests = new Set<string>();

beforeAll(async () => {
  cluster = await startNatsCluster({
    dataDir: join(testServers().dataDir, `cluster-${randomUUID().slice(0, 8)}`),
    size: 3,
  });
  const nats = (user: BackendService | 'gateway') => ({
    NATS_URL: cluster.url,
    NATS_USER: user,
    NATS_PASSWORD: cluster.passwords[user],
    NATS_STREAM_REPLICAS: '3',
  });
  observer = await connect({
    servers: cluster.url.split(','),
    user: TEST_NATS_USER,
    pass: cluster.passwords[TEST_NATS_USER],
  });
  // JetStream answers once the nodes have elected a meta leader.
  await eventually(
    async () => (await (await jetstreamManager(observer)).getAccountInfo()) && true,
    {
      timeoutMs: 60_000,
      what: 'the JetStream cluster',
    },
  );
  stack = await startStack('cluster', {
    nats,
    env: {
      'webhook-dispatcher': {
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        WEBHOOK_RETRY_SCHEDULE: '1,1,2,5',
        WEBHOOK_POLL_MS: '100',
      },
    },
    gateway: {
      RATE_LIMIT_PER_MINUTE: '1000000',
      PUBLIC_RATE_LIMIT_PER_MINUTE: '1000000',
      AUTH_FAILURE_LIMIT_PER_MINUTE: '1000000',
    },
  });
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const id = String(req.headers['webhook-id'] ?? '');
      received.set(id, (received.get(id) ?? 0) + 1);
      const envelope = EventEnvelope.parse(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      if (envelope.type === 'request.created') receivedRequests.add(envelope.data.request_id);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  agent = await stack.agentOf(['requests:create', 'webhooks:manage']);
}, 300_000);

afterAll(async () => {
  await stack?.stop();
  await observer?.close();
  receiver?.closeAllConnections();
  await new Promise((resolve) => receiver?.close(resolve));
  await cluster?.stop();
});

interface Retries {
  count: number;
  /** Answers 409 idempotency_key_in_use: an attempt cut off by the kill still holds the key. */
  inFlight: number;
  statuses: Record<number, number>;
}

/**
 * Creates one request, retrying the same Idempotency-Key until it is acknowledged (201), as an
 * agent would. A call cut off by the kill can leave its key in flight: the gateway answers 409
 * until the claim may be taken over (60 s), so the retries outlast that.
 */
async function createRequest(index: number, retries: Retries): Promise<string> {
  const key = `cluster-${index}-${randomUUID()}`;
  let last = '';
  for (let attempt = 0; attempt < 600; attempt += 1) {
    try {
      const created = await http(stack.gateway, '/v1/ai-to-human-request', {
        token: agent.key,
        headers: { 'Idempotency-Key': key },
        body: { message: `Cluster request ${index}: please translate a short letter.` },
      });
      if (created.status === 201) return String(created.body.id);
      last = `${created.status} ${JSON.stringify(created.body)}`;
      if (created.body.code === 'idempotency_key_in_use') retries.inFlight += 1;
      retries.statuses[created.status] = (retries.statuses[created.status] ?? 0) + 1;
    } catch (error) {
      // The gateway is in-process; a reset socket is retried like a 503.
      last = String(error);
    }
    retries.count += 1;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`request ${index} was never acknowledged; last answer: ${last}`);
}

/** The request ids of every request.created in HANDOFF_EVENTS, read back from the cluster. */
async function storedCreatedEvents(): Promise<string[]> {
  // A longer API timeout: with a node gone, placing the consumer can take a few seconds.
  const js = jetstream(observer, { timeout: 20_000 });
  const consumer = await js.consumers.get(EVENTS_STREAM.name, {
    filter_subjects: ['handoff.events.request.created'],
    deliver_policy: DeliverPolicy.All,
  });
  const ids: string[] = [];
  const { num_pending: pending } = await consumer.info(true);
  let left = pending;
  while (left > 0) {
    const batch = await consumer.fetch({ max_messages: Math.min(left, 500), expires: 5_000 });
    for await (const message of batch) {
      ids.push(EventEnvelope.parse(message.json()).data.request_id);
      left -= 1;
    }
  }
  return ids;
}

describe('a three-node JetStream cluster losing a node', () => {
  it('loses no acknowledged write, event or delivery, and is healthy again', async () => {
    const jsm = await jetstreamManager(observer);
    for (const stream of [EVENTS_STREAM.name, RATE_LIMIT_STREAM.name, IDEMPOTENCY_STREAM]) {
      expect((await jsm.streams.info(stream)).config.num_replicas).toBe(3);
    }
    const endpoint = await http(stack.gateway, '/v1/webhook-endpoints', {
      token: agent.key,
      body: { url: receiverUrl, event_types: ['request.created'] },
    });
    expect(endpoint.status).toBe(201);

    const acknowledged: string[] = [];
    const retries: Retries = { count: 0, inFlight: 0, statuses: {} };
    let killedAt = 0;
    let killed = '';
    let next = 0;
    let firstAfterKill = 0;
    let readyPoll: Promise<number> = Promise.resolve(0);
    const kill = async () => {
      const leader = (await jsm.streams.info(EVENTS_STREAM.name)).cluster?.leader ?? '';
      const index = cluster.nodes.findIndex((_, i) => leader === `handoff-node-${i + 1}`);
      const node = cluster.nodes[index === -1 ? 0 : index];
      killed = leader || 'handoff-node-1';
      killedAt = Date.now();
      node?.kill();
      // Readiness after the kill, polled while the clients keep writing.
      readyPoll = eventually(
        async () =>
          (await http(stack.gateway, '/readyz')).status === 200 ? Date.now() : undefined,
        { timeoutMs: 120_000, intervalMs: 100, what: 'the stack ready on two nodes' },
      );
    };
    const client = async () => {
      while (next < REQUESTS) {
        const index = next;
        next += 1;
        acknowledged.push(await createRequest(index, retries));
        if (killedAt > 0 && firstAfterKill === 0) firstAfterKill = Date.now();
        if (acknowledged.length === KILL_AFTER && killedAt === 0) await kill();
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, client));
    // Healthy: every service answers /readyz through the two remaining nodes, and writes succeed.
    const readyAt = await readyPoll;
    const healthyAt = Math.max(readyAt, firstAfterKill);

    expect(new Set(acknowledged).size).toBe(REQUESTS);
    // Every acknowledged request has its event in the stream and at the receiver. The budget
    // scales with the work (about 100 ms of delivery per request on this shared machine).
    await eventually(
      () => (acknowledged.every((id) => receivedRequests.has(id)) ? true : undefined),
      { timeoutMs: 120_000 + REQUESTS * 100, intervalMs: 500, what: 'every delivery' },
    );
    const stored = await eventually(() => storedCreatedEvents(), {
      timeoutMs: 120_000,
      intervalMs: 1_000,
      what: 'reading HANDOFF_EVENTS back',
    });
    const storedSet = new Set(stored);
    expect(acknowledged.filter((id) => !storedSet.has(id))).toEqual([]);
    expect(acknowledged.filter((id) => !receivedRequests.has(id))).toEqual([]);

    const deliveries = [...received.values()].reduce((sum, count) => sum + count, 0);
    const figures = {
      requests_acknowledged: acknowledged.length,
      killed_node: killed,
      killed_after_acknowledged: KILL_AFTER,
      client_retries: retries.count,
      retries_answered_key_in_flight: retries.inFlight,
      retried_statuses: retries.statuses,
      // Created by an attempt whose answer the kill cut off (a 5xx releases the key), then
      // created again by the retry: extra requests, never lost ones.
      requests_created_unacknowledged: storedSet.size - acknowledged.length,
      events_published: stored.length,
      events_published_unique: storedSet.size,
      deliveries_received: deliveries,
      distinct_events_received: received.size,
      duplicate_deliveries: deliveries - received.size,
      seconds_to_first_write_after_kill: (firstAfterKill - killedAt) / 1_000,
      seconds_to_healthy_after_kill: (healthyAt - killedAt) / 1_000,
    };
    process.stdout.write(`cluster-kill figures: ${JSON.stringify(figures)}\n`);
    expect(figures.distinct_events_received).toBeGreaterThanOrEqual(REQUESTS);
  }, 900_000);
});
