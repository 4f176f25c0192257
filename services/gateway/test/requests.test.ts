import { beforeAll, describe, expect, it } from '@jest/globals';
import { EVENTS_STREAM, EventEnvelope, newId, REQUEST_VIEWS } from '@handoff/contracts';
import { Kvm } from '@nats-io/kv';
import { eventually, natsOptions } from '@handoff/testkit';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { randomBytes } from 'node:crypto';
import type { RunningGateway } from '../src/bootstrap.ts';
import { address, http, type Onboarded } from './support/http.ts';
import { CUSTOMER, useStack } from './support/stack.ts';

const stack = useStack('gw_requests', { oneDatabase: true });
let agent: Onboarded;
let other: Onboarded;
let narrow: Onboarded;

const ALL = ['requests:create', 'requests:read', 'messages:create', 'payments:propose'];

beforeAll(async () => {
  [agent, other, narrow] = await Promise.all([
    stack.agentOf(ALL),
    stack.agentOf(ALL),
    stack.agentOf(['requests:read']),
  ]);
});

const customer = { ...CUSTOMER, marketplace_opt_in: true, budget_max: 150.5 };

async function createRequest(path = '/v1/ai-to-human-request', body: unknown = customer) {
  const created = await http(stack.gateway, path, { token: agent.key, body });
  expect(created.status).toBe(201);
  return {
    id: String(created.body.id),
    token: String(created.body.request_token),
    body: created.body,
  };
}

/** A `POST` to a path under the request, as its agent with the request's token. */
const postAsCustomer = (id: string, token: string, path: string, body: unknown) =>
  http(stack.gateway, `/v1/request/${id}${path}`, {
    token: agent.key,
    headers: { 'X-Service-Request-Token': token },
    body,
  });

describe.each([
  ['/v1/ai-to-human-request', false],
  ['/v1/human-request', true],
])('POST %s', (path, deprecated) => {
  it('creates the request and returns its token once', async () => {
    const created = await http(stack.gateway, path, { token: agent.key, body: customer });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      object: 'request',
      id: expect.stringMatching(/^req_/),
      status: 'submitted',
      category: 'home-services',
      customer: { name: 'Ada Lovelace', email: 'ada@example.com' },
      marketplace: { opted_in: true, review: 'pending_review' },
      budget_min: 50,
      budget_max: 150.5,
      request_token: expect.stringMatching(/^hrt_[0-9A-Za-z]{40}$/),
    });
    const read = await http(stack.gateway, `/v1/request/${String(created.body.id)}`, {
      token: agent.key,
      headers: { 'X-Service-Request-Token': String(created.body.request_token) },
    });
    expect(read.status).toBe(200);
    expect(read.body).not.toHaveProperty('request_token');
    if (deprecated) {
      expect(created.headers.get('deprecation')).toBe('@1767225600');
      expect(created.headers.get('sunset')).toBe('Wed, 30 Jun 2027 00:00:00 GMT');
      expect(created.headers.get('link')).toBe(
        '</v1/ai-to-human-request>; rel="successor-version"',
      );
    } else {
      expect(created.headers.get('deprecation')).toBeNull();
    }
  });

  it('needs the agent key: 401 before anything else', async () => {
    expect(await http(stack.gateway, path, { body: customer, from: address() })).toMatchObject({
      status: 401,
      body: { code: 'api_key_missing' },
    });
    expect(
      await http(stack.gateway, path, {
        body: customer,
        token: `hk_live_${'x'.repeat(36)}`,
        from: address(),
      }),
    ).toMatchObject({
      status: 401,
      body: { code: 'api_key_invalid' },
    });
  });

  it('names the missing scope in a 403', async () => {
    const refused = await http(stack.gateway, path, { token: narrow.key, body: customer });
    expect(refused).toMatchObject({
      status: 403,
      body: { code: 'insufficient_scope', required_scopes: ['requests:create'] },
    });
  });

  it('refuses bad bodies with pointers to each problem', async () => {
    const bad = await http(stack.gateway, path, {
      token: agent.key,
      body: {
        message: '',
        email: 'not-an-email',
        website: 'not a uri',
        budget_min: -1,
        extra: true,
      },
    });
    expect(bad.status).toBe(422);
    const pointers = (bad.body.errors as { pointer: string }[]).map((e) => e.pointer).sort();
    expect(pointers).toEqual(['/budget_min', '/email', '/extra', '/message', '/website']);
    const order = await http(stack.gateway, path, {
      token: agent.key,
      body: { message: 'x', budget_min: 10, budget_max: 5 },
    });
    expect(order.body).toMatchObject({
      code: 'validation_failed',
      errors: [{ pointer: '/budget_min' }],
    });
    const category = await http(stack.gateway, path, {
      token: agent.key,
      body: { message: 'x', category: 'astrology' },
    });
    expect(category.body).toMatchObject({
      errors: [{ pointer: '/category' }],
    });
    expect(JSON.stringify(category.body)).toContain('home-services');
    const long = await http(stack.gateway, path, {
      token: agent.key,
      body: { message: 'x'.repeat(10_001) },
    });
    expect(long.body).toMatchObject({ errors: [{ pointer: '/message' }] });
  });

  it('answers 415, 413 and 400 for what is not a JSON body of the allowed size', async () => {
    const headers = { Authorization: `Bearer ${agent.key}`, 'X-Forwarded-For': address() };
    const text = await fetch(`${stack.gateway.url}${path}`, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'text/plain' },
      body: 'hi',
    });
    expect(text.status).toBe(415);
    const big = await fetch(`${stack.gateway.url}${path}`, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ message: 'x'.repeat(70_000) }),
    });
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ code: 'payload_too_large' });
    const broken = await fetch(`${stack.gateway.url}${path}`, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: '{"message":',
    });
    expect(broken.status).toBe(400);
  });
});

