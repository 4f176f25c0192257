// Two processes of every service on one NATS and one database, as production's replicas run: a
// short real flow through both gateways (a request created through one is read and answered
// through the other), its webhook events delivered once each, in order, by the two dispatchers
// sharing their durable consumer, and the bus calls served by both replicas of a service.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { EventEnvelope } from '@handoff/contracts';
import {
  eventually,
  ferretBackend,
  findBinary,
  startReceiver,
  type Receiver,
} from '@handoff/testkit';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { callJson, onboardAgent, type AgentKey } from '../src/gateway-client.ts';
import {
  startStack,
  waitUntilEveryReplicaReady,
  type Stack,
  type StackState,
} from '../src/stack.ts';

const REPLICAS = 2;
/** Requests the flow creates, alternating between the gateways. */
const REQUESTS = 6;
/** A start of 16 service processes on a busy 2-core machine, then the flow's calls. */
const SETUP_MS = 240_000;

const dataDir = mkdtempSync(join(tmpdir(), 'handoff-replicas-'));
/** The services' last lines, shown when a test fails. */
const lines: string[] = [];
let stack: Stack;
let gateways: [string, string];
let staff: string;
let agent: AgentKey;
let receiver: Receiver;
let verifier: Webhook | undefined;
/** Verified deliveries in arrival order, with the delivery id (`webhook-id`) of each. */
const received: { webhookId: string; event: EventEnvelope }[] = [];

beforeAll(async () => {
  receiver = await startReceiver(
    (delivery) => {
      if (!verifier) throw new Error('no secret yet');
      const headers = Object.fromEntries(
        ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => [
          name,
          String(delivery.headers[name] ?? ''),
        ]),
      );
      const event = verifier.verify(delivery.body, headers) as EventEnvelope;
      received.push({ webhookId: headers['webhook-id'] ?? '', event });
    },
    { failedStatus: 400 },
  );
  stack = await startStack({
    dataDir,
    port: 0,
    logLevel: 'warn',
    replicas: REPLICAS,
    env: { WEBHOOK_RETRY_SCHEDULE: '1,1,2,5', PAYMENT_PROVIDER: 'manual' },
    events: {
      onLine(name, line) {
        lines.push(`${name} | ${line}`);
        if (lines.length > 300) lines.shift();
      },
      onStart() {},
      onExit() {},
    },
  });
  const [first, second] = stack.state().gateway_urls;
  if (!first || !second) throw new Error(`not two gateways: ${stack.state().gateway_urls}`);
  gateways = [first, second];
  if (!(await waitUntilEveryReplicaReady(stack.state(), 180_000))) {
    throw new Error(`not every replica became ready:\n${lines.slice(-40).join('\n')}`);
  }
  staff = await stack.staffToken();
  agent = await onboardAgent({
    gatewayUrl: second,
    staffToken: staff,
    scopes: ['requests:create', 'requests:read', 'messages:create', 'webhooks:manage'],
    appName: 'Replicas test',
  });
}, SETUP_MS);

afterAll(async () => {
  await stack?.stop();
  await receiver?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Rethrows a failure with the services' last lines, so it shows its cause. */
async function withLines<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw new Error(`${String(error)}\nlast service lines:\n${lines.slice(-40).join('\n')}`, {
      cause: error,
    });
  }
}

type Body = Record<string, unknown>;

function call(
  gateway: string,
  method: 'GET' | 'POST',
  path: string,
  expect: number,
  body?: unknown,
  token?: string,
): Promise<Body> {
  const headers: Record<string, string> = { Authorization: `Bearer ${agent.api_key}` };
  if (token) headers['X-Service-Request-Token'] = token;
  return callJson(
    `${method} ${path}`,
    `${gateway}${path}`,
    { method, headers, body, expect },
    undefined,
  );
}

const str = (body: Body, field: string) => {
  const value = body[field];
  if (typeof value !== 'string') throw new Error(`no ${field} in ${JSON.stringify(body)}`);
  return value;
};

