import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  EVENTS_STREAM,
  EventEnvelope,
  RATE_LIMIT_STREAM,
  type BackendService,
} from '@handoff/contracts';
import { natsConnectionOptions } from '@handoff/bus';
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
import type { RunningGateway } from '../src/bootstrap.ts';
import { IDEMPOTENCY_STREAM } from '../src/idempotency.ts';
import { http, type Onboarded } from './support/http.ts';
import { startStack, type Stack } from './support/stack.ts';

// Clustered JetStream: three nats-servers on loopback, every stream and bucket with three
// replicas (NATS_STREAM_REPLICAS=3). The leader of HANDOFF_EVENTS is killed (SIGKILL) while an
// agent creates requests with a webhook endpoint subscribed; nothing acknowledged may be lost,
// and the stack is healthy again within a bound its settings give (healthyWithinMs).

const REQUESTS = 1_000;
/** The node dies once this many requests were acknowledged: a point in the work, not in time. */
const KILL_AFTER = 300;
const CLIENTS = 8;
/** A client's pause before it retries a create that was not acknowledged. */
const RETRY_PAUSE_MS = 200;
/** How often readiness and the stream's leader are checked after the kill. */
const POLL_MS = 100;
/**
 * nats-server's Raft (server/raft.go): a follower campaigns 4-9 s after it last heard from its
 * leader (maxElectionTimeoutDefault), and a campaign waits up to 800 ms for votes
 * (maxCampaignTimeoutDefault). The stream and meta groups the dead node led elect in parallel.
 */
const RAFT_MAX_ELECTION_MS = 9_000 + 800;
/** Writes on the way from the kill to health besides the timers: caught, retried, fresh, polled. */
const WRITES_IN_RECOVERY = 4;

/**
 * How soon after the kill the stack must be healthy again, from the settings of what runs here
 * rather than from how fast an idle machine happens to be: the clients notice and reconnect
 * (their reconnect wait), the groups the node led elect a new leader (once, and once more should
 * the first round split its votes), a bus call caught by the kill gives up (the gateway's
 * BUS_TIMEOUT_MS), and so does its idempotency record's JetStream write (the same timeout), its
 * rate-limit counter gives up and lets it through (RATE_LIMIT_TIMEOUT_MS), the client pauses
 * before retrying, and readiness answers within READINESS_TIMEOUT_MS of a poll.
 */
