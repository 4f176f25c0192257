import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { generateApiKey } from '@handoff/runtime';
import { createLogger } from '@handoff/observability';
import { eventually } from '@handoff/testkit';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import type { RunningGateway } from '../src/bootstrap.ts';
import { address, http } from './support/http.ts';
import { useStack } from './support/stack.ts';
import {
  createSigningKey,
  signStaffToken,
  startJwksServer,
  type JwksServer,
  type SignStaffTokenOptions,
} from './support/staff-tokens.ts';

const AUDIENCE = 'handoff-staff';
const logs: string[] = [];
const capture = (service: string) =>
  createLogger({
    service,
    version: 'test',
    level: 'debug',
    destination: new Writable({
      write(chunk: Buffer, _encoding, done) {
        logs.push(chunk.toString('utf8'));
        done();
      },
    }),
  });

// The audit log merges every audited service's page: intake, payments, milestones and the
// webhook dispatcher.
const stack = useStack('gw_access', {
  services: ['payments', 'webhook-dispatcher', 'milestones', 'intake'],
  staffAudience: AUDIENCE,
  loggers: { intake: capture('intake'), gateway: capture('gateway-a') },
});
let a: RunningGateway;
let b: RunningGateway;
let strict: RunningGateway;
let jwksGateway: RunningGateway;
let jwks: JwksServer;
let jwksKey: Awaited<ReturnType<typeof createSigningKey>>;
const issuedSecrets: string[] = [];

beforeAll(async () => {
  a = stack.gateway;
  b = await stack.extraGateway({}, capture('gateway-b'));
  strict = await stack.extraGateway(
    { RATE_LIMIT_PER_MINUTE: '5', AUTH_FAILURE_LIMIT_PER_MINUTE: '3' },
    capture('gateway-strict'),
  );
  jwksKey = await createSigningKey('ES256', 'staff-key-1');
  jwks = await startJwksServer([jwksKey.publicJwk]);
  jwksGateway = await stack.extraGateway(
    { STAFF_JWT_SECRET: undefined, STAFF_JWKS_URL: jwks.url },
    capture('gateway-jwks'),
  );
});

afterAll(async () => {
  await jwks?.close();
});

const staffToken = (claims: SignStaffTokenOptions = {}, secret = stack.secret) =>
  signStaffToken(secret, { sub: 'ops@handoff.test', audience: AUDIENCE, ...claims });

const application = {
  app_name: 'Acme Concierge',
  description: 'Hands travel requests to humans.',
  contact_email: 'dev@acme.example',
  requested_scopes: ['requests:create', 'requests:read'],
};

/** An agent onboarded over HTTP; its secrets are kept for the check that none is stored or logged. */
async function onboard(scopes: string[] = ['requests:create', 'requests:read']) {
  const agent = await stack.agentOf(scopes);
  issuedSecrets.push(agent.applicationSecret, agent.key);
  return agent;
}