describe('GET /v1/request/{id}', () => {
  it('checks the token before any lookup, then ownership, then the token', async () => {
    const { id, token } = await createRequest();
    // In the order the gateway checks: the token's presence, the owner, the token, the request.
    for (const [path, key, requestToken, status, code] of [
      ['/v1/request/req_does_not_exist', agent.key, undefined, 401, 'request_token_missing'],
      [`/v1/request/${id}`, other.key, token, 404, 'request_not_found'],
      [`/v1/request/${id}`, agent.key, 'hrt_wrong', 403, 'request_token_invalid'],
      ['/v1/request/req_unknown', agent.key, token, 404, 'request_not_found'],
    ] as const) {
      const headers: Record<string, string> = requestToken
        ? { 'X-Service-Request-Token': requestToken }
        : {};
      expect(await http(stack.gateway, path, { token: key, headers })).toMatchObject({
        status,
        body: { code },
      });
    }
  });

  it('checks the token once on a miss of the cache: in the gateway, against the owner it keeps', async () => {
    const { id, token } = await createRequest();
    const watcher = await connect(natsOptions());
    const asked: string[] = [];
    for (const op of ['authorize', 'get']) {
      watcher.subscribe(`handoff.intake.requests.${op}`, { callback: () => void asked.push(op) });
    }
    await watcher.flush();
    const read = (requestToken: string) =>
      http(stack.gateway, `/v1/request/${id}`, {
        token: agent.key,
        headers: { 'X-Service-Request-Token': requestToken },
      });
    try {
      // The request's view holds its owner and token hash: intake is not asked.
      expect(await read('hrt_wrong')).toMatchObject({
        status: 403,
        body: { code: 'request_token_invalid' },
      });
      expect((await read(token)).status).toBe(200);
      await watcher.flush();
      expect(asked).toEqual([]);
    } finally {
      await watcher.close();
    }
  });

  it("without a view, checks the token against intake's owner and reads the services, then keeps a view", async () => {
    const { id, token } = await createRequest();
    const watcher = await connect(natsOptions());
    const asked: string[] = [];
    for (const op of ['authorize', 'get']) {
      watcher.subscribe(`handoff.intake.requests.${op}`, { callback: () => void asked.push(op) });
    }
    await watcher.flush();
    const views = await new Kvm(watcher).open(REQUEST_VIEWS.bucket);
    await eventually(async () => (await views.get(id)) ?? undefined);
    await views.purge(id);
    // Another gateway holds nothing of the request yet: its first read takes the long way.
    const second = await stack.extraGateway();
    const read = () =>
      http(second, `/v1/request/${id}`, {
        token: agent.key,
        headers: { 'X-Service-Request-Token': token },
      });
    try {
      expect(
        await http(second, `/v1/request/${id}`, {
          token: agent.key,
          headers: { 'X-Service-Request-Token': 'hrt_wrong' },
        }),
      ).toMatchObject({ status: 403, body: { code: 'request_token_invalid' } });
      const first = await read();
      expect(first.status).toBe(200);
      await watcher.flush();
      expect(asked).toEqual(['authorize', 'get']);
      // That read became the request's view.
      await eventually(async () => {
        const kept = await views.get(id);
        expect(kept?.operation).toBe('PUT');
        expect(kept?.json()).toMatchObject({ request: { id }, upto: 1 });
        return true;
      });
    } finally {
      await second.stop();
      await watcher.close();
    }
  });

  it('returns the conversation in order and only approved payment data', async () => {
    const { id, token } = await createRequest();
    const headers = { 'X-Service-Request-Token': token };
    for (const text of ['First follow-up', 'Second follow-up']) {
      const sent = await postAsCustomer(id, token, '/message', { message: text });
      expect(sent).toMatchObject({
        status: 201,
        body: { object: 'message', author_role: 'agent', message: text, request_id: id },
      });
    }
    const pending = await postAsCustomer(id, token, '/payment-request', {
      amount: 120.5,
      description: 'Tap repair',
      reference: 'INV-1',
    });
    expect(pending).toMatchObject({
      status: 201,
      body: { status: 'pending_approval', currency: 'USD', amount: 120.5 },
    });
    const rejectedOne = await postAsCustomer(id, token, '/payment-request', {
      amount: 5000,
      currency: 'JPY',
      description: 'Call-out',
    });
    expect(rejectedOne.body).toMatchObject({ currency: 'JPY', amount: 5000 });

    let read = await http(stack.gateway, `/v1/request/${id}`, { token: agent.key, headers });
    expect(
      (read.body.conversation as { message: string; author_role: string }[]).map((m) => [
        m.author_role,
        m.message,
      ]),
    ).toEqual([
      ['agent', 'First follow-up'],
      ['agent', 'Second follow-up'],
    ]);
    expect(read.body.payments).toEqual([]);

    const approved = await http(
      stack.gateway,
      `/v1/staff/payment-requests/${String(pending.body.id)}/approve`,
      { method: 'POST', token: stack.staff },
    );
    expect(approved).toMatchObject({ status: 200, body: { status: 'approved' } });
    const rejected = await http(
      stack.gateway,
      `/v1/staff/payment-requests/${String(rejectedOne.body.id)}/reject`,
      { token: stack.staff, body: { reason: 'Included in the repair' } },
    );
    expect(rejected.body).toMatchObject({ status: 'rejected' });
    const twice = await http(
      stack.gateway,
      `/v1/staff/payment-requests/${String(pending.body.id)}/approve`,
      { method: 'POST', token: stack.staff },
    );
    expect(twice).toMatchObject({
      status: 409,
      body: { code: 'invalid_state_transition', current_state: 'approved' },
    });

    read = await http(stack.gateway, `/v1/request/${id}`, { token: agent.key, headers });
    expect(read.body.payments).toEqual([
      expect.objectContaining({ id: pending.body.id, status: 'approved', amount: 120.5 }),
    ]);
  });

  it('answers 503 with Retry-After in bounded time when a service is gone, and reads from the view meanwhile', async () => {
    const { id, token } = await createRequest();
    const headers = { 'X-Service-Request-Token': token };
    expect((await postAsCustomer(id, token, '/message', { message: 'Before' })).status).toBe(201);
    await stack.stopService('conversation');
    try {
      const started = Date.now();
      const listed = await http(stack.gateway, `/v1/request/${id}/messages`, {
        token: agent.key,
        headers,
      });
      expect(listed).toMatchObject({ status: 503, body: { code: 'service_unavailable' } });
      expect(listed.headers.get('retry-after')).toBe('1');
      // Within one bus timeout (3 s here): the gateway does not retry into a service that is gone.
      expect(Date.now() - started).toBeLessThan(6_000);
      // The request's view still answers the agent's read, its message included.
      await eventually(async () => {
        const read = await http(stack.gateway, `/v1/request/${id}`, { token: agent.key, headers });
        expect(read).toMatchObject({
          status: 200,
          body: { conversation: [{ message: 'Before' }] },
        });
        return true;
      });
    } finally {
      await stack.startService('conversation');
    }
  });
});