describe(`a stack of ${REPLICAS} replicas of every service`, () => {
  it('runs each replica as a process of its own, and stack.json lists them all', async () => {
    const state = stack.state();
    const saved = JSON.parse(readFileSync(join(dataDir, 'stack.json'), 'utf8')) as StackState;
    expect(saved.gateway_urls).toEqual(state.gateway_urls);
    expect(state.gateway_urls).toHaveLength(REPLICAS);
    expect(state.gateway_urls[0]).toBe(state.gateway_url);
    expect(new Set(state.gateway_urls).size).toBe(REPLICAS);
    const processes = Object.values(state.services).flatMap((service) => service.replicas);
    expect(processes).toHaveLength(8 * REPLICAS);
    expect(new Set(processes.map((p) => p.pid)).size).toBe(8 * REPLICAS);
    for (const [name, service] of Object.entries(state.services)) {
      // The first replica stays where readers of one replica look.
      expect({ name, pid: service.pid }).toEqual({ name, pid: service.replicas[0]?.pid });
      expect({ name, saved: saved.services[name as keyof StackState['services']]?.pid }).toEqual({
        name,
        saved: service.pid,
      });
    }
    // Each replica answers its own probe port, the gateways too, with its memory on /healthz.
    const healthPorts = processes.flatMap((p) => (p.health_port ? [p.health_port] : []));
    expect(healthPorts).toHaveLength(8 * REPLICAS);
    expect(new Set(healthPorts).size).toBe(8 * REPLICAS);
    for (const port of healthPorts) {
      const res = await fetch(`http://127.0.0.1:${port}/readyz`);
      expect({ port, status: res.status }).toEqual({ port, status: 200 });
      const live = (await (await fetch(`http://127.0.0.1:${port}/healthz`)).json()) as {
        memory?: { heap_used_bytes?: number };
      };
      expect(live.memory?.heap_used_bytes).toBeGreaterThan(0);
    }
  });

  it('hands a fault test the servers it started: nats-server pids, database restarts', async () => {
    const faults = stack.faults();
    expect(faults).toBeDefined();
    const pids = faults?.natsPids() ?? [];
    expect(pids).toHaveLength(1);
    for (const pid of pids) {
      expect(() => process.kill(pid, 0)).not.toThrow();
      expect(readFileSync(`/proc/${pid}/comm`, 'utf8').trim()).toBe('nats-server');
    }
    // The stack's database is FerretDB unless a mongod is installed.
    const ferret = (await findBinary(['mongod'])) === undefined;
    const onPostgres = ferret && ferretBackend(process.env) === 'postgresql';
    expect(typeof faults?.restartFerretDB).toBe(ferret ? 'function' : 'undefined');
    expect(typeof faults?.restartPostgres).toBe(onPostgres ? 'function' : 'undefined');
  });

  it('serves a request created through one gateway through the other, and delivers each event once, in order', async () => {
    await withLines(async () => {
      const endpoint = await call(gateways[0], 'POST', '/v1/webhook-endpoints', 201, {
        url: `${receiver.url}/hooks`,
        description: 'replicas test receiver',
        event_types: ['request.created', 'message.created'],
      });
      verifier = new Webhook(str(endpoint, 'secret'));

      const requests: { id: string; token: string; via: number }[] = [];
      for (let i = 0; i < REQUESTS; i += 1) {
        const via = i % REPLICAS;
        const created = await call(gateways[via] ?? '', 'POST', '/v1/ai-to-human-request', 201, {
          message: `Replica flow ${i}: a landing page for a bakery.`,
          category: 'web-development',
          name: 'Grace Hopper',
          email: 'grace@example.com',
          contact_permission: true,
        });
        requests.push({ id: str(created, 'id'), token: str(created, 'request_token'), via });
      }
      for (const [i, request] of requests.entries()) {
        const path = `/v1/request/${request.id}`;
        const other = gateways[(request.via + 1) % REPLICAS] ?? '';
        const own = gateways[request.via] ?? '';
        // Created through one gateway, read through the other at once.
        const read = await call(other, 'GET', path, 200, undefined, request.token);
        expect(read).toMatchObject({ id: request.id });
        // Answered through the other, then read back through both: the message is there.
        const message = `Replica answer ${i}`;
        await call(other, 'POST', `${path}/message`, 201, { message }, request.token);
        for (const gateway of [other, own]) {
          const after = await call(gateway, 'GET', path, 200, undefined, request.token);
          const said = (after.conversation as Body[]).map((entry) => entry.message);
          expect({ gateway, said }).toEqual({ gateway, said: expect.arrayContaining([message]) });
        }
      }

      // Every event once (the two dispatchers share their durable consumer), numbered 1, 2 per
      // request with no gap or repeat.
      const expected = REQUESTS * 2;
      await eventually(() => (received.length >= expected ? true : undefined), {
        timeoutMs: 30_000,
        what: `${expected} deliveries (got ${received.length})`,
      });
      // Time for a duplicate to show up, were the consumer not shared.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect(received).toHaveLength(expected);
      expect(new Set(received.map((r) => r.event.id)).size).toBe(expected);
      for (const request of requests) {
        const mine = received.filter((r) => r.event.data.request_id === request.id);
        expect({ request: request.id, kinds: mine.map((r) => r.event.type) }).toEqual({
          request: request.id,
          kinds: ['request.created', 'message.created'],
        });
        expect(mine.map((r) => r.event.data.sequence)).toEqual([1, 2]);
      }
    });
  }, 120_000);

  it("splits the bus calls between a service's replicas", async () => {
    // Each health report comes from whichever replica of each service answered its bus call.
    const pidsOf = (name: keyof StackState['services']) =>
      new Set((stack.state().services[name]?.replicas ?? []).map((r) => r.pid));
    const seen = new Map<string, Set<number>>();
    await eventually(
      async () => {
        for (const gateway of gateways) {
          const res = await fetch(`${gateway}/v1/staff/health`, {
            headers: { Authorization: `Bearer ${staff}` },
          });
          const body = (await res.json()) as { services: Record<string, { instance?: string }> };
          for (const [name, service] of Object.entries(body.services)) {
            const pid = Number(/-(\d+)-[^-]+$/.exec(service.instance ?? '')?.[1]);
            expect({ name, own: pidsOf(name as keyof StackState['services']).has(pid) }).toEqual({
              name,
              own: true,
            });
            seen.set(name, (seen.get(name) ?? new Set()).add(pid));
          }
        }
        return ['intake', 'conversation', 'milestones'].every(
          (name) => seen.get(name)?.size === REPLICAS,
        )
          ? true
          : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 50, what: 'both replicas of each service answering' },
    );
  }, 60_000);
});
