import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { call } from '@handoff/bus';
import { requestOps, webhookOps } from '@handoff/contracts';
import { parsePrometheusText, type PrometheusSample } from '@handoff/observability';
import { sha256Hex } from '@handoff/runtime';
import { bootstrap as intake } from '@handoff/intake';
import { eventually, natsOptions, serviceEnv, uniqueDatabase } from '@handoff/testkit';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes, randomUUID } from 'node:crypto';
import { sendWebhook } from '../src/adapters/sender.ts';
import { bootstrap } from '../src/bootstrap.ts';
import { attemptOutcome } from '../src/delivery/metrics.ts';
import { generateWebhookSecret } from '../src/domain/signer.ts';
import { CONSUMER_NAME } from '../src/handlers/events.consumer.ts';
import { DELIVERY_CONSUMER } from '../src/store/delivery-queue.ts';

// The dispatcher's health port serves its metrics: attempts by outcome and status class, their
// duration, deliveries given up, endpoints disabled, and its consumers' pending and redeliveries,
// driven by real deliveries to receivers on loopback.
type Service = Awaited<ReturnType<typeof bootstrap>>;
const database = uniqueDatabase('dispatch-metrics');
const WEBHOOK_SECRETS_KEY = randomBytes(32).toString('base64');
const ID_LIKE = /[a-z]+_[0-9a-z]{20,}/;
let nc: NatsConnection;
let intakeService: Awaited<ReturnType<typeof intake>>;
const dispatchers: Service[] = [];
const servers: Server[] = [];

beforeAll(async () => {
  nc = await connect({ ...natsOptions() });
  intakeService = await intake({ env: serviceEnv('intake', database) });
});

afterEach(async () => {
  await Promise.all(dispatchers.splice(0).map((service) => service.stop()));
});

afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
  await intakeService.stop();
  await nc.close();
});

const startDispatcher = async (schedule: string, extra: Record<string, string> = {}) => {
  const service = await bootstrap({
    env: {
      ...serviceEnv('webhook-dispatcher', database),
      WEBHOOK_SECRETS_KEY,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_RETRY_SCHEDULE: schedule,
      WEBHOOK_TIMEOUT_MS: '500',
      ...extra,
    },
  });
  dispatchers.push(service);
  return service;
};

/** A receiver on loopback answering `status` to every delivery, or never answering. */
async function receiver(status: number | 'hang') {
  let received = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received += 1;
      if (status !== 'hang') res.writeHead(status).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return { url, received: () => received };
}

/** A loopback URL where nothing listens (a connection is refused). */
async function closedUrl() {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/hook`;
}

/** An endpoint of a fresh integration, and one event for it. */
async function deliverOneEventTo(url: string) {
  const integration_id = `int_${randomUUID().replace(/-/g, '').slice(0, 26)}`;
  const opts = { timeoutMs: 5_000 };
  const endpoint = await call(nc, webhookOps.create, { integration_id, input: { url } }, opts);
  await call(
    nc,
    requestOps.create,
    { integration_id, token_hash: sha256Hex(`hrt_${randomUUID()}`), input: { message: 'hi' } },
    { timeoutMs: 30_000 },
  );
  return { integration_id, endpoint };
}

const scrape = async (service: Service): Promise<PrometheusSample[]> => {
  const res = await fetch(`http://127.0.0.1:${service.healthPort}/metrics`);
  expect(res.status).toBe(200);
  return parsePrometheusText(await res.text());
};

const sumOf = (samples: PrometheusSample[], name: string, labels: Record<string, string> = {}) =>
  samples
    .filter(
      (s) =>
        s.name === name && Object.entries(labels).every(([key, value]) => s.labels[key] === value),
    )
    .reduce((sum, s) => sum + s.value, 0);

