import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  ALL_EVENT_TYPES,
  EventEnvelope,
  WebhookAttempt,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
  WEBHOOK_DEFAULTS,
  WEBHOOK_MAX_ENDPOINTS_DEFAULT,
} from '@handoff/contracts';
import { eventually, natsOptions } from '@handoff/testkit';
import { jetstream } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { z } from 'zod';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { address, http, type Onboarded } from './support/http.ts';
import { useStack } from './support/stack.ts';
import { signStaffToken } from './support/staff-tokens.ts';

// Conventions §3 end to end: the gateway's webhook routes in front of the real webhook dispatcher,
// with receivers on loopback addresses only.

const stack = useStack('gw_webhooks', {
  oneDatabase: true,
  env: {
    'webhook-dispatcher': {
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_RETRY_SCHEDULE: '1,1,1',
      WEBHOOK_TIMEOUT_MS: '2000',
    },
  },
  gateway: { BUS_TIMEOUT_MS: '2000' },
});
const receivers: Receiver[] = [];
let agent: Onboarded;
let other: Onboarded;
/** Can create requests and read events, but not manage webhooks. */
let noManage: Onboarded;
/** Can manage webhooks, but not read events. */
let noEvents: Onboarded;

const FULL = [
  'requests:create',
  'requests:read',
  'messages:create',
  'webhooks:manage',
  'events:read',
];

interface Delivery {
  headers: { 'webhook-id': string; 'webhook-timestamp': string; 'webhook-signature': string };
  contentType: string;
  /** The raw body, exactly as it came over the socket. */
  body: string;
  envelope: EventEnvelope;
}

/** A local HTTP server on 127.0.0.1 that records every delivery and answers 200 unless told. */
class Receiver {
  readonly deliveries: Delivery[] = [];
  /** Statuses to answer with, first to last; 200 once they are used up. */
  readonly script: number[] = [];
  readonly server: Server;
  url = '';

  constructor() {
    this.server = createServer((req, res) => this.receive(req, res));
  }

  async listen(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    this.url = `http://127.0.0.1:${port}/hooks/handoff`;
    return this;
  }

  private receive(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const header = (name: string) => String(req.headers[name] ?? '');
      this.deliveries.push({
        headers: {
          'webhook-id': header('webhook-id'),
          'webhook-timestamp': header('webhook-timestamp'),
          'webhook-signature': header('webhook-signature'),
        },
        contentType: header('content-type'),
        body,
        envelope: EventEnvelope.parse(JSON.parse(body)),
      });
      const status = this.script.shift() ?? 200;
      res.writeHead(status, { 'Content-Type': 'text/plain' }).end(`answered ${status}`);
    });
  }

  /** Deliveries of one event, in the order they arrived. */
  of(eventId: string): Delivery[] {
    return this.deliveries.filter((d) => d.headers['webhook-id'] === eventId);
  }

  /** Waits for the `count`-th delivery that matches. */
  async waitFor(match: (d: Delivery) => boolean, count = 1, what = 'a delivery') {
    return eventually(
      () => {
        const found = this.deliveries.filter(match);
        return found.length >= count ? found : undefined;
      },
      { timeoutMs: 15_000, what },
    );
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

async function receiver(): Promise<Receiver> {
  const started = await new Receiver().listen();
  receivers.push(started);
  return started;
}

beforeAll(async () => {
  [agent, other, noManage, noEvents] = await Promise.all([
    stack.agentOf(FULL),
    stack.agentOf(FULL),
    stack.agentOf(['requests:create', 'events:read']),
    stack.agentOf(['webhooks:manage']),
  ]);
});

afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});

/** Registers an endpoint for `who` and checks the answer against the contract. */
async function register(who: Onboarded, body: Record<string, unknown>) {
  const created = await http(stack.gateway, '/v1/webhook-endpoints', { token: who.key, body });
  expect(created.status).toBe(201);
  return WebhookEndpointWithSecret.parse(created.body);
}

async function createRequest(who: Onboarded = agent) {
  const created = await http(stack.gateway, '/v1/ai-to-human-request', {
    token: who.key,
    body: { message: 'Please find me a translator for a contract, German to English.' },
  });
  expect(created.status).toBe(201);
  return { id: String(created.body.id), token: String(created.body.request_token) };
}

async function sendMessage(request: { id: string; token: string }, message: string) {
  const sent = await http(stack.gateway, `/v1/request/${request.id}/message`, {
    token: agent.key,
    headers: { 'X-Service-Request-Token': request.token },
    body: { message },
  });
  expect(sent.status).toBe(201);
}

const isEvent = (type: string, requestId: string) => (d: Delivery) =>
  d.envelope.type === type && d.envelope.data.request_id === requestId;