describe("the replica's request cache", () => {
  const read = (gw: RunningGateway, id: string, token: string) =>
    http(gw, `/v1/request/${id}`, {
      token: agent.key,
      headers: { 'X-Service-Request-Token': token },
    });
  const message = (gw: RunningGateway, id: string, token: string, text: string) =>
    http(gw, `/v1/request/${id}/message`, {
      token: agent.key,
      headers: { 'X-Service-Request-Token': token },
      body: { message: text },
    });

  it('shows a message posted through this gateway in the very next read, every time', async () => {
    const { id, token } = await createRequest();
    for (let n = 1; n <= 5; n += 1) {
      // Read twice first, so that the read is held by the cache when the message is posted.
      expect((await read(stack.gateway, id, token)).body.conversation).toHaveLength(n - 1);
      expect((await read(stack.gateway, id, token)).body.conversation).toHaveLength(n - 1);
      expect((await message(stack.gateway, id, token, `update ${n}`)).status).toBe(201);
      const after = await read(stack.gateway, id, token);
      expect(after.body.conversation).toHaveLength(n);
      expect(after.body.conversation).toEqual(
        expect.arrayContaining([expect.objectContaining({ message: `update ${n}` })]),
      );
    }
  });

  it('refuses a message at once after a cancel through this stack.gateway, and the read shows it', async () => {
    const { id, token } = await createRequest();
    // The open status and the read are held now.
    expect((await message(stack.gateway, id, token, 'still open?')).status).toBe(201);
    expect((await read(stack.gateway, id, token)).body.status).toBe('submitted');
    const cancelled = await http(stack.gateway, `/v1/staff/requests/${id}`, {
      method: 'PATCH',
      token: stack.staff,
      body: { status: 'cancelled' },
    });
    expect(cancelled).toMatchObject({ status: 200, body: { status: 'cancelled' } });
    expect(await message(stack.gateway, id, token, 'too late')).toMatchObject({
      status: 409,
      body: { code: 'request_closed', current_state: 'cancelled' },
    });
    expect((await read(stack.gateway, id, token)).body.status).toBe('cancelled');
  });

  it("learns another replica's changes from their events", async () => {
    const second = await stack.extraGateway();
    try {
      const { id, token } = await createRequest();
      // Held by the second replica: a read and the open status.
      expect((await read(second, id, token)).body.conversation).toEqual([]);
      expect((await message(second, id, token, 'from the second')).status).toBe(201);
      expect((await read(second, id, token)).body.conversation).toHaveLength(1);
      // Changes through the first replica reach the second's reads and checks by their events.
      expect((await message(stack.gateway, id, token, 'from the first')).status).toBe(201);
      await eventually(
        async () =>
          ((await read(second, id, token)).body.conversation as unknown[]).length === 2
            ? true
            : undefined,
        { timeoutMs: 30_000, what: "the second replica's read showing the first's message" },
      );
      const cancelled = await http(stack.gateway, `/v1/staff/requests/${id}`, {
        method: 'PATCH',
        token: stack.staff,
        body: { status: 'cancelled' },
      });
      expect(cancelled.status).toBe(200);
      await eventually(
        async () =>
          (await message(second, id, token, 'after the cancel')).status === 409 ? true : undefined,
        { timeoutMs: 30_000, what: 'the second replica refusing messages after the cancel' },
      );
    } finally {
      await second.stop();
    }
  });
});