describe('the dispatcher /metrics', () => {
  it('counts and times attempts by outcome, and the deliveries given up', async () => {
    // One retry, a second later: every retry job comes before it is due and is handed back.
    const service = await startDispatcher('1');
    const before = await scrape(service);
    const ok = await receiver(200);
    const failing = await receiver(500);
    const hanging = await receiver('hang');
    const gone = await receiver(410);
    await deliverOneEventTo(ok.url);
    await deliverOneEventTo(failing.url);
    await deliverOneEventTo(hanging.url);
    const goneEndpoint = await deliverOneEventTo(gone.url);
    await deliverOneEventTo(await closedUrl());

    const delta = (samples: PrometheusSample[], name: string, labels: Record<string, string>) =>
      sumOf(samples, name, labels) - sumOf(before, name, labels);
    const parked = 'handoff_webhook_deliveries_parked_total';
    const samples = await eventually(
      async () => {
        const now = await scrape(service);
        return delta(now, parked, { reason: 'exhausted' }) >= 3 &&
          delta(now, parked, { reason: 'gone' }) >= 1
          ? now
          : undefined;
      },
      { timeoutMs: 20_000, what: 'four deliveries given up' },
    );
    const attempts = 'handoff_webhook_attempts_total';
    const counted = (labels: Record<string, string>) => delta(samples, attempts, labels);
    expect(counted({ outcome: 'delivered', http_response_status_code: '2xx' })).toBe(1);
    expect(counted({ outcome: 'http_error', http_response_status_code: '5xx' })).toBe(2);
    expect(counted({ outcome: 'http_error', http_response_status_code: '4xx' })).toBe(1);
    expect(counted({ outcome: 'timeout' })).toBe(2);
    expect(counted({ outcome: 'network_error' })).toBe(2);
    expect(counted({})).toBe(8);
    expect(delta(samples, parked, { reason: 'exhausted' })).toBe(3);
    expect(delta(samples, parked, { reason: 'gone' })).toBe(1);
    expect(ok.received()).toBe(1);
    expect(failing.received()).toBe(2);
    expect(hanging.received()).toBe(2);
    // A timeout and a network error carry no status class.
    expect(
      samples.filter(
        (s) =>
          s.name === attempts &&
          ['timeout', 'network_error'].includes(s.labels.outcome ?? '') &&
          s.labels.http_response_status_code !== undefined,
      ),
    ).toEqual([]);

    // The duration histogram counts the same attempts; the hanging ones took the timeout.
    const duration = 'handoff_webhook_attempt_duration_seconds';
    expect(delta(samples, `${duration}_count`, {})).toBe(8);
    expect(delta(samples, `${duration}_sum`, { outcome: 'timeout' })).toBeGreaterThanOrEqual(0.9);
    expect(
      delta(samples, `${duration}_bucket`, { outcome: 'delivered', le: '+Inf' }),
    ).toBeGreaterThanOrEqual(1);

    // The 410 disabled its endpoint.
    expect(delta(samples, 'handoff_webhook_endpoints_disabled_total', { reason: 'gone' })).toBe(1);
    const goneNow = await call(
      nc,
      webhookOps.get,
      { integration_id: goneEndpoint.integration_id, id: goneEndpoint.endpoint.id },
      { timeoutMs: 5_000 },
    );
    expect(goneNow).toMatchObject({ enabled: false, disabled_reason: 'gone' });

    // Both of its durables are watched; the retries came before they were due, and came again.
    const consumer = (durable: string) => ({
      messaging_system: 'nats',
      messaging_consumer_group_name: durable,
    });
    expect(
      samples.some(
        (s) =>
          s.name === 'messaging_consumer_pending' &&
          s.labels.messaging_consumer_group_name === DELIVERY_CONSUMER,
      ),
    ).toBe(true);
    expect(
      samples.some(
        (s) =>
          s.name === 'messaging_consumer_pending' &&
          s.labels.messaging_consumer_group_name === CONSUMER_NAME,
      ),
    ).toBe(true);
    expect(
      delta(samples, 'messaging_consumer_redeliveries_total', consumer(DELIVERY_CONSUMER)),
    ).toBeGreaterThanOrEqual(1);

    const values = samples
      .filter((s) => /^(handoff_webhook_|messaging_consumer_)/.test(s.name))
      .flatMap((s) => Object.values(s.labels));
    expect(values.filter((value) => ID_LIKE.test(value))).toEqual([]);
    expect(values.some((value) => value.includes('127.0.0.1'))).toBe(false);
  }, 60_000);

  it('counts an endpoint disabled for failing too long', async () => {
    const service = await startDispatcher('0.3,0.3,0.3,0.3,0.3,0.3,0.3,0.3', {
      WEBHOOK_DISABLE_AFTER_S: '1',
    });
    const before = await scrape(service);
    const failing = await receiver(500);
    const { integration_id, endpoint } = await deliverOneEventTo(failing.url);
    const disabled = 'handoff_webhook_endpoints_disabled_total';
    await eventually(
      async () => {
        const now = await scrape(service);
        return sumOf(now, disabled, { reason: 'failing' }) -
          sumOf(before, disabled, { reason: 'failing' }) ===
          1
          ? now
          : undefined;
      },
      { timeoutMs: 20_000, what: 'the endpoint disabled as failing' },
    );
    const found = await call(
      nc,
      webhookOps.get,
      { integration_id, id: endpoint.id },
      { timeoutMs: 5_000 },
    );
    expect(found).toMatchObject({ enabled: false, disabled_reason: 'failing' });
  }, 30_000);

  it('names a refused target apart from what went wrong on the wire', async () => {
    const refused = await sendWebhook(
      { url: 'http://127.0.0.1:9/hook', secrets: [generateWebhookSecret()] },
      { id: 'evt_1', body: '{}' },
      { timeoutMs: 1_000, policy: { allowPrivate: false }, responseBodyLimit: 100 },
    );
    expect(attemptOutcome(refused)).toBe('refused_url');
    const unreachable = await sendWebhook(
      { url: await closedUrl(), secrets: [generateWebhookSecret()] },
      { id: 'evt_1', body: '{}' },
      { timeoutMs: 1_000, policy: { allowPrivate: true }, responseBodyLimit: 100 },
    );
    expect(attemptOutcome(unreachable)).toBe('network_error');
  });
});