/** What a Standard Webhooks receiver does: verify the raw body against the headers. */
const verify = (secret: string, delivery: Delivery) =>
  new Webhook(secret).verify(delivery.body, delivery.headers);

const signatures = (delivery: Delivery) => delivery.headers['webhook-signature'].split(' ');

const list = <T>(body: Record<string, unknown>) => body.data as T[];

/**
 * Asks for a redelivery of event `id` at `path`, expects it to go to one endpoint, and answers
 * the second delivery `sink` receives with that `webhook-id`.
 */
async function redeliveredOnce(sink: Receiver, path: string, token: string, id: string) {
  expect(await http(stack.gateway, path, { method: 'POST', token })).toMatchObject({
    status: 202,
    body: { object: 'redelivery', event_id: id, endpoints: 1 },
  });
  const [, again] = await sink.waitFor((d) => d.headers['webhook-id'] === id, 2, 'the redelivery');
  return again;
}

describe('GET /v1/capabilities', () => {
  it('reports the settings the dispatcher runs with, not the defaults', async () => {
    // The gateway asks the dispatcher over the bus; it runs with WEBHOOK_RETRY_SCHEDULE=1,1,1
    // and WEBHOOK_TIMEOUT_MS=2000 here.
    const caps = await eventually(
      async () => {
        const answer = await http(stack.gateway, '/v1/capabilities', { from: address() });
        const webhooks = answer.body.webhooks as { source: string };
        return webhooks.source === 'webhook-dispatcher' ? answer : undefined;
      },
      { what: 'capabilities from the dispatcher' },
    );
    expect(caps.body).toMatchObject({
      webhooks: {
        retry_schedule_seconds: [1, 1, 1],
        max_attempts: 4,
        timeout_ms: 2000,
        disable_after_seconds: WEBHOOK_DEFAULTS.disableAfterSeconds,
        deliveries_paused: false,
        source: 'webhook-dispatcher',
      },
      limits: { webhook_endpoints_per_integration: WEBHOOK_MAX_ENDPOINTS_DEFAULT },
      event_types: expect.arrayContaining(['payment.request_rejected', 'payment.failed']),
    });
    // The ETag is the answer's: a conditional read of it is a 304.
    const etag = caps.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"/);
    const again = await fetch(`${stack.gateway.url}/v1/capabilities`, {
      headers: { 'If-None-Match': etag, 'X-Forwarded-For': address() },
    });
    expect(again.status).toBe(304);
  });
});

describe('scopes', () => {
  it('needs webhooks:manage for endpoints and redelivery, events:read for the feed', async () => {
    const manage = { code: 'insufficient_scope', required_scopes: ['webhooks:manage'] };
    for (const [path, method, body] of [
      ['/v1/webhook-endpoints', 'POST', { url: 'http://127.0.0.1:9/x' }],
      ['/v1/webhook-endpoints', 'GET', undefined],
      ['/v1/webhook-endpoints/whe_x', 'GET', undefined],
      ['/v1/webhook-endpoints/whe_x', 'PATCH', { enabled: false }],
      ['/v1/webhook-endpoints/whe_x', 'DELETE', undefined],
      ['/v1/webhook-endpoints/whe_x/rotate-secret', 'POST', undefined],
      ['/v1/webhook-endpoints/whe_x/attempts', 'GET', undefined],
      ['/v1/events/evt_x/redeliver', 'POST', undefined],
    ] as const) {
      const refused = await http(stack.gateway, path, { token: noManage.key, method, body });
      expect([method, path, refused.status, refused.body]).toEqual([
        method,
        path,
        403,
        expect.objectContaining(manage),
      ]);
    }
    for (const path of ['/v1/events', '/v1/events/evt_x']) {
      const refused = await http(stack.gateway, path, { token: noEvents.key });
      expect(refused).toMatchObject({
        status: 403,
        body: { code: 'insufficient_scope', required_scopes: ['events:read'] },
      });
    }
    // From an address outside `address()`'s range: failed authentications are counted per
    // address on the shared bus, and other test files lock addresses out on purpose.
    expect(
      await http(stack.gateway, '/v1/webhook-endpoints', { from: '192.0.2.44' }),
    ).toMatchObject({
      status: 401,
      body: { code: 'api_key_missing' },
    });
  });
});