describe('the request token check of writes', () => {
  it('looks a request up once, then answers 404 to other integrations and 403 to wrong tokens from what it keeps', async () => {
    const { id, token } = await createRequest();
    // Watch the projected lookups (a plain subscription beside intake's queue group).
    const watcher = await connect(natsOptions());
    const lookups: string[] = [];
    const watching = watcher.subscribe('handoff.intake.requests.authorize', {
      callback: (_error, msg) => {
        lookups.push(String((msg.json() as { request_id?: unknown }).request_id));
      },
    });
    await watcher.flush();
    try {
      const send = (key: string, requestToken: string, message: string) =>
        http(stack.gateway, `/v1/request/${id}/message`, {
          token: key,
          headers: { 'X-Service-Request-Token': requestToken },
          body: { message },
        });
      for (const text of ['One', 'Two', 'Three']) {
        expect((await send(agent.key, token, text)).status).toBe(201);
      }
      expect(await send(other.key, token, 'Not yours')).toMatchObject({
        status: 404,
        body: { code: 'request_not_found' },
      });
      expect(await send(agent.key, 'hrt_wrong', 'Wrong token')).toMatchObject({
        status: 403,
        body: { code: 'request_token_invalid' },
      });
      expect(
        await http(stack.gateway, '/v1/request/req_unknown/message', {
          token: agent.key,
          headers: { 'X-Service-Request-Token': token },
          body: { message: 'Nobody' },
        }),
      ).toMatchObject({ status: 404, body: { code: 'request_not_found' } });
      await watcher.flush();
      // Unknown ids are not kept; the replica that created a request knows its owner.
      expect(lookups.filter((lookup) => lookup === id)).toEqual([]);
      expect(lookups).toContain('req_unknown');
      const list = await http(stack.gateway, `/v1/request/${id}`, {
        token: agent.key,
        headers: { 'X-Service-Request-Token': token },
      });
      expect((list.body.conversation as { message: string }[]).map((m) => m.message)).toEqual([
        'One',
        'Two',
        'Three',
      ]);
    } finally {
      watching.unsubscribe();
      await watcher.close();
    }
  });
});

