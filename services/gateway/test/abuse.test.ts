import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { RunningGateway } from '../src/bootstrap.ts';
import { CONSOLE_CSP } from '../src/http/web-apps.ts';
import { BODY_LIMIT_BYTES } from '@handoff/contracts';
import { MCP_BODY_LIMIT_BYTES } from '@handoff/mcp';
import { eventually } from '@handoff/testkit';
import { STRIPE_WEBHOOK_LIMIT_BYTES } from '../src/routes/stripe.ts';
import { readEnv } from '../src/env.ts';
import { address, http, type Onboarded } from './support/http.ts';
import { bogusAgentKey, feedChunks, jsonPost, rawCall, requestHead } from './support/raw-http.ts';
import { CUSTOMER, useStack, type ProviderAccount } from './support/stack.ts';

/**
 * Abuse of the HTTP layer (OWASP API Top 10), each through a real gateway on a real socket, with
 * every backend service on the worker's real NATS and database.
 */

const stack = useStack('gw_abuse', {
  env: {
    'webhook-dispatcher': {
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_DELIVERIES_PAUSED: 'true',
    },
  },
});
let gateway: RunningGateway;
let agent: Onboarded;
let provider: ProviderAccount;
const AUTH_FAILURE_LIMIT = 5;

beforeAll(async () => {
  gateway = await stack.extraGateway({
    AUTH_FAILURE_LIMIT_PER_MINUTE: String(AUTH_FAILURE_LIMIT),
  });
  agent = await stack.agentOf(['requests:create', 'requests:read', 'webhooks:manage']);
  provider = await stack.providerOf();
});

const SECURITY_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