function healthyWithinMs(running: RunningGateway): number {
  const reconnectWaitMs =
    natsConnectionOptions({ url: cluster.url, name: 'bound' }).reconnectTimeWait ?? 2_000;
  return (
    reconnectWaitMs +
    2 * RAFT_MAX_ELECTION_MS +
    2 * running.env.BUS_TIMEOUT_MS +
    running.env.RATE_LIMIT_TIMEOUT_MS +
    RETRY_PAUSE_MS +
    running.env.READINESS_TIMEOUT_MS +
    POLL_MS
  );
}

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
      },
    },
    gateway: {
      // Production's: a create whose counter's stream lost its leader waits this long, then
      // passes (the limiter fails open). The shared fixture's 30 s, there so that busy tests
      // count every hit, would hold the first writes after the kill for 30 s.
      RATE_LIMIT_TIMEOUT_MS: '250',
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
async function createRequest(
  index: number,
  retries: Retries,
): Promise<{ id: string; firstTriedAt: number }> {
  const key = `cluster-${index}-${randomUUID()}`;
  const firstTriedAt = Date.now();
  let last = '';
  for (let attempt = 0; attempt < 600; attempt += 1) {
    try {
      const created = await http(stack.gateway, '/v1/ai-to-human-request', {
        token: agent.key,
        headers: { 'Idempotency-Key': key },
        body: { message: `Cluster request ${index}: please translate a short letter.` },
      });
      if (created.status === 201) return { id: String(created.body.id), firstTriedAt };
      last = `${created.status} ${JSON.stringify(created.body)}`;
      if (created.body.code === 'idempotency_key_in_use') retries.inFlight += 1;
      retries.statuses[created.status] = (retries.statuses[created.status] ?? 0) + 1;
    } catch (error) {
      // The gateway is in-process; a reset socket is retried like a 503.
      last = String(error);
    }
    retries.count += 1;
    await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS));
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
    /** The slowest create acknowledged before the kill: what one write takes on this machine now. */
    let slowestBeforeKillMs = 0;
    let killed = '';
    let next = 0;
    /** The first acknowledged create whose key was first tried after the kill. */
    let firstFreshWriteAt = 0;
    let readyPoll: Promise<number> = Promise.resolve(0);
    let leaderPoll: Promise<number> = Promise.resolve(0);
    const kill = async () => {
      const leader = (await jsm.streams.info(EVENTS_STREAM.name)).cluster?.leader ?? '';
      const index = cluster.nodes.findIndex((_, i) => leader === `handoff-node-${i + 1}`);
      const node = cluster.nodes[index === -1 ? 0 : index];
      killed = leader || 'handoff-node-1';
      killedAt = Date.now();
      node?.kill();
      // Readiness, and a new leader of HANDOFF_EVENTS, polled while the clients keep writing.
      readyPoll = eventually(
        async () =>
          (await http(stack.gateway, '/readyz')).status === 200 ? Date.now() : undefined,
        { timeoutMs: 120_000, intervalMs: POLL_MS, what: 'the stack ready on two nodes' },
      );
      leaderPoll = eventually(
        async () => {
          const now = (await jsm.streams.info(EVENTS_STREAM.name)).cluster?.leader;
          return now && now !== killed ? Date.now() : undefined;
        },
        { timeoutMs: 120_000, intervalMs: POLL_MS, what: 'a new leader of HANDOFF_EVENTS' },
      );
    };
    const client = async () => {
      while (next < REQUESTS) {
        const index = next;
        next += 1;
        const { id, firstTriedAt } = await createRequest(index, retries);
        if (killedAt === 0)
          slowestBeforeKillMs = Math.max(slowestBeforeKillMs, Date.now() - firstTriedAt);
        acknowledged.push(id);
        if (killedAt > 0 && firstTriedAt > killedAt && firstFreshWriteAt === 0) {
          firstFreshWriteAt = Date.now();
        }
        if (acknowledged.length === KILL_AFTER && killedAt === 0) await kill();
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, client));
    // Healthy: every service answers /readyz through the two remaining nodes, the event log has a
    // leader again, and a create that began after the kill was acknowledged.
    const healthyAt = Math.max(await readyPoll, await leaderPoll, firstFreshWriteAt);

    expect(new Set(acknowledged).size).toBe(REQUESTS);
    // Every acknowledged request has its event in the stream and at the receiver. The budget
    // scales with the work (about 100 ms of delivery per request on this shared machine).
    await eventually(
      () => (acknowledged.every((id) => receivedRequests.has(id)) ? true : undefined),
      { timeoutMs: 120_000 + REQUESTS * 100, intervalMs: 500, what: 'every delivery' },
    ).catch(() => undefined);
    const stored = await eventually(() => storedCreatedEvents(), {
      timeoutMs: 120_000,
      intervalMs: 1_000,
      what: 'reading HANDOFF_EVENTS back',
    });
    const storedSet = new Set(stored);
    const notStored = acknowledged.filter((id) => !storedSet.has(id));
    const notDelivered = acknowledged.filter((id) => !receivedRequests.has(id));
    const deliveries = [...received.values()].reduce((sum, count) => sum + count, 0);
    // The settings' timers, plus a few writes' worth of this machine's own pace measured before
    // the kill (the write caught by the kill, its retry, the first fresh one, a readiness poll):
    // a busy machine's slowness counts, a recovery that hangs still fails.
    const boundMs = healthyWithinMs(stack.gateway) + WRITES_IN_RECOVERY * slowestBeforeKillMs;
    const secondsToHealthy = (healthyAt - killedAt) / 1_000;
    const details = {
      killed_node: killed,
      killed_after_acknowledged: KILL_AFTER,
      client_retries: retries.count,
      retries_answered_key_in_flight: retries.inFlight,
      retried_statuses: retries.statuses,
      // Created by an attempt whose answer the kill cut off (a 5xx releases the key), then
      // created again by the retry: extra requests, never lost ones.
      requests_created_unacknowledged: storedSet.size - acknowledged.length,
      events_published_unique: storedSet.size,
      distinct_events_received: received.size,
      seconds_to_first_fresh_write: (firstFreshWriteAt - killedAt) / 1_000,
      seconds_to_ready: ((await readyPoll) - killedAt) / 1_000,
      seconds_to_new_leader: ((await leaderPoll) - killedAt) / 1_000,
    };
    // The figures first, so that a failed expectation below still shows them.
    process.stdout.write(
      `cluster-kill figures: ${acknowledged.length} acknowledged writes, ` +
        `${new Set([...notStored, ...notDelivered]).size} lost, ${stored.length} events, ` +
        `${deliveries - received.size} duplicate deliveries, ${secondsToHealthy} s to healthy ` +
        `(bound ${boundMs / 1_000} s, of which ${(WRITES_IN_RECOVERY * slowestBeforeKillMs) / 1_000} s ` +
        `is ${WRITES_IN_RECOVERY} of the slowest write before the kill) ${JSON.stringify(details)}\n`,
    );

    expect(notStored).toEqual([]);
    expect(notDelivered).toEqual([]);
    expect(received.size).toBeGreaterThanOrEqual(REQUESTS);
    expect(firstFreshWriteAt).toBeGreaterThan(killedAt);
    expect(healthyAt - killedAt).toBeLessThanOrEqual(boundMs);
  }, 900_000);
});