describe('payment requests', () => {
  it('checks amounts against the currency and refuses unknown currencies', async () => {
    const { id, token } = await createRequest();
    for (const [body, refusal] of [
      [
        { amount: 10.005, description: 'x' },
        { status: 422, body: { errors: [{ pointer: '/amount', code: 'invalid_precision' }] } },
      ],
      [{ amount: 100.5, currency: 'JPY', description: 'x' }, { status: 422 }],
      [
        { amount: 1, currency: 'XYZ', description: 'x' },
        { status: 422, body: { errors: [{ pointer: '/currency' }] } },
      ],
      [{ amount: 0, description: 'x' }, { body: { errors: [{ pointer: '/amount' }] } }],
    ] as const) {
      expect(await postAsCustomer(id, token, '/payment-request', body)).toMatchObject(refusal);
    }
  });
});

describe('staff decisions on requests', () => {
  it('moves a request along its state machine, refusing illegal moves with 409', async () => {
    const { id } = await createRequest();
    // Requests are routed only to providers that staff onboarded and that are active.
    const unknown = await http(stack.gateway, `/v1/staff/requests/${id}`, {
      method: 'PATCH',
      token: stack.staff,
      body: { status: 'routed', routing: { mode: 'direct', provider_ids: ['prv_unknown'] } },
    });
    expect(unknown).toMatchObject({
      status: 422,
      body: { code: 'validation_failed', errors: [{ pointer: '/routing/provider_ids/0' }] },
    });
    const provider = await http(stack.gateway, '/v1/staff/providers', {
      token: stack.staff,
      body: { name: 'Pat Plumber', email: 'pat@example.com', categories: ['home-services'] },
    });
    expect(provider.status).toBe(201);
    const routed = await http(stack.gateway, `/v1/staff/requests/${id}`, {
      method: 'PATCH',
      token: stack.staff,
      body: {
        status: 'routed',
        routing: { mode: 'direct', provider_ids: [String(provider.body.id)] },
      },
    });
    expect(routed).toMatchObject({ status: 200, body: { status: 'routed' } });
    const illegal = await http(stack.gateway, `/v1/staff/requests/${id}`, {
      method: 'PATCH',
      token: stack.staff,
      body: { status: 'completed' },
    });
    expect(illegal).toMatchObject({
      status: 409,
      body: {
        code: 'invalid_state_transition',
        allowed_actions: ['start', 'unroute', 'cancel', 'update', 'review_marketplace'],
      },
    });
    const review = await http(stack.gateway, `/v1/staff/requests/${id}/marketplace-review`, {
      token: stack.staff,
      body: { decision: 'rejected', reason: 'Direct routing' },
    });
    expect(review.body).toMatchObject({
      marketplace: { review: 'rejected', reason: 'Direct routing' },
    });
    const again = await http(stack.gateway, `/v1/staff/requests/${id}/marketplace-review`, {
      token: stack.staff,
      body: { decision: 'approved' },
    });
    expect(again.status).toBe(409);
  });
});