describe('API8: every answer is uncacheable and unsniffable', () => {
  it('sends no-store, nosniff, a closed CSP, no-referrer and DENY on successes, problems and probes', async () => {
    const answers = await Promise.all([
      http(gateway, '/v1/capabilities', { from: address() }),
      http(gateway, '/v1/openapi.json', { from: address() }),
      http(gateway, '/v1/services', { from: address() }),
      http(gateway, '/v1/me', { token: agent.key }),
      http(gateway, '/v1/me', { from: address() }),
      http(gateway, '/v1/nowhere', { from: address() }),
      http(gateway, '/v1/me', { method: 'DELETE', token: agent.key }),
      http(gateway, '/v1/ai-to-human-request', { token: agent.key, body: { message: 1 } }),
      http(gateway, '/healthz'),
      http(gateway, '/readyz'),
      http(gateway, '/v1/access-applications', {
        from: address(),
        body: {
          app_name: 'Cache probe',
          description: 'Checks that secrets are not cached.',
          contact_email: 'dev@acme.example',
          requested_scopes: ['requests:read'],
        },
      }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([
      200, 200, 200, 200, 401, 404, 405, 422, 200, 200, 201,
    ]);
    for (const answer of answers) {
      const seen = Object.fromEntries(
        Object.keys(SECURITY_HEADERS).map((name) => [name, answer.headers.get(name)]),
      );
      expect([answer.status, seen]).toEqual([answer.status, SECURITY_HEADERS]);
    }
  });

  it('keeps them on a 304 and on a replayed idempotent answer', async () => {
    const first = await http(gateway, '/v1/capabilities', { from: address() });
    const etag = first.headers.get('etag') ?? '';
    const notModified = await fetch(`${gateway.url}/v1/capabilities`, {
      headers: { 'If-None-Match': etag, 'X-Forwarded-For': address() },
    });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get('cache-control')).toBe('no-store');
    const key = randomBytes(16).toString('hex');
    const body = { ...CUSTOMER };
    const created = await http(gateway, '/v1/ai-to-human-request', {
      token: agent.key,
      body,
      headers: { 'Idempotency-Key': key },
    });
    const replayed = await http(gateway, '/v1/ai-to-human-request', {
      token: agent.key,
      body,
      headers: { 'Idempotency-Key': key },
    });
    expect([created.status, replayed.status]).toEqual([201, 201]);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.headers.get('cache-control')).toBe('no-store');
    expect(replayed.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('API9: the public readiness probe is no inventory', () => {
  it('says only ready or not; instances, versions and latencies are for staff', async () => {
    // Ready once every service's health reply came within READINESS_TIMEOUT_MS, which a loaded
    // machine can miss now and then: asked again until it is.
    const { res, text } = await eventually(
      async () => {
        const answer = await fetch(`${gateway.url}/readyz`);
        const body = await answer.text();
        return answer.status === 200 ? { res: answer, text: body } : undefined;
      },
      { timeoutMs: 60_000, what: '/readyz answering 200' },
    );
    expect(res.status).toBe(200);
    expect(JSON.parse(text)).toEqual({ status: 'ready' });
    for (const leak of ['instance', 'version', 'latency', 'intake', String(process.pid)]) {
      expect([leak, text.includes(leak)]).toEqual([leak, false]);
    }

    const anonymous = await http(gateway, '/v1/staff/health', { from: address() });
    const asAgent = await http(gateway, '/v1/staff/health', { token: agent.key, from: address() });
    expect([anonymous.status, asAgent.status]).toEqual([401, 401]);

    const staff = await http(gateway, '/v1/staff/health', { token: stack.staff });
    expect(staff.status).toBe(200);
    expect(staff.body).toMatchObject({
      status: 'ready',
      services: {
        intake: { status: 'up', instance: expect.any(String), version: expect.any(String) },
        'webhook-dispatcher': { status: 'up', latency_ms: expect.any(Number) },
      },
    });
  });
});

describe('API7: webhook URLs naming a cloud metadata service', () => {
  const metadataUrls = [
    'http://metadata.google.internal/computeMetadata/v1/',
    'https://metadata.google.internal/computeMetadata/v1/instance/service-accounts/default/token',
    'http://METADATA.Google.Internal./computeMetadata/v1/',
    'http://metadata/computeMetadata/v1/',
    'http://metadata.goog:80/',
    'http://instance-data/latest/meta-data/',
    'http://instance-data.ec2.internal/latest/meta-data/',
    'https://metadata.packet.net/metadata',
    'http://metadata.tencentyun.com/latest/meta-data/',
  ];

  it('are refused at registration with 422 and a pointer to /url, even where private targets are allowed', async () => {
    for (const url of metadataUrls) {
      const refused = await http(gateway, '/v1/webhook-endpoints', {
        token: agent.key,
        body: { url },
      });
      expect([url, refused.status, refused.body.code]).toEqual([url, 422, 'validation_failed']);
      expect(refused.body.errors).toEqual([
        expect.objectContaining({
          pointer: '/url',
          code: 'url_not_allowed',
          detail: expect.stringMatching(/metadata service/),
        }),
      ]);
    }
  });

  it('cannot be swapped in for an endpoint registered with a harmless URL', async () => {
    const created = await http(gateway, '/v1/webhook-endpoints', {
      token: agent.key,
      body: { url: 'https://hooks.example.com/handoff' },
    });
    expect(created.status).toBe(201);
    const moved = await http(gateway, `/v1/webhook-endpoints/${String(created.body.id)}`, {
      method: 'PATCH',
      token: agent.key,
      body: { url: 'http://metadata.google.internal/computeMetadata/v1/' },
    });
    expect(moved).toMatchObject({
      status: 422,
      body: { errors: [{ pointer: '/url', code: 'url_not_allowed' }] },
    });
  });
});

describe('API4: the body limit holds before the body is read', () => {
  const HUGE = 100 * 1024 * 1024;
  const bodyRoutes = (): { path: string; headers: Record<string, string>; limit: number }[] => [
    {
      path: '/v1/ai-to-human-request',
      headers: { Authorization: `Bearer ${agent.key}` },
      limit: BODY_LIMIT_BYTES,
    },
    { path: '/v1/access-applications', headers: {}, limit: BODY_LIMIT_BYTES },
    {
      path: '/v1/webhooks/stripe',
      headers: { 'Stripe-Signature': 't=1,v1=00' },
      limit: STRIPE_WEBHOOK_LIMIT_BYTES,
    },
    // MCP over Streamable HTTP reads its JSON-RPC body itself, under the API's limit and room
    // for one upload_file call's base64 content (packages/mcp/src/limits.ts).
    {
      path: '/mcp',
      limit: MCP_BODY_LIMIT_BYTES,
      headers: {
        Authorization: `Bearer ${agent.key}`,
        Accept: 'application/json, text/event-stream',
      },
    },
  ];

  it('answers a declared Content-Length over the limit with 413 at once, and closes', async () => {
    for (const route of bodyRoutes()) {
      const answer = await rawCall(
        gateway,
        jsonPost(route.path, { ...route.headers, 'Content-Length': String(HUGE) }),
        async (socket) => {
          // 12 bytes of the promised 100 MiB, then nothing.
          socket.write('{"a":"123456');
        },
      );
      expect([route.path, answer.status, answer.headers['content-type']]).toEqual([
        route.path,
        413,
        'application/problem+json; charset=utf-8',
      ]);
      expect([route.path, JSON.parse(answer.body)]).toEqual([
        route.path,
        expect.objectContaining({
          type: '/docs/errors/payload_too_large',
          code: 'payload_too_large',
          status: 413,
          detail: `The body is over ${route.limit} bytes.`,
        }),
      ]);
      expect(answer.headers.connection).toBe('close');
      expect(answer.closed).toBe(true);
    }
  });

  it('answers Expect: 100-continue with the refusal, not with an invitation to send the body', async () => {
    for (const [path, headers, status] of [
      ['/mcp', { Authorization: `Bearer ${agent.key}`, 'Content-Length': String(HUGE) }, 413],
      [
        '/v1/ai-to-human-request',
        { Authorization: `Bearer ${agent.key}`, 'Content-Length': String(HUGE) },
        413,
      ],
      ['/mcp', { 'Content-Length': '100' }, 401],
      ['/v1/ai-to-human-request', { 'Content-Length': '100' }, 401],
      [
        '/v1/ai-to-human-request',
        {
          Authorization: `Bearer ${agent.key}`,
          'Content-Length': '100',
          'Content-Type': 'text/plain',
        },
        415,
      ],
    ] as const) {
      const answer = await rawCall(gateway, jsonPost(path, { ...headers, Expect: '100-continue' }));
      expect([path, answer.status]).toEqual([path, status]);
    }
  });

  it('invites the body with 100 Continue once the checks before it pass', async () => {
    const body = JSON.stringify(CUSTOMER);
    const socket = connect(gateway.port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      if (received === 'HTTP/1.1 100 Continue\r\n\r\n') socket.write(body);
    });
    socket.write(
      `${jsonPost('/v1/ai-to-human-request', {
        Authorization: `Bearer ${agent.key}`,
        'Content-Length': String(Buffer.byteLength(body)),
        Expect: '100-continue',
        Connection: 'close',
      })}\r\n\r\n`,
    );
    await new Promise((resolve) => socket.once('close', resolve));
    expect(received).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 201 Created\r\n/);
  });

  it('stops reading an endless body that an early refusal (401) left unread, and closes', async () => {
    const answer = await rawCall(
      gateway,
      jsonPost('/v1/ai-to-human-request', { 'Transfer-Encoding': 'chunked' }),
      (socket, done) => feedChunks(socket, done, HUGE),
    );
    expect(answer.status).toBe(401);
    expect(answer.headers.connection).toBe('close');
    expect(answer.closed).toBe(true);
    expect(answer.sent).toBeLessThan(HUGE / 4);
  });

  it('cuts a chunked body off at the limit with 413, stops reading and closes', async () => {
    for (const route of bodyRoutes()) {
      const answer = await rawCall(
        gateway,
        jsonPost(route.path, { ...route.headers, 'Transfer-Encoding': 'chunked' }),
        async (socket, done) => {
          socket.write('6\r\n{"a":"\r\n');
          await feedChunks(socket, done, HUGE);
        },
      );
      expect([route.path, answer.status]).toEqual([route.path, 413]);
      expect(JSON.parse(answer.body)).toMatchObject({
        type: '/docs/errors/payload_too_large',
        code: 'payload_too_large',
      });
      expect(answer.closed).toBe(true);
      // The server stopped reading soon after the limit: far less than the 100 MiB went out.
      expect(answer.sent).toBeLessThan(HUGE / 4);
    }
  });
});

describe('compressed and encoded bodies', () => {
  const post = (body: Buffer, headers: Record<string, string>) =>
    fetch(`${gateway.url}/v1/access-applications`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': address(), ...headers },
      body,
    });

  it('stops inflating a gzip bomb at the limit with 413', async () => {
    // 10 KiB on the wire, 16 MiB once inflated.
    const bomb = gzipSync(
      Buffer.concat([Buffer.from('{"a":"'), Buffer.alloc(16 * 1024 * 1024, 'a')]),
    );
    expect(bomb.length).toBeLessThan(64 * 1024);
    const res = await post(bomb, { 'Content-Encoding': 'gzip' });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: 'payload_too_large' });
  });

  it('still reads a small gzip body, and refuses unknown encodings and charsets with 415', async () => {
    const application = JSON.stringify({
      app_name: 'Gzip client',
      description: 'Sends compressed bodies.',
      contact_email: 'dev@acme.example',
      requested_scopes: ['requests:read'],
    });
    expect((await post(gzipSync(application), { 'Content-Encoding': 'gzip' })).status).toBe(201);
    const unknown = await post(Buffer.from(application), { 'Content-Encoding': 'zip-zap' });
    expect(unknown.status).toBe(415);
    const latin1 = await post(Buffer.from(application), {
      'Content-Type': 'application/json; charset=iso-8859-1',
    });
    expect(latin1.status).toBe(415);
    const broken = await post(Buffer.from('not gzip at all'), { 'Content-Encoding': 'gzip' });
    expect(broken.status).toBe(400);
  });
});

describe('API2: the authentication-failure brake cannot be aimed at someone else', () => {
  /** An application of its own, with its secret, to call the applicant routes with. */
  async function application() {
    const submitted = await http(gateway, '/v1/access-applications', {
      from: address(),
      body: {
        app_name: 'Lockout probe',
        description: 'Shares an address with an attacker.',
        contact_email: 'dev@acme.example',
        requested_scopes: ['requests:read'],
      },
    });
    expect(submitted.status).toBe(201);
    return { id: String(submitted.body.id), secret: String(submitted.body.application_secret) };
  }

  it('refuses an address spraying invalid keys, yet lets every valid credential from it through', async () => {
    const applicant = await application();
    const from = address();
    const sprayed: number[] = [];
    for (let i = 0; i < 15; i += 1) {
      sprayed.push((await http(gateway, '/v1/me', { token: bogusAgentKey(), from })).status);
    }
    expect(sprayed).toEqual([
      ...Array<number>(AUTH_FAILURE_LIMIT).fill(401),
      ...Array<number>(15 - AUTH_FAILURE_LIMIT).fill(429),
    ]);

    // The same address, valid credentials of every kind, and public routes.
    const valid = await Promise.all([
      http(gateway, '/v1/me', { token: agent.key, from }),
      http(gateway, '/v1/provider/me', { token: provider.key, from }),
      http(gateway, '/v1/staff/health', { token: stack.staff, from }),
      http(gateway, '/v1/capabilities', { from }),
      http(gateway, `/v1/access-applications/${applicant.id}`, {
        from,
        headers: { 'X-Application-Secret': applicant.secret },
      }),
    ]);
    expect(valid.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);

    // Failed attempts of every kind from that address are still refused.
    const failed = await Promise.all([
      http(gateway, '/v1/me', { token: bogusAgentKey(), from }),
      http(gateway, '/v1/me', { from }),
      http(gateway, '/v1/provider/me', { token: `hpk_live_${'b'.repeat(36)}`, from }),
      http(gateway, '/v1/staff/health', { token: 'not.a.jwt', from }),
      http(gateway, `/v1/access-applications/${applicant.id}`, {
        from,
        headers: { 'X-Application-Secret': `happ_${'c'.repeat(40)}` },
      }),
    ]);
    expect(failed.map((answer) => answer.status)).toEqual([429, 429, 429, 429, 429]);
    for (const answer of failed) {
      expect(answer.body).toMatchObject({ code: 'rate_limited' });
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it('refuses failures with a key prefix sprayed from many addresses, but never that key', async () => {
    const victim = await stack.agentOf(['requests:read']);
    const prefix = victim.key.slice(0, 'hk_live_'.length + 4);
    const sprayed: number[] = [];
    for (let i = 0; i < AUTH_FAILURE_LIMIT + 3; i += 1) {
      const guess = `${prefix}${randomBytes(24).toString('hex').slice(0, 32)}`;
      sprayed.push((await http(gateway, '/v1/me', { token: guess, from: address() })).status);
    }
    expect(sprayed.slice(0, AUTH_FAILURE_LIMIT)).toEqual(
      Array<number>(AUTH_FAILURE_LIMIT).fill(401),
    );
    expect(sprayed.slice(AUTH_FAILURE_LIMIT)).toEqual([429, 429, 429]);
    expect((await http(gateway, '/v1/me', { token: victim.key, from: address() })).status).toBe(
      200,
    );
  });

  it('counts the address the load balancer saw, not one the client wrote into X-Forwarded-For', async () => {
    // The client forges a fresh first entry each time; the proxy appends the real address.
    const real = address();
    const statuses: number[] = [];
    for (let i = 0; i < AUTH_FAILURE_LIMIT + 2; i += 1) {
      const from = `${address()}, ${real}`;
      statuses.push((await http(gateway, '/v1/me', { token: bogusAgentKey(), from })).status);
    }
    expect(statuses.slice(AUTH_FAILURE_LIMIT)).toEqual([429, 429]);
  });

  it('reads TRUST_PROXY as one hop for true, a hop count, or a list of proxies', () => {
    const parsed = (value: string) =>
      readEnv({ NATS_URL: 'nats://127.0.0.1:4222', TRUST_PROXY: value }).TRUST_PROXY;
    expect(['true', 'yes', 'false', '0', '2', '10.0.0.0/8, loopback'].map(parsed)).toEqual([
      1,
      1,
      false,
      false,
      2,
      ['10.0.0.0/8', 'loopback'],
    ]);
  });

  it('is published in /v1/capabilities', async () => {
    const caps = await http(gateway, '/v1/capabilities', { from: address() });
    expect(caps.body.rate_limits).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          name: 'auth_failures',
          limit: AUTH_FAILURE_LIMIT,
          applies_to: expect.stringMatching(/never refused/),
        }),
        expect.objectContaining({ name: 'auth_failures_prefix', limit: AUTH_FAILURE_LIMIT }),
      ]),
    );
  });
});