describe('webhook endpoints', () => {
  it('are created with their secret once, read, listed, changed and deleted', async () => {
    const sink = await receiver();
    const created = await register(agent, { url: sink.url, description: 'CRM sync' });
    expect(created).toMatchObject({
      object: 'webhook_endpoint',
      id: expect.stringMatching(/^whe_/),
      url: sink.url,
      event_types: [...ALL_EVENT_TYPES],
      description: 'CRM sync',
      enabled: true,
      disabled_reason: null,
      previous_secret_expires_at: null,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    expect(Buffer.from(created.secret.slice('whsec_'.length), 'base64')).toHaveLength(32);

    const read = await http(stack.gateway, `/v1/webhook-endpoints/${created.id}`, {
      token: agent.key,
    });
    expect(read.status).toBe(200);
    expect(read.body).not.toHaveProperty('secret');
    // The same endpoint, less the secret (the schema strips what it does not name).
    expect(read.body).toEqual(WebhookEndpoint.parse(created));

    const second = await register(agent, {
      url: `${sink.url}?second`,
      event_types: ['message.created'],
    });
    const listed = await http(stack.gateway, '/v1/webhook-endpoints?limit=100', {
      token: agent.key,
    });
    expect(listed.body).toMatchObject({ object: 'list', has_more: false });
    const ids = list<{ id: string; secret?: string }>(listed.body).map((e) => e.id);
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(created.id));
    expect(ids.indexOf(second.id)).toBeGreaterThanOrEqual(0);
    expect(list<Record<string, unknown>>(listed.body).some((e) => 'secret' in e)).toBe(false);
    const firstPage = await http(stack.gateway, '/v1/webhook-endpoints?limit=1', {
      token: agent.key,
    });
    expect(firstPage.body).toMatchObject({ has_more: true });
    const cursor = list<{ id: string }>(firstPage.body)[0]?.id ?? '';
    const next = await http(
      stack.gateway,
      `/v1/webhook-endpoints?limit=1&starting_after=${cursor}`,
      {
        token: agent.key,
      },
    );
    expect(list<{ id: string }>(next.body).map((e) => e.id)).toEqual([ids[1]]);

    const changed = await http(stack.gateway, `/v1/webhook-endpoints/${created.id}`, {
      method: 'PATCH',
      token: agent.key,
      body: { description: null, event_types: ['request.created', 'request.updated'] },
    });
    expect(changed).toMatchObject({
      status: 200,
      body: {
        id: created.id,
        description: null,
        event_types: ['request.created', 'request.updated'],
        url: sink.url,
        enabled: true,
      },
    });
    expect(changed.body).not.toHaveProperty('secret');
    expect(Date.parse(String(changed.body.updated_at))).toBeGreaterThanOrEqual(
      Date.parse(created.updated_at),
    );

    const empty = await http(stack.gateway, `/v1/webhook-endpoints/${created.id}`, {
      method: 'PATCH',
      token: agent.key,
      body: {},
    });
    expect(empty).toMatchObject({ status: 422, body: { code: 'validation_failed' } });

    const deleted = await http(stack.gateway, `/v1/webhook-endpoints/${created.id}`, {
      method: 'DELETE',
      token: agent.key,
    });
    expect(deleted).toMatchObject({
      status: 200,
      body: { object: 'webhook_endpoint', id: created.id, deleted: true },
    });
    for (const method of ['GET', 'DELETE'] as const) {
      expect(
        await http(stack.gateway, `/v1/webhook-endpoints/${created.id}`, {
          method,
          token: agent.key,
        }),
      ).toMatchObject({ status: 404, body: { code: 'webhook_endpoint_not_found' } });
    }
    const after = await http(stack.gateway, '/v1/webhook-endpoints?limit=100', {
      token: agent.key,
    });
    expect(list<{ id: string }>(after.body).map((e) => e.id)).not.toContain(created.id);
  });

  it("are invisible to another integration: 404, never another integration's data", async () => {
    const mine = await register(agent, { url: (await receiver()).url });
    const path = `/v1/webhook-endpoints/${mine.id}`;
    for (const [suffix, method, body] of [
      ['', 'GET', undefined],
      ['', 'PATCH', { enabled: false }],
      ['', 'DELETE', undefined],
      ['/rotate-secret', 'POST', undefined],
      ['/attempts', 'GET', undefined],
    ] as const) {
      const answer = await http(stack.gateway, `${path}${suffix}`, {
        token: other.key,
        method,
        body,
      });
      expect([method, suffix, answer.status, answer.body.code]).toEqual([
        method,
        suffix,
        404,
        'webhook_endpoint_not_found',
      ]);
    }
    const theirs = await http(stack.gateway, '/v1/webhook-endpoints?limit=100', {
      token: other.key,
    });
    expect(list<{ id: string }>(theirs.body).map((e) => e.id)).not.toContain(mine.id);
    const still = await http(stack.gateway, path, { token: agent.key });
    expect(still).toMatchObject({ status: 200, body: { enabled: true } });
    expect(
      await http(stack.gateway, '/v1/webhook-endpoints/whe_unknown', { token: agent.key }),
    ).toMatchObject({ status: 404, body: { code: 'webhook_endpoint_not_found' } });
  });

  it('refuse URLs that are not http(s), and link-local or cloud-metadata targets always', async () => {
    for (const url of ['not a url', 'ftp://example.com/hook', 'file:///etc/passwd']) {
      const refused = await http(stack.gateway, '/v1/webhook-endpoints', {
        token: agent.key,
        body: { url },
      });
      expect([url, refused.status, refused.body.code]).toEqual([url, 422, 'validation_failed']);
      expect(refused.body.errors).toEqual([expect.objectContaining({ pointer: '/url' })]);
    }
    const unknownField = await http(stack.gateway, '/v1/webhook-endpoints', {
      token: agent.key,
      body: { url: 'http://127.0.0.1:9/x', secret: 'mine' },
    });
    expect(unknownField.body).toMatchObject({
      code: 'validation_failed',
      errors: [{ pointer: '/secret', code: 'unknown_field' }],
    });
    // Private targets are allowed in this deployment; link-local ones never are (dispatcher).
    for (const url of [
      'http://169.254.169.254/',
      'http://169.254.169.254/latest/meta-data/',
      'http://[fe80::1]/hook',
    ]) {
      const refused = await http(stack.gateway, '/v1/webhook-endpoints', {
        token: agent.key,
        body: { url },
      });
      expect([url, refused.status, refused.body.code]).toEqual([url, 422, 'validation_failed']);
      expect(refused.body.errors).toEqual([expect.objectContaining({ pointer: '/url' })]);
    }
    const mine = await register(agent, { url: (await receiver()).url });
    const moved = await http(stack.gateway, `/v1/webhook-endpoints/${mine.id}`, {
      method: 'PATCH',
      token: agent.key,
      body: { url: 'http://169.254.169.254/' },
    });
    expect(moved).toMatchObject({ status: 422, body: { code: 'validation_failed' } });
    const kept = await http(stack.gateway, `/v1/webhook-endpoints/${mine.id}`, {
      token: agent.key,
    });
    expect(kept.body.url).toBe(mine.url);
  });
});

describe('deliveries, the event feed and recovery', () => {
  let sink: Receiver;
  let endpoint: z.output<typeof WebhookEndpointWithSecret>;
  let request: { id: string; token: string };
  let first: Delivery;

  beforeAll(async () => {
    // A clean slate, so that the endpoint counts of redeliveries below are exact.
    const earlier = await http(stack.gateway, '/v1/webhook-endpoints?limit=100', {
      token: agent.key,
    });
    for (const { id } of list<{ id: string }>(earlier.body)) {
      const removed = await http(stack.gateway, `/v1/webhook-endpoints/${id}`, {
        method: 'DELETE',
        token: agent.key,
      });
      expect(removed.status).toBe(200);
    }
    sink = await receiver();
    endpoint = await register(agent, { url: sink.url });
  });

  it('delivers request.created, signed so that a Standard Webhooks verifier accepts it', async () => {
    const messagesOnly = await receiver();
    await register(agent, { url: messagesOnly.url, event_types: ['message.created'] });
    const before = Math.floor(Date.now() / 1000);
    request = await createRequest();
    const [delivered] = await sink.waitFor(isEvent('request.created', request.id), 1, 'created');
    if (!delivered) throw new Error('no delivery');
    first = delivered;
    expect(first.contentType).toMatch(/^application\/json/);
    expect(first.headers['webhook-id']).toBe(first.envelope.id);
    expect(first.envelope).toMatchObject({
      id: expect.stringMatching(/^evt_/),
      type: 'request.created',
      data: { request_id: request.id, sequence: 1, object: { id: request.id } },
    });
    const timestamp = Number(first.headers['webhook-timestamp']);
    expect(timestamp).toBeGreaterThanOrEqual(before - 5);
    expect(timestamp).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 5);
    expect(signatures(first)).toEqual([expect.stringMatching(/^v1,[A-Za-z0-9+/]{43}=$/)]);
    expect(verify(endpoint.secret, first)).toEqual(JSON.parse(first.body));
    // The same body with another secret, or a changed body, does not verify.
    const stranger = `whsec_${randomBytes(32).toString('base64')}`;
    expect(() => verify(stranger, first)).toThrow(WebhookVerificationError);
    expect(() =>
      verify(endpoint.secret, { ...first, body: first.body.replace(request.id, 'req_forged') }),
    ).toThrow(WebhookVerificationError);

    // Subscriptions: the message-only endpoint gets the message, not the creation.
    await sendMessage(request, 'Deadline is Friday.');
    await sink.waitFor(isEvent('message.created', request.id), 1, 'message on the sink');
    await messagesOnly.waitFor(isEvent('message.created', request.id), 1, 'message');
    expect(messagesOnly.deliveries.filter(isEvent('request.created', request.id))).toEqual([]);
    // Another integration's endpoint hears nothing of this request.
    const theirs = await receiver();
    await register(other, { url: theirs.url });
    await sendMessage(request, 'And a second page.');
    await sink.waitFor(isEvent('message.created', request.id), 2, 'second message');
    expect(theirs.deliveries.filter((d) => d.envelope.data.request_id === request.id)).toEqual([]);
  });

  it('lists the events in the feed, filtered by type and request, paged by cursor', async () => {
    const byType = await http(
      stack.gateway,
      `/v1/events?type=request.created&request_id=${request.id}`,
      {
        token: agent.key,
      },
    );
    expect(byType).toMatchObject({ status: 200, body: { object: 'list', has_more: false } });
    expect(list<unknown>(byType.body)).toEqual([JSON.parse(first.body)]);

    const all = await http(stack.gateway, `/v1/events?request_id=${request.id}&limit=100`, {
      token: agent.key,
    });
    const events = list<unknown>(all.body).map((e) => EventEnvelope.parse(e));
    expect(events.map((e) => `${e.data.sequence}:${e.type}`)).toEqual([
      '3:message.created',
      '2:message.created',
      '1:request.created',
    ]);
    const messages = await http(
      stack.gateway,
      `/v1/events?type=message.created&request_id=${request.id}`,
      { token: agent.key },
    );
    expect(list<{ type: string }>(messages.body).map((e) => e.type)).toEqual([
      'message.created',
      'message.created',
    ]);

    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 5; page++) {
      const answer = await http(
        stack.gateway,
        `/v1/events?request_id=${request.id}&limit=1${cursor ? `&starting_after=${cursor}` : ''}`,
        { token: agent.key },
      );
      const data = list<{ id: string }>(answer.body);
      expect(data).toHaveLength(1);
      seen.push(...data.map((e) => e.id));
      cursor = data[0]?.id;
      if (!answer.body.has_more) break;
    }
    expect(seen).toEqual(events.map((e) => e.id));
    const back = await http(
      stack.gateway,
      `/v1/events?request_id=${request.id}&limit=1&ending_before=${first.envelope.id}`,
      { token: agent.key },
    );
    expect(list<{ id: string }>(back.body).map((e) => e.id)).toEqual([events[1]?.id]);

    const newest = await http(stack.gateway, '/v1/events?limit=5', { token: agent.key });
    expect(list<{ id: string }>(newest.body)[0]?.id).toBe(events[0]?.id);
    expect(
      await http(stack.gateway, '/v1/events?type=request.exploded', { token: agent.key }),
    ).toMatchObject({ status: 422, body: { errors: [{ pointer: '/query/type' }] } });
    // The feed is per integration.
    const theirs = await http(stack.gateway, `/v1/events?request_id=${request.id}`, {
      token: other.key,
    });
    expect(theirs).toMatchObject({ status: 200, body: { data: [], has_more: false } });
  });

  it('reads one event exactly as it was delivered', async () => {
    const one = await http(stack.gateway, `/v1/events/${first.envelope.id}`, { token: agent.key });
    expect(one.status).toBe(200);
    expect(one.body).toEqual(JSON.parse(first.body));
    for (const [who, id] of [
      [other, first.envelope.id],
      [agent, 'evt_unknown'],
    ] as const) {
      expect(await http(stack.gateway, `/v1/events/${id}`, { token: who.key })).toMatchObject({
        status: 404,
        body: { code: 'event_not_found' },
      });
    }
  });

  it('redelivers an event with the same webhook-id and logs every attempt', async () => {
    // One endpoint: the message-only endpoint is not subscribed to request.created.
    const again = await redeliveredOnce(
      sink,
      `/v1/events/${first.envelope.id}/redeliver`,
      agent.key,
      first.envelope.id,
    );
    expect(again?.envelope).toEqual(first.envelope);
    expect(again && verify(endpoint.secret, again)).toEqual(first.envelope);

    for (const [who, id] of [
      [other, first.envelope.id],
      [agent, 'evt_unknown'],
    ] as const) {
      expect(
        await http(stack.gateway, `/v1/events/${id}/redeliver`, { method: 'POST', token: who.key }),
      ).toMatchObject({ status: 404, body: { code: 'event_not_found' } });
    }

    const attempts = await eventually(
      async () => {
        const answer = await http(
          stack.gateway,
          `/v1/webhook-endpoints/${endpoint.id}/attempts?limit=100`,
          { token: agent.key },
        );
        const data = list<unknown>(answer.body).map((a) => WebhookAttempt.parse(a));
        const ofEvent = data.filter((a) => a.event_id === first.envelope.id);
        return ofEvent.length >= 2 ? { answer, data, ofEvent } : undefined;
      },
      { what: 'two attempts in the log' },
    );
    expect(attempts.answer.body).toMatchObject({ object: 'list' });
    for (const attempt of attempts.ofEvent) {
      expect(attempt).toMatchObject({
        object: 'webhook_attempt',
        endpoint_id: endpoint.id,
        event_id: first.envelope.id,
        event_type: 'request.created',
        status_code: 200,
        error: null,
        next_attempt_at: null,
        response_body: 'answered 200',
      });
      expect(attempt.duration_ms).toBeGreaterThanOrEqual(0);
      expect(attempt.duration_ms).toBeLessThan(30_000);
    }
    const ids = attempts.data.map((a) => a.id);
    expect([...ids].sort().reverse()).toEqual(ids);
  });

  it('retries a failed delivery with the same webhook-id, per the configured schedule', async () => {
    const flaky = await receiver();
    flaky.script.push(500, 503);
    const flakyEndpoint = await register(agent, {
      url: flaky.url,
      event_types: ['request.created'],
    });
    const retried = await createRequest();
    const tries = await flaky.waitFor(isEvent('request.created', retried.id), 3, 'three tries');
    expect(new Set(tries.map((d) => d.headers['webhook-id'])).size).toBe(1);
    for (const delivery of tries) expect(verify(flakyEndpoint.secret, delivery)).toBeTruthy();
    const log = await eventually(
      async () => {
        const answer = await http(
          stack.gateway,
          `/v1/webhook-endpoints/${flakyEndpoint.id}/attempts`,
          {
            token: agent.key,
          },
        );
        const data = list<unknown>(answer.body).map((a) => WebhookAttempt.parse(a));
        return data.length >= 3 ? data : undefined;
      },
      { what: 'three attempts in the log' },
    );
    expect(log.map((a) => [a.attempt, a.status_code])).toEqual([
      [3, 200],
      [2, 503],
      [1, 500],
    ]);
    expect(log[2]?.next_attempt_at).toEqual(expect.any(String));
    expect(log[2]?.response_body).toBe('answered 500');
    expect(log[0]?.next_attempt_at).toBeNull();
    // Out of the way of the tests below, which count the endpoints an event goes to.
    const removed = await http(stack.gateway, `/v1/webhook-endpoints/${flakyEndpoint.id}`, {
      method: 'DELETE',
      token: agent.key,
    });
    expect(removed.status).toBe(200);
  });

  it('signs with both secrets during a rotation grace period, then only with the new one', async () => {
    const started = Date.now();
    const rotated = await http(
      stack.gateway,
      `/v1/webhook-endpoints/${endpoint.id}/rotate-secret`,
      {
        method: 'POST',
        token: agent.key,
      },
    );
    expect(rotated.status).toBe(200);
    const next = WebhookEndpointWithSecret.parse(rotated.body);
    expect(next.secret).not.toBe(endpoint.secret);
    // Left out, the grace period is WEBHOOK_DEFAULTS.rotationGraceSeconds (24 h).
    const expires = Date.parse(next.previous_secret_expires_at ?? '');
    expect(expires - started).toBeGreaterThan(24 * 3_600_000 - 60_000);
    expect(expires - started).toBeLessThan(24 * 3_600_000 + 60_000);

    const during = await createRequest();
    const [signedTwice] = await sink.waitFor(isEvent('request.created', during.id));
    if (!signedTwice) throw new Error('no delivery');
    expect(signatures(signedTwice)).toEqual([
      expect.stringMatching(/^v1,/),
      expect.stringMatching(/^v1,/),
    ]);
    expect(verify(endpoint.secret, signedTwice)).toEqual(signedTwice.envelope);
    expect(verify(next.secret, signedTwice)).toEqual(signedTwice.envelope);

    const bad = await http(stack.gateway, `/v1/webhook-endpoints/${endpoint.id}/rotate-secret`, {
      token: agent.key,
      body: { grace_period_seconds: -1 },
    });
    expect(bad).toMatchObject({
      status: 422,
      body: { errors: [{ pointer: '/grace_period_seconds' }] },
    });
    const now = await http(stack.gateway, `/v1/webhook-endpoints/${endpoint.id}/rotate-secret`, {
      token: agent.key,
      body: { grace_period_seconds: 0 },
    });
    expect(now.status).toBe(200);
    const last = WebhookEndpointWithSecret.parse(now.body);
    const after = await createRequest();
    const [signedOnce] = await sink.waitFor(isEvent('request.created', after.id));
    if (!signedOnce) throw new Error('no delivery');
    expect(signatures(signedOnce)).toHaveLength(1);
    expect(verify(last.secret, signedOnce)).toEqual(signedOnce.envelope);
    expect(() => verify(next.secret, signedOnce)).toThrow(WebhookVerificationError);
    expect(() => verify(endpoint.secret, signedOnce)).toThrow(WebhookVerificationError);
    endpoint = last;
  });

  it('stops delivering to an endpoint disabled with PATCH enabled:false', async () => {
    const control = await receiver();
    await register(agent, { url: control.url, event_types: ['request.created'] });
    const disabled = await http(stack.gateway, `/v1/webhook-endpoints/${endpoint.id}`, {
      method: 'PATCH',
      token: agent.key,
      body: { enabled: false },
    });
    expect(disabled).toMatchObject({
      status: 200,
      body: { enabled: false, disabled_reason: 'manual' },
    });
    const before = sink.deliveries.length;
    const quiet = await createRequest();
    await control.waitFor(isEvent('request.created', quiet.id), 1, 'the control delivery');
    const redelivered = await http(stack.gateway, `/v1/events/${first.envelope.id}/redeliver`, {
      method: 'POST',
      token: agent.key,
    });
    // Only the control endpoint is enabled and subscribed to request.created now.
    expect(redelivered).toMatchObject({ status: 202, body: { endpoints: 1 } });
    await control.waitFor((d) => d.headers['webhook-id'] === first.envelope.id, 1, 'control');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(sink.deliveries.slice(before)).toEqual([]);

    const enabled = await http(stack.gateway, `/v1/webhook-endpoints/${endpoint.id}`, {
      method: 'PATCH',
      token: agent.key,
      body: { enabled: true },
    });
    expect(enabled).toMatchObject({ status: 200, body: { enabled: true, disabled_reason: null } });
    const heard = await createRequest();
    await sink.waitFor(isEvent('request.created', heard.id), 1, 'delivery after re-enabling');
  });
});