describe('from application to the first authenticated call, over HTTP only', () => {
  it('walks every row of the access table', async () => {
    const from = address();
    const submitted = await http(a, '/v1/access-applications', { body: application, from });
    expect(submitted.status).toBe(201);
    expect(submitted.body).toMatchObject({ status: 'submitted', object: 'access_application' });
    const id = String(submitted.body.id);
    const secret = String(submitted.body.application_secret);
    issuedSecrets.push(secret);

    const status = await http(a, `/v1/access-applications/${id}`, {
      headers: { 'X-Application-Secret': secret },
      from,
    });
    expect(status.status).toBe(200);
    expect(status.body).not.toHaveProperty('application_secret');
    expect((await http(a, `/v1/access-applications/${id}`, { from })).body).toMatchObject({
      code: 'application_secret_missing',
    });
    const wrong = await http(a, `/v1/access-applications/${id}`, {
      headers: { 'X-Application-Secret': `happ_${'x'.repeat(40)}` },
      from,
    });
    expect(wrong).toMatchObject({ status: 404, body: { code: 'application_not_found' } });

    const staff = await staffToken();
    const listed = await http(a, '/v1/staff/access-applications?status=submitted&limit=100', {
      token: staff,
    });
    expect(listed.status).toBe(200);
    expect((listed.body.data as { id: string }[]).map((x) => x.id)).toContain(id);

    const early = await http(a, `/v1/access-applications/${id}/api-key`, {
      method: 'POST',
      headers: { 'X-Application-Secret': secret },
      from,
    });
    expect(early).toMatchObject({
      status: 409,
      body: { code: 'invalid_state_transition', current_state: 'submitted' },
    });

    const unknownScope = await http(a, `/v1/staff/access-applications/${id}/approve`, {
      token: staff,
      body: { scopes: ['requests:create', 'admin:everything'] },
    });
    expect(unknownScope.status).toBe(422);
    expect(unknownScope.body).toMatchObject({
      code: 'validation_failed',
      errors: [{ pointer: '/scopes/1' }],
    });

    const approved = await http(a, `/v1/staff/access-applications/${id}/approve`, {
      token: staff,
      body: { scopes: ['requests:create'] },
    });
    expect(approved).toMatchObject({
      status: 200,
      body: {
        status: 'approved',
        granted_scopes: ['requests:create'],
        decided_by: 'ops@handoff.test',
      },
    });

    const claimed = await http(a, `/v1/access-applications/${id}/api-key`, {
      method: 'POST',
      headers: { 'X-Application-Secret': secret },
      from,
    });
    expect(claimed.status).toBe(201);
    const key = String(claimed.body.api_key);
    issuedSecrets.push(key);
    expect(key).toMatch(/^hk_live_[0-9A-Za-z]{36}$/);
    expect(claimed.body).toMatchObject({
      scopes: ['requests:create'],
      expires_at: expect.any(String),
    });
    const again = await http(a, `/v1/access-applications/${id}/api-key`, {
      method: 'POST',
      headers: { 'X-Application-Secret': secret },
      from,
    });
    expect(again).toMatchObject({ status: 409, body: { code: 'invalid_state_transition' } });

    const me = await http(a, '/v1/me', { token: key });
    expect(me).toMatchObject({
      status: 200,
      body: { integration_id: approved.body.integration_id, scopes: ['requests:create'] },
    });
    expect(me.headers.get('ratelimit-policy')).toMatch(/^"key";q=\d+;w=60$/);
    expect(me.headers.get('ratelimit')).toMatch(/^"key";r=\d+;t=\d+$/);

    const integration = await http(
      a,
      `/v1/staff/integrations/${String(approved.body.integration_id)}`,
      { token: staff },
    );
    expect(integration.status).toBe(200);
    const keys = integration.body.keys as { prefix: string; last4: string }[];
    expect(keys).toEqual([
      expect.objectContaining({ prefix: key.slice(0, 12), last4: key.slice(-4), status: 'active' }),
    ]);
    expect(JSON.stringify(integration.body)).not.toContain(key);
  });

  it('refuses a claim after rejection', async () => {
    const from = address();
    const submitted = await http(a, '/v1/access-applications', { body: application, from });
    issuedSecrets.push(String(submitted.body.application_secret));
    const staff = await staffToken();
    const rejected = await http(
      a,
      `/v1/staff/access-applications/${String(submitted.body.id)}/reject`,
      {
        token: staff,
        body: { reason: 'Not a fit for the marketplace.' },
      },
    );
    expect(rejected).toMatchObject({
      status: 200,
      body: { status: 'rejected', rejection_reason: 'Not a fit for the marketplace.' },
    });
    const claim = await http(a, `/v1/access-applications/${String(submitted.body.id)}/api-key`, {
      method: 'POST',
      headers: { 'X-Application-Secret': String(submitted.body.application_secret) },
      from,
    });
    expect(claim).toMatchObject({
      status: 409,
      body: {
        code: 'invalid_state_transition',
        current_state: 'rejected',
        action: 'claim_key',
        allowed_actions: [],
      },
    });
    const status = await http(a, `/v1/access-applications/${String(submitted.body.id)}`, {
      headers: { 'X-Application-Secret': String(submitted.body.application_secret) },
      from,
    });
    expect(status.body).toMatchObject({
      status: 'rejected',
      rejection_reason: 'Not a fit for the marketplace.',
    });
  });

  it('refuses unknown body fields and bad JSON with the documented errors', async () => {
    const from = address();
    const typo = await http(a, '/v1/access-applications', {
      body: { ...application, contact_emial: 'x' },
      from,
    });
    expect(typo.body).toMatchObject({
      code: 'validation_failed',
      errors: [{ pointer: '/contact_emial', code: 'unknown_field' }],
    });
    const res = await fetch(`${a.url}/v1/access-applications`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': from },
      body: '{"app_name":',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'invalid_json' });
    const text = await fetch(`${a.url}/v1/access-applications`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain', 'X-Forwarded-For': from },
      body: 'hello',
    });
    expect(text.status).toBe(415);
  });
});