describe('further abuse of the HTTP layer', () => {
  const json = (body: string, headers: Record<string, string> = {}) =>
    fetch(`${gateway.url}/v1/ai-to-human-request`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${agent.key}`,
        'Content-Type': 'application/json',
        'X-Forwarded-For': address(),
        ...headers,
      },
      body,
    });

  it('answers JSON nested 30,000 deep with a problem, and keeps serving', async () => {
    const depth = 30_000;
    for (const body of [
      `${'['.repeat(depth)}${']'.repeat(depth)}`,
      `{"message":${'{"a":'.repeat(depth / 6)}1${'}'.repeat(depth / 6)}}`,
    ]) {
      const res = await json(body);
      expect([400, 422]).toContain(res.status);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    }
    expect((await http(gateway, '/v1/me', { token: agent.key })).status).toBe(200);
    const caps = await http(gateway, '/v1/capabilities', { from: address() });
    expect(caps.body).toMatchObject({ limits: { json_depth_max: 32 } });
  });

  it('refuses duplicate member names, which parsers read differently (I-JSON, RFC 7493)', async () => {
    const body = JSON.stringify(CUSTOMER).replace(
      '"budget_max":500',
      '"budget_max":500,"budget_max":1000000000',
    );
    const res = await json(body);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'invalid_json' });
    const escaped = await json('{"message":"a","\\u006dessage":"b"}');
    expect(escaped.status).toBe(400);
    // The same name in two different objects is fine.
    const nested = await json('{"a":{"x":1},"b":{"x":1}}');
    expect(nested.status).toBe(422);
  });

  it('reports prototype-pollution keys as unknown fields and pollutes nothing', async () => {
    for (const key of ['__proto__', 'constructor', 'prototype']) {
      const res = await json(
        JSON.stringify({ ...CUSTOMER }).replace('{', `{"${key}":{"polluted":true},`),
      );
      expect([key, res.status]).toEqual([key, 422]);
      const body = (await res.json()) as { errors: { pointer: string; code: string }[] };
      expect(body.errors).toEqual([
        { pointer: `/${key}`, code: 'unknown_field', detail: expect.any(String) },
      ]);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('answers ids with NUL, control characters, odd Unicode or bad escapes with 4xx, never 500', async () => {
    const ids = [
      'req_%00',
      'req_abc%00def',
      '%0d%0aSet-Cookie:%20x=1',
      '%F0%9F%92%A9',
      '%EF%BF%BF',
      '%ED%A0%80',
      `req_${'a'.repeat(300)}`,
      '%E0%A4%A',
      '..%2F..%2Fhealthz',
    ];
    for (const id of ids) {
      const res = await fetch(`${gateway.url}/v1/request/${id}`, {
        headers: {
          Authorization: `Bearer ${agent.key}`,
          'X-Service-Request-Token': `hrt_${'a'.repeat(40)}`,
        },
      });
      expect([id, res.status < 500, res.headers.get('content-type')]).toEqual([
        id,
        true,
        expect.stringMatching(/^application\/problem\+json/),
      ]);
    }
  });

  it('lists at most 50 problems, so thousands of unknown fields do not multiply the answer', async () => {
    const fields = Object.fromEntries(Array.from({ length: 6_500 }, (_, i) => [`f${i}`, 0]));
    const body = JSON.stringify(fields);
    expect(body.length).toBeLessThan(64 * 1024);
    const res = await json(body);
    const text = await res.text();
    expect(res.status).toBe(422);
    const problem = JSON.parse(text) as { detail: string; errors: unknown[] };
    expect(problem.errors).toHaveLength(50);
    expect(problem.detail).toMatch(/\d{4} problems, the first 50 listed/);
    expect(text.length).toBeLessThan(body.length);
  });

  it('refuses fields a caller may not set (mass assignment) with 422 unknown_field', async () => {
    const res = await json(
      JSON.stringify({
        ...CUSTOMER,
        status: 'completed',
        integration_id: 'int_someone_else',
        request_token: 'hrt_mine',
      }),
    );
    expect(res.status).toBe(422);
    const body = (await res.json()) as { errors: { pointer: string; code: string }[] };
    expect(body.errors.map((error) => [error.pointer, error.code]).sort()).toEqual([
      ['/integration_id', 'unknown_field'],
      ['/request_token', 'unknown_field'],
      ['/status', 'unknown_field'],
    ]);
  });

  it('answers odd header values as documented, never with a 500 or an echoed value', async () => {
    const cases: [Record<string, string>, number][] = [
      [{ 'Idempotency-Key': 'k'.repeat(256) }, 422],
      [{ 'Idempotency-Key': ' ' }, 422],
      [{ Authorization: `Bearer ${'x'.repeat(8_000)}` }, 401],
      [{ Authorization: 'Basic dXNlcjpwYXNz' }, 401],
      [{ Authorization: `Bearer ${agent.key} ${agent.key}` }, 401],
      [{ 'Request-Id': '<script>alert(1)</script>' }, 201],
    ];
    for (const [headers, status] of cases) {
      const res = await json(JSON.stringify(CUSTOMER), headers);
      expect([headers, res.status]).toEqual([headers, status]);
      expect(res.headers.get('request-id')).toMatch(/^[A-Za-z0-9._:-]+$/);
    }
  });

  it('refuses NUL in body text with 422 and a pointer, instead of a 500 from the store', async () => {
    const res = await json(JSON.stringify({ ...CUSTOMER, name: 'Ada\u0000Lovelace' }));
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({
      errors: [{ pointer: '/name', code: 'invalid_characters' }],
    });
  });

  it('refuses a query string or header block over the header limit with 431, and closes', async () => {
    const longQuery = await rawCall(
      gateway,
      requestHead('GET', `/v1/capabilities?q=${'a'.repeat(64 * 1024)}`, {}),
    );
    expect(longQuery.status).toBe(431);
    expect(longQuery.closed).toBe(true);
    const manyHeaders: Record<string, string> = {};
    for (let i = 0; i < 5_000; i += 1) manyHeaders[`X-H${i}`] = 'v';
    const headers = await rawCall(gateway, requestHead('GET', '/v1/capabilities', manyHeaders));
    expect(headers.status).toBe(431);
    expect(headers.closed).toBe(true);
  });

  it('answers repeated and nested query parameters with 422, never 500', async () => {
    for (const query of ['limit=1&limit=2', 'limit[a]=1', 'starting_after=%00', 'limit=1e308']) {
      const res = await http(gateway, `/v1/webhook-endpoints?${query}`, { token: agent.key });
      expect([query, res.status]).toEqual([query, 422]);
    }
  });

  it('writes an unknown name holding NUL or control characters escaped in its detail', async () => {
    const res = await http(gateway, '/v1/webhook-endpoints?%1D%00x%C3%BA=1', { token: agent.key });
    expect(res.status).toBe(422);
    const { errors } = res.body as { errors: { pointer: string; detail: string }[] };
    expect(errors).toEqual([
      {
        pointer: '/query/\u001d\u0000xú',
        code: 'unknown_field',
        detail: 'Unknown field "\\u001d\\u0000xú".',
      },
    ]);
  });

  it('refuses a request with both Content-Length and Transfer-Encoding (smuggling)', async () => {
    const answer = await rawCall(
      gateway,
      jsonPost('/v1/access-applications', {
        'Content-Length': '4',
        'Transfer-Encoding': 'chunked',
      }),
      async (socket) => {
        socket.write('0\r\n\r\nGET /v1/me HTTP/1.1\r\nHost: x\r\n\r\n');
      },
    );
    expect(answer.status).toBe(400);
    expect(answer.closed).toBe(true);
  });
});

describe('slow clients (slowloris)', () => {
  let slow: RunningGateway;

  beforeAll(async () => {
    slow = await stack.extraGateway({
      HTTP_HEADERS_TIMEOUT_MS: '1000',
      HTTP_REQUEST_TIMEOUT_MS: '2000',
    });
  });

  it('closes a connection whose headers never end, with 408', async () => {
    const answer = await rawCall(
      slow,
      'GET /v1/capabilities HTTP/1.1\r\nHost: x\r\nX-Slow: 1',
      async (socket, done) => {
        // One more header line now and then, never the blank line that ends them.
        for (let i = 0; i < 100 && !done(); i += 1) {
          await new Promise((resolve) => setTimeout(resolve, 200));
          if (!done()) socket.write(`\r\nX-Slow-${i}: 1`);
        }
      },
      false,
    );
    expect(answer.status).toBe(408);
    expect(answer.closed).toBe(true);
  });

  it('closes a connection whose body trickles in slower than the request timeout, with 408', async () => {
    const answer = await rawCall(
      slow,
      jsonPost('/v1/access-applications', {
        'Content-Length': '1000',
      }),
      async (socket, done) => {
        for (let i = 0; i < 100 && !done(); i += 1) {
          socket.write(' ');
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      },
    );
    expect(answer.status).toBe(408);
    expect(answer.closed).toBe(true);
  });

  describe('an upload, which may take longer than the request timeout while bytes keep coming', () => {
    let uploader: Onboarded;
    beforeAll(async () => {
      uploader = await stack.agentOf(['requests:create', 'messages:create']);
    });

    const uploadHead = async () => {
      const request = await stack.requestOf(uploader);
      return (
        `POST /v1/request/${request.id}/files?filename=slow.txt HTTP/1.1\r\nHost: x\r\n` +
        `Authorization: Bearer ${uploader.key}\r\nX-Service-Request-Token: ${request.token}\r\n` +
        'Content-Type: text/plain\r\nTransfer-Encoding: chunked\r\nConnection: close'
      );
    };
    const chunk = (text: string) => `${text.length.toString(16)}\r\n${text}\r\n`;

    it('takes an upload that keeps sending for longer than the request timeout', async () => {
      const answer = await rawCall(slow, await uploadHead(), async (socket, done) => {
        // 3 s in all, a piece every 250 ms: never silent for the 2 s of the timeout.
        for (let i = 0; i < 12 && !done(); i += 1) {
          socket.write(chunk('still coming\n'));
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
        socket.write('0\r\n\r\n');
      });
      expect(answer.status).toBe(201);
      expect(JSON.parse(answer.body)).toMatchObject({ object: 'file', size: 12 * 13 });
    });

    it('closes an upload that stalls for the request timeout, with 408', async () => {
      const answer = await rawCall(slow, await uploadHead(), async (socket) => {
        socket.write(chunk('a start, then nothing\n'));
      });
      expect(answer.status).toBe(408);
      expect(answer.closed).toBe(true);
    });
  });
});

describe('the staff console route (/console)', () => {
  let build: string;
  let built: RunningGateway;
  let unbuilt: RunningGateway;

  beforeAll(async () => {
    // A stand-in for `npm run build -w @handoff/console`: the gateway serves whatever is there.
    build = mkdtempSync(join(tmpdir(), 'handoff-console-'));
    mkdirSync(join(build, 'assets'));
    writeFileSync(join(build, 'index.html'), '<!doctype html><title>console</title>');
    writeFileSync(join(build, 'assets', 'index-abc123.js'), 'export {};');
    writeFileSync(join(build, 'secret.txt'), 'not served');
    built = await stack.extraGateway({ CONSOLE_DIR: build });
    unbuilt = await stack.extraGateway({ CONSOLE_DIR: join(build, 'missing') });
  });

  afterAll(() => {
    rmSync(build, { recursive: true, force: true });
  });

  const get = (gw: RunningGateway, path: string, method = 'GET') =>
    fetch(`${gw.url}${path}`, { method, headers: { 'X-Forwarded-For': address() } });

  it("serves index.html at /console and /console/ with the console's CSP, never cached stale", async () => {
    for (const path of ['/console', '/console/']) {
      const res = await get(built, path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('content-security-policy')).toBe(CONSOLE_CSP);
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await res.text()).toContain('<title>console</title>');
    }
    expect(CONSOLE_CSP).toContain("script-src 'self'");
    expect(CONSOLE_CSP).toContain("connect-src 'self'");
    expect(CONSOLE_CSP).not.toMatch(/unsafe-inline|unsafe-eval/);
  });

  it('serves fingerprinted assets for a year, and nothing else of the build', async () => {
    const asset = await get(built, '/console/assets/index-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    for (const path of [
      '/console/assets/missing.js',
      '/console/secret.txt',
      '/console/assets/../secret.txt',
      '/console/assets/%2e%2e/secret.txt',
      '/console/elsewhere',
    ]) {
      const res = await get(built, path);
      expect([path, res.status]).toEqual([path, 404]);
      expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    }
    const post = await get(built, '/console', 'POST');
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('answers 503 with a problem when the console is not built, and the API still works', async () => {
    const res = await get(unbuilt, '/console');
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    expect(await res.json()).toMatchObject({
      status: 503,
      code: 'console_not_built',
      detail: expect.stringContaining('npm run build -w @handoff/console'),
    });
    expect((await get(unbuilt, '/console/assets/index-abc123.js')).status).toBe(503);
    expect((await get(unbuilt, '/healthz')).status).toBe(200);
  });
});