describe('events', () => {
  it('announces creation, messages, payment requests and updates with per-request sequences', async () => {
    // Without a category it waits for staff from the start: automatic routing adds no event of
    // its own, so the sequence is this test's calls alone.
    const { id, token } = await createRequest('/v1/ai-to-human-request', {
      ...customer,
      category: undefined,
    });
    await postAsCustomer(id, token, '/message', { message: 'hello' });
    const prq = await postAsCustomer(id, token, '/payment-request', {
      amount: 20,
      description: 'x',
    });
    await http(stack.gateway, `/v1/staff/payment-requests/${String(prq.body.id)}/approve`, {
      method: 'POST',
      token: stack.staff,
    });
    await http(stack.gateway, `/v1/staff/requests/${id}`, {
      method: 'PATCH',
      token: stack.staff,
      body: { status: 'cancelled' },
    });

    const nc = await connect({ ...natsOptions() });
    const consumer = await (
      await jetstreamManager(nc)
    )
      .jetstream()
      .consumers.get(EVENTS_STREAM.name);
    const events: EventEnvelope[] = [];
    // The stream is shared with the other test files on this server, some of which publish
    // forged or malformed messages on purpose: only this request's envelopes count. The bound is
    // generous for a busy machine; the loop ends as soon as the five are in.
    const deadline = Date.now() + 30_000;
    while (events.length < 5 && Date.now() < deadline) {
      const batch = await consumer.fetch({ max_messages: 1_000, expires: 1_000 });
      for await (const msg of batch) {
        let body: unknown = null;
        try {
          body = msg.json();
        } catch {
          // Not JSON at all: not one of ours.
        }
        const event = EventEnvelope.safeParse(body);
        if (event.success && event.data.data.request_id === id) events.push(event.data);
      }
    }
    await nc.close();
    events.sort((a, b) => a.data.sequence - b.data.sequence);
    expect(events.map((e) => `${e.data.sequence}:${e.type}`)).toEqual([
      '1:request.created',
      '2:message.created',
      '3:payment.requested',
      '4:payment.requested',
      '5:request.updated',
    ]);
    expect(new Set(events.map((e) => e.id)).size).toBe(5);
  });
});

describe('Idempotency-Key', () => {
  it('replays the stored answer, refuses another body under the same key, and stores no validation failure', async () => {
    const key = `create-${randomBytes(16).toString('hex')}`;
    const headers = { 'Idempotency-Key': key };
    const invalid = await http(stack.gateway, '/v1/ai-to-human-request', {
      token: agent.key,
      headers,
      body: { message: '' },
    });
    expect(invalid.status).toBe(422);
    const first = await http(stack.gateway, '/v1/ai-to-human-request', {
      token: agent.key,
      headers,
      body: customer,
    });
    expect(first.status).toBe(201);
    const replay = await http(stack.gateway, '/v1/ai-to-human-request', {
      token: agent.key,
      headers,
      body: customer,
    });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    const reused = await http(stack.gateway, '/v1/ai-to-human-request', {
      token: agent.key,
      headers,
      body: { ...customer, subject: 'Other' },
    });
    expect(reused).toMatchObject({ status: 422, body: { code: 'idempotency_key_reused' } });
    // Keys are kept per integration: another integration's identical key is its own.
    const elsewhere = await http(stack.gateway, '/v1/ai-to-human-request', {
      token: other.key,
      headers,
      body: customer,
    });
    expect(elsewhere.status).toBe(201);
    expect(elsewhere.body.id).not.toBe(first.body.id);
  });

  it('lets exactly one of several concurrent calls with one key run', async () => {
    const headers = { 'Idempotency-Key': `race-${randomBytes(16).toString('hex')}` };
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        http(stack.gateway, '/v1/ai-to-human-request', {
          token: agent.key,
          headers,
          body: customer,
        }),
      ),
    );
    const created = answers.filter((a) => a.status === 201);
    const ids = new Set(created.map((a) => a.body.id));
    expect(ids.size).toBe(1);
    for (const answer of answers.filter((a) => a.status !== 201)) {
      expect(answer).toMatchObject({ status: 409, body: { code: 'idempotency_key_in_use' } });
    }
    const header = await http(stack.gateway, '/v1/ai-to-human-request', {
      token: agent.key,
      headers: { 'Idempotency-Key': 'x'.repeat(256) },
      body: customer,
    });
    expect(header.status).toBe(422);
  });
});