describe("staff routes on an integration's webhooks", () => {
  let staff: string;
  let owner: Onboarded;
  let sink: Receiver;
  let endpoint: z.output<typeof WebhookEndpointWithSecret>;
  const base = () => `/v1/staff/integrations/${owner.integrationId}`;

  beforeAll(async () => {
    staff = await signStaffToken(stack.secret, {
      sub: 'hooks-ops@handoff.test',
      expiresInSeconds: 3600,
    });
    owner = await stack.agentOf(FULL);
    sink = await receiver();
    endpoint = await register(owner, { url: sink.url, event_types: ['request.created'] });
  });

  it('refuse an agent key, even the integration’s own', async () => {
    const paths = [
      ['GET', `${base()}/webhook-endpoints`],
      ['GET', `${base()}/webhook-endpoints/${endpoint.id}/attempts`],
      ['POST', `${base()}/webhook-endpoints/${endpoint.id}/rotate-secret`],
      ['POST', `${base()}/events/evt_x/redeliver`],
    ] as const;
    for (const [method, path] of paths) {
      const refused = await http(stack.gateway, path, { method, token: owner.key });
      expect([method, path, refused.status]).toEqual([method, path, 401]);
      expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    }
    // Nothing was rotated by the refused call: the endpoint still signs with its first secret.
    const listed = await http(stack.gateway, `${base()}/webhook-endpoints`, { token: staff });
    expect(list<{ previous_secret_expires_at: unknown }>(listed.body)[0]).toMatchObject({
      previous_secret_expires_at: null,
    });
  });

  it('list endpoints and attempts, rotate a secret (both verify in the grace period) and redeliver, audited', async () => {
    const listed = await http(stack.gateway, `${base()}/webhook-endpoints?limit=10`, {
      token: staff,
    });
    expect(listed.status).toBe(200);
    const endpoints = list<unknown>(listed.body).map((e) => WebhookEndpoint.parse(e));
    expect(endpoints.map((e) => e.id)).toEqual([endpoint.id]);
    expect(list<Record<string, unknown>>(listed.body)[0]).not.toHaveProperty('secret');
    // Another integration's path shows none of them.
    const foreign = await http(
      stack.gateway,
      `/v1/staff/integrations/${other.integrationId}/webhook-endpoints/${endpoint.id}/attempts`,
      { token: staff },
    );
    expect(foreign).toMatchObject({ status: 404, body: { code: 'webhook_endpoint_not_found' } });

    const request = await createRequest(owner);
    const [delivered] = await sink.waitFor(isEvent('request.created', request.id), 1, 'created');
    if (!delivered) throw new Error('no delivery');
    const attempts = await eventually(
      async () => {
        const answer = await http(
          stack.gateway,
          `${base()}/webhook-endpoints/${endpoint.id}/attempts?limit=10`,
          { token: staff },
        );
        const data = list<unknown>(answer.body).map((a) => WebhookAttempt.parse(a));
        return data.length > 0 ? data : undefined;
      },
      { what: 'the attempt in the staff view' },
    );
    expect(attempts[0]).toMatchObject({
      endpoint_id: endpoint.id,
      event_id: delivered.envelope.id,
      status_code: 200,
      error: null,
    });

    const key = `rotate-${randomBytes(6).toString('hex')}`;
    const rotate = () =>
      http(stack.gateway, `${base()}/webhook-endpoints/${endpoint.id}/rotate-secret`, {
        token: staff,
        headers: { 'Idempotency-Key': key },
        body: { grace_period_seconds: 600 },
      });
    const rotated = await rotate();
    expect(rotated.status).toBe(200);
    const next = WebhookEndpointWithSecret.parse(rotated.body);
    expect(next.secret).toMatch(/^whsec_/);
    expect(next.secret).not.toBe(endpoint.secret);
    // The same key answers the same rotation, not a second one.
    expect((await rotate()).body).toEqual(rotated.body);

    const during = await createRequest(owner);
    const [signedTwice] = await sink.waitFor(isEvent('request.created', during.id), 1, 'after');
    if (!signedTwice) throw new Error('no delivery');
    expect(verify(next.secret, signedTwice)).toEqual(signedTwice.envelope);
    expect(verify(endpoint.secret, signedTwice)).toEqual(signedTwice.envelope);

    const again = await redeliveredOnce(
      sink,
      `${base()}/events/${delivered.envelope.id}/redeliver`,
      staff,
      delivered.envelope.id,
    );
    expect(again && verify(next.secret, again)).toEqual(delivered.envelope);
    expect(
      await http(
        stack.gateway,
        `/v1/staff/integrations/${other.integrationId}/events/${delivered.envelope.id}/redeliver`,
        { method: 'POST', token: staff },
      ),
    ).toMatchObject({ status: 404, body: { code: 'event_not_found' } });

    // Both actions are in the audit log under the staff member, once each, with no secret.
    const audit = await http(stack.gateway, '/v1/staff/audit-log?limit=100', { token: staff });
    const mine = list<Record<string, unknown>>(audit.body).filter(
      (e) => e.actor === 'hooks-ops@handoff.test',
    );
    expect(mine.map((e) => [e.action, e.target_id])).toEqual([
      ['event.redeliver', delivered.envelope.id],
      ['webhook_endpoint.rotate_secret', endpoint.id],
    ]);
    expect(mine[1]).toMatchObject({
      target_type: 'webhook_endpoint',
      after: { integration_id: owner.integrationId },
    });
    expect(JSON.stringify(mine)).not.toContain('whsec_');
  });
});