describe('agent keys', () => {
  it('answers a missing, malformed, unknown and revoked key with the documented 401s', async () => {
    const missing = await http(a, '/v1/me', { from: address() });
    expect(missing).toMatchObject({ status: 401, body: { code: 'api_key_missing' } });
    expect(missing.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await http(a, '/v1/me', { token: 'not-a-key', from: address() })).body).toMatchObject({
      code: 'api_key_invalid',
    });
    const { key, keyId } = await onboard();
    const forged = key.slice(0, -6) + 'AAAAAA';
    expect((await http(a, '/v1/me', { token: forged, from: address() })).body).toMatchObject({
      code: 'api_key_invalid',
    });
    const staff = await staffToken();
    expect(
      (await http(a, `/v1/staff/keys/${keyId}/revoke`, { method: 'POST', token: staff })).status,
    ).toBe(200);
    const revoked = await http(a, '/v1/me', { token: key, from: address() });
    // Well-formed but never issued (a broken checksum is said to be malformed, offline).
    const unknown = await http(a, '/v1/me', { token: generateApiKey().key, from: address() });
    expect(revoked.status).toBe(401);
    // Unknown and revoked keys are indistinguishable.
    expect({ ...revoked.body, request_id: '' }).toEqual({ ...unknown.body, request_id: '' });
  });

  it('answers an expired key with api_key_expired', async () => {
    const { key, keyId } = await onboard();
    // After intake's own batched outbox removal: FerretDB rewrites a whole document on update,
    // so a raw write racing it from outside intake's serializer could be lost.
    await stack.backend('intake').outbox.flush();
    await stack
      .backend('intake')
      .store.db.collection('api_keys')
      .updateOne({ _id: keyId } as never, { $set: { expires_at: new Date(Date.now() - 1000) } });
    expect((await http(b, '/v1/me', { token: key, from: address() })).body).toMatchObject({
      code: 'api_key_expired',
    });
  });

  it('never lets an agent key onto a staff route', async () => {
    const { key } = await onboard(['requests:read']);
    expect((await http(a, '/v1/me', { token: key })).status).toBe(200);
    const staffRouteWithKey = await http(a, '/v1/staff/access-applications', {
      token: key,
      from: address(),
    });
    expect(staffRouteWithKey).toMatchObject({ status: 401, body: { code: 'staff_token_invalid' } });
  });

  it('revocation is honoured by two replicas within a second', async () => {
    const { key, keyId } = await onboard();
    expect((await http(a, '/v1/me', { token: key })).status).toBe(200);
    expect((await http(b, '/v1/me', { token: key })).status).toBe(200);
    const staff = await staffToken();
    const started = Date.now();
    expect(
      (await http(a, `/v1/staff/keys/${keyId}/revoke`, { method: 'POST', token: staff })).status,
    ).toBe(200);
    await eventually(
      async () => {
        const [onA, onB] = await Promise.all([
          http(a, '/v1/me', { token: key }),
          http(b, '/v1/me', { token: key }),
        ]);
        return onA.status === 401 && onB.status === 401 ? true : undefined;
      },
      { timeoutMs: 10_000, intervalMs: 20, what: 'both replicas refusing the revoked key' },
    );
    // By the broadcast, well before either replica's cache (ACCESS_CACHE_TTL_MS, 30 s) expires.
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('rotation: a further key works beside the old one, and a scope change applies to both at once', async () => {
    const { key, integrationId } = await onboard(['requests:create', 'requests:read']);
    const staff = await staffToken();
    const rotated = await http(a, `/v1/staff/integrations/${integrationId}/keys`, {
      token: staff,
      body: { expires_in_days: 30 },
    });
    expect(rotated.status).toBe(201);
    const second = String(rotated.body.api_key);
    issuedSecrets.push(second);
    for (const k of [key, second])
      expect((await http(b, '/v1/me', { token: k })).body.scopes).toEqual([
        'requests:create',
        'requests:read',
      ]);
    const patched = await http(a, `/v1/staff/integrations/${integrationId}`, {
      method: 'PATCH',
      token: staff,
      body: { scopes: ['messages:create'] },
    });
    expect(patched.status).toBe(200);
    await eventually(
      async () => {
        const scopes = await Promise.all(
          [key, second].map(async (k) => (await http(b, '/v1/me', { token: k })).body.scopes),
        );
        return scopes.every((s) => JSON.stringify(s) === '["messages:create"]') ? true : undefined;
      },
      // Well before the replica's cache (ACCESS_CACHE_TTL_MS, 30 s) would expire.
      { timeoutMs: 10_000, intervalMs: 20 },
    );
    const tooLong = await http(a, `/v1/staff/integrations/${integrationId}/keys`, {
      token: staff,
      body: { expires_in_days: 400 },
    });
    expect(tooLong).toMatchObject({
      status: 422,
      body: { errors: [{ pointer: '/expires_in_days' }] },
    });
  });
});

describe('staff authentication', () => {
  const applications = '/v1/staff/access-applications';

  it('refuses expired, wrong-audience, wrong-secret and role-less tokens', async () => {
    const expired = await staffToken({ expiresInSeconds: -300 });
    expect((await http(a, applications, { token: expired, from: address() })).body).toMatchObject({
      code: 'staff_token_expired',
    });
    const otherAudience = await staffToken({ audience: 'someone-else' });
    expect(
      (await http(a, applications, { token: otherAudience, from: address() })).body,
    ).toMatchObject({ code: 'staff_token_invalid' });
    const forged = await staffToken({}, randomBytes(32).toString('base64url'));
    expect((await http(a, applications, { token: forged, from: address() })).body).toMatchObject({
      code: 'staff_token_invalid',
    });
    const noRole = await staffToken({ roles: ['viewer'] });
    expect(await http(a, applications, { token: noRole, from: address() })).toMatchObject({
      status: 403,
      body: { code: 'staff_role_required' },
    });
    expect((await http(a, applications, { from: address() })).body).toMatchObject({
      code: 'staff_token_missing',
    });
  });

  it('refuses an HS256 token when JWKS is configured, and accepts the provider’s token', async () => {
    const hs256 = await staffToken();
    expect(await http(jwksGateway, applications, { token: hs256, from: address() })).toMatchObject({
      status: 401,
      body: { code: 'staff_token_invalid' },
    });
    const es256 = await signStaffToken(jwksKey.privateKey, {
      sub: 'idp-user',
      audience: AUDIENCE,
      alg: 'ES256',
      kid: 'staff-key-1',
    });
    expect((await http(jwksGateway, applications, { token: es256 })).status).toBe(200);
  });

  it('pages through the audit log of staff actions', async () => {
    const staff = await staffToken();
    const first = await http(a, '/v1/staff/audit-log?limit=2', { token: staff });
    expect(first.status).toBe(200);
    expect(first.body.has_more).toBe(true);
    const entries = first.body.data as {
      id: string;
      actor: string;
      at: string;
      before: unknown;
      after: unknown;
    }[];
    expect(entries[0]).toMatchObject({ actor: 'ops@handoff.test', at: expect.any(String) });
    const next = await http(a, `/v1/staff/audit-log?limit=2&starting_after=${entries[1]?.id}`, {
      token: staff,
    });
    const nextId = (next.body.data as { id: string }[])[0]?.id ?? '';
    expect(nextId < (entries[1]?.id ?? '')).toBe(true);
    const bad = await http(a, '/v1/staff/audit-log?limit=500', { token: staff });
    expect(bad).toMatchObject({ status: 422, body: { errors: [{ pointer: '/query/limit' }] } });
  });
});

describe('rate limits', () => {
  it('limits each key, with RateLimit headers and Retry-After on 429', async () => {
    const { key } = await onboard();
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof http>> | undefined;
    for (let i = 0; i < 7; i += 1) {
      last = await http(strict, '/v1/me', { token: key });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    expect(last?.body).toMatchObject({ code: 'rate_limited' });
    expect(Number(last?.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(last?.headers.get('ratelimit')).toMatch(/^"key";r=0;t=\d+$/);
  });

  it('refuses further failed authentication from an address, but never a valid key', async () => {
    const { key } = await onboard();
    const from = address();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const bogus = `hk_live_${randomBytes(18).toString('hex')}`;
      statuses.push((await http(strict, '/v1/me', { token: bogus, from })).status);
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    expect((await http(strict, '/v1/me', { token: key, from })).status).toBe(200);
    expect((await http(strict, '/v1/me', { from })).status).toBe(429);
  });

  it('publishes the policy in /v1/capabilities, never cached but revalidated by ETag', async () => {
    const caps = await http(a, '/v1/capabilities');
    expect(caps.status).toBe(200);
    expect(caps.body).toMatchObject({
      api_version: '1.0.2',
      rate_limits: expect.arrayContaining([
        expect.objectContaining({ name: 'key', window_seconds: 60 }),
      ]),
    });
    expect(caps.body).toMatchObject({
      scopes: expect.arrayContaining(['requests:create', 'webhooks:manage', 'events:read']),
      limits: {
        body_bytes: 65536,
        request: { message: 10000 },
        webhook_endpoints_per_integration: 20,
      },
      webhooks: { signature_scheme: 'standard-webhooks-v1', timeout_ms: 15000 },
    });
    // The 15 kinds of spec §6 and the four documented extension kinds.
    expect((caps.body.event_types as string[]).length).toBe(19);
    const etag = caps.headers.get('etag') ?? '';
    expect(caps.headers.get('cache-control')).toBe('no-store');
    const again = await fetch(`${a.url}/v1/capabilities`, { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
  });
});

describe('secrets at rest and in logs', () => {
  it('appear in no collection and no log line', async () => {
    expect(issuedSecrets.length).toBeGreaterThan(8);
    const db = stack.backend('intake').store.db;
    let dump = '';
    for (const { name } of await db.listCollections().toArray()) {
      dump += JSON.stringify(await db.collection(name).find().toArray());
    }
    expect(dump.length).toBeGreaterThan(1000);
    const logText = logs.join('');
    expect(logText).toContain('request');
    for (const secret of issuedSecrets) {
      expect(dump).not.toContain(secret);
      expect(logText).not.toContain(secret);
    }
  });
});