describe('the audit log', () => {
  it('holds the staff decisions of every service, newest first, paged across them', async () => {
    const { id, token } = await createRequest();
    const prq = await postAsCustomer(id, token, '/payment-request', {
      amount: 1,
      description: 'x',
    });
    const rejected = await http(
      stack.gateway,
      `/v1/staff/payment-requests/${String(prq.body.id)}/reject`,
      { token: stack.staff, body: { reason: 'No' } },
    );
    const patched = await http(stack.gateway, `/v1/staff/requests/${id}`, {
      method: 'PATCH',
      token: stack.staff,
      body: { status: 'cancelled' },
    });
    const all = await http(stack.gateway, '/v1/staff/audit-log?limit=100', { token: stack.staff });
    const entries = all.body.data as {
      id: string;
      action: string;
      target_id: string;
      actor: string;
      call_id: string | null;
    }[];
    const ids = entries.map((e) => e.id);
    expect([...ids].sort().reverse()).toEqual(ids);
    const mine = entries
      .filter((e) => e.target_id === id || e.target_id === prq.body.id)
      .map((e) => e.action);
    expect(mine).toEqual(['request.updated', 'payment_request.rejected']);
    // Each entry names the staff call that made it by the call's Request-Id.
    const callIds = entries
      .filter((e) => e.target_id === id || e.target_id === prq.body.id)
      .map((e) => e.call_id);
    expect(callIds).toEqual([
      patched.headers.get('request-id'),
      rejected.headers.get('request-id'),
    ]);
    expect(callIds).toEqual([expect.any(String), expect.any(String)]);
    expect(entries.map((e) => e.action)).toEqual(
      expect.arrayContaining(['application.approved', 'payment_request.approved']),
    );
    // Paging through both services' logs two at a time visits every entry once.
    const seen: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await http(
        stack.gateway,
        `/v1/staff/audit-log?limit=2${cursor ? `&starting_after=${cursor}` : ''}`,
        { token: stack.staff },
      );
      const data = page.body.data as { id: string }[];
      seen.push(...data.map((e) => e.id));
      cursor = data.at(-1)?.id;
      if (!page.body.has_more || !cursor) break;
    }
    expect(seen).toEqual(ids);
  });

  it('still shows the call id of an entry stored before it was named call_id', async () => {
    // Entries written before the rename keep the call's Request-Id under `request_id`.
    const legacyId = newId('aud');
    await stack
      .backend('intake')
      .store.db.collection('intake_audit_log')
      .insertOne({
        _id: legacyId,
        actor: 'legacy@handoff.test',
        action: 'request.updated',
        target_type: 'request',
        target_id: 'req_legacy',
        at: new Date(),
        request_id: 'call-before-rename',
        before: null,
        after: null,
      } as never);
    const all = await http(stack.gateway, '/v1/staff/audit-log?limit=100', { token: stack.staff });
    const legacy = (all.body.data as Record<string, unknown>[]).find((e) => e.id === legacyId);
    expect(legacy).toMatchObject({ actor: 'legacy@handoff.test', call_id: 'call-before-rename' });
    expect(legacy).not.toHaveProperty('request_id');
  });
});