describe('trust on the bus', () => {
  it('never delivers a forged event: the server refuses it from every user but its owner', async () => {
    const sink = await receiver();
    await register(agent, { url: sink.url });
    const request = await createRequest();
    await sink.waitFor(isEvent('request.created', request.id), 1, 'the genuine request.created');
    const forged = EventEnvelope.parse({
      id: `evt_forged${randomBytes(8).toString('hex')}`,
      type: 'request.updated',
      timestamp: new Date().toISOString(),
      data: {
        request_id: request.id,
        sequence: 99,
        object: { id: request.id, status: 'completed' },
      },
    });
    // Everyone but intake, which owns request events: the gateway (reachable from the internet)
    // and every other service, each with its own real credentials.
    const forgers = [
      'gateway',
      'conversation',
      'payments',
      'milestones',
      'webhook-dispatcher',
    ] as const;
    for (const user of forgers) {
      const nc = await connect(natsOptions(user));
      try {
        await expect(
          jetstream(nc).publish(`handoff.events.${forged.type}`, JSON.stringify(forged), {
            msgID: forged.id,
            timeout: 2_000,
          }),
        ).rejects.toThrow(/Permissions Violation for Publish/i);
      } finally {
        await nc.close();
      }
    }
    // A genuine event published after the forgeries arrives; the forged one never did.
    await sendMessage(request, 'After the forgery attempts.');
    await sink.waitFor(isEvent('message.created', request.id), 1, 'the genuine message.created');
    expect(sink.of(forged.id)).toEqual([]);
  });
});
