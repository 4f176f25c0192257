import { beforeAll, describe, expect, it } from '@jest/globals';
import { SCOPES } from '@handoff/contracts';
import { generateProviderKey } from '@handoff/runtime';
import { eventually } from '@handoff/testkit';
import { randomUUID } from 'node:crypto';
import type { RunningGateway } from '../src/bootstrap.ts';
import { address, http, type Onboarded } from './support/http.ts';
import { PROPOSAL, useStack, type ProviderAccount } from './support/stack.ts';
import { signStaffToken } from './support/staff-tokens.ts';

const stack = useStack('gw_provider');
let agent: Onboarded;
let plumber: ProviderAccount;

beforeAll(async () => {
  [agent, plumber] = await Promise.all([stack.agentOf(), stack.providerOf(['home-services'])]);
});

describe('staff onboard providers', () => {
  it('create, read, list and change a provider', async () => {
    const created = await stack.asStaff('/providers', {
      body: {
        name: 'Mario Rossi',
        email: 'mario@example.com',
        categories: ['home-services', 'design'],
      },
    });
    expect(created).toMatchObject({
      status: 201,
      body: {
        object: 'provider',
        id: expect.stringMatching(/^prv_/),
        name: 'Mario Rossi',
        categories: ['home-services', 'design'],
        status: 'active',
        keys: [],
      },
    });
    const id = String(created.body.id);
    expect((await stack.asStaff(`/providers/${id}`)).body).toMatchObject({
      id,
      name: 'Mario Rossi',
    });
    const list = await stack.asStaff('/providers?limit=100&status=active');
    expect(list.status).toBe(200);
    expect((list.body.data as { id: string }[]).map((p) => p.id)).toContain(id);
    const patched = await stack.asStaff(`/providers/${id}`, {
      method: 'PATCH',
      body: { categories: ['design'] },
    });
    expect(patched).toMatchObject({ status: 200, body: { categories: ['design'] } });
  });

  it('refuse bad bodies and unknown providers with the documented codes', async () => {
    const bad = await stack.asStaff('/providers', {
      body: { name: '', email: 'nope', categories: ['Not A Slug', 'x'], extra: 1 },
    });
    expect(bad.status).toBe(422);
    const pointers = (bad.body.errors as { pointer: string }[]).map((e) => e.pointer).sort();
    expect(pointers).toEqual(
      expect.arrayContaining(['/categories/0', '/email', '/extra', '/name']),
    );
    await stack.staffRefused(404, 'provider_not_found', [
      ['/providers/prv_unknown', { method: 'PATCH', body: { name: 'x' } }],
      ['/providers/prv_unknown', {}],
      ['/providers/prv_unknown/keys', { method: 'POST' }],
    ]);
    expect(
      await stack.asStaff('/provider-keys/pvk_unknown/revoke', { method: 'POST' }),
    ).toMatchObject({ status: 404, body: { code: 'provider_key_not_found' } });
    expect(await stack.asStaff('/providers/prv_x', { method: 'PATCH', body: {} })).toMatchObject({
      status: 422,
    });
  });

  it('issue a provider key once, listed afterwards by prefix and last four only', async () => {
    const provider = await stack.providerOf();
    expect(provider.key).toMatch(/^hpk_live_[0-9A-Za-z]{36}$/);
    const read = await stack.asStaff(`/providers/${provider.id}`);
    expect(JSON.stringify(read.body)).not.toContain(provider.key);
    expect(read.body.keys).toEqual([
      expect.objectContaining({ id: provider.keyId, last4: provider.key.slice(-4) }),
    ]);
  });
});

describe('provider keys', () => {
  const me = (token: string | undefined, gateway?: RunningGateway) =>
    http(gateway ?? stack.gateway, '/v1/provider/me', {
      ...(token ? { token } : {}),
      from: address(),
    });

  it('let the provider in: /v1/provider/me', async () => {
    const answer = await me(plumber.key);
    expect(answer).toMatchObject({
      status: 200,
      body: {
        object: 'provider',
        id: plumber.id,
        name: plumber.name,
        categories: ['home-services'],
        key_id: plumber.keyId,
        expires_at: expect.any(String),
      },
    });
    expect(answer.headers.get('ratelimit-policy')).toContain('"key"');
  });

  it('answer 401 without a key, and the same 401 for malformed, unknown and revoked keys', async () => {
    const missing = await me(undefined);
    expect(missing).toMatchObject({ status: 401, body: { code: 'api_key_missing' } });
    expect(missing.headers.get('www-authenticate')).toContain('Bearer');
    const malformed = await me('hpk_live_nope');
    const unknown = await me(generateProviderKey().key);
    expect(malformed).toMatchObject({ status: 401, body: { code: 'api_key_invalid' } });
    expect(unknown).toMatchObject({ status: 401, body: { code: 'api_key_invalid' } });

    const provider = await stack.providerOf();
    expect((await me(provider.key)).status).toBe(200);
    const revoked = await stack.asStaff(`/provider-keys/${provider.keyId}/revoke`, {
      method: 'POST',
    });
    expect(revoked).toMatchObject({ status: 200, body: { object: 'provider', id: provider.id } });
    const after = await me(provider.key);
    expect(after.status).toBe(401);
    expect({ ...after.body, request_id: '' }).toEqual({ ...unknown.body, request_id: '' });
  });

  it('stop on every replica at once when revoked (the invalidation broadcast)', async () => {
    // A cache that would trust the key for an hour: only the broadcast can drop it.
    const other = await stack.extraGateway({ ACCESS_CACHE_TTL_MS: '3600000' });
    const provider = await stack.providerOf();
    expect((await me(provider.key, other)).status).toBe(200);
    await stack.asStaff(`/provider-keys/${provider.keyId}/revoke`, { method: 'POST' });
    await eventually(async () =>
      (await me(provider.key, other)).status === 401 ? true : undefined,
    );
  });

  it('answer api_key_expired for an expired key', async () => {
    const provider = await stack.providerOf();
    // After intake's own batched outbox removal, which a raw write must not race on FerretDB.
    await stack.backend('intake').outbox.flush();
    await stack
      .backend('intake')
      .store.db.collection('provider_keys')
      .updateOne({ _id: provider.keyId } as never, {
        $set: { expires_at: new Date(Date.now() - 1000) },
      });
    expect(await me(provider.key)).toMatchObject({
      status: 401,
      body: { code: 'api_key_expired' },
    });
  });

  it('stop working while the provider is suspended, and work again once it is reactivated', async () => {
    const other = await stack.extraGateway({ ACCESS_CACHE_TTL_MS: '3600000' });
    const provider = await stack.providerOf();
    expect((await me(provider.key, other)).status).toBe(200);
    const suspend = await stack.asStaff(`/providers/${provider.id}`, {
      method: 'PATCH',
      body: { status: 'suspended' },
    });
    expect(suspend).toMatchObject({ status: 200, body: { status: 'suspended' } });
    await eventually(async () =>
      (await me(provider.key, other)).status === 401 ? true : undefined,
    );
    expect(await me(provider.key, other)).toMatchObject({
      status: 401,
      body: { code: 'api_key_invalid' },
    });
    expect(await stack.asStaff(`/providers/${provider.id}/keys`, { method: 'POST' })).toMatchObject(
      { status: 409, body: { code: 'provider_suspended' } },
    );
    await stack.asStaff(`/providers/${provider.id}`, {
      method: 'PATCH',
      body: { status: 'active' },
    });
    await eventually(async () =>
      (await me(provider.key, other)).status === 200 ? true : undefined,
    );
  });

  it('are the only credential of provider routes, and work on no other route', async () => {
    const request = await stack.requestOf(agent);
    // An agent key on a provider route.
    expect(await me(agent.key)).toMatchObject({ status: 401, body: { code: 'api_key_invalid' } });
    // A staff token on a provider route.
    expect(await me(stack.staff)).toMatchObject({
      status: 401,
      body: { code: 'api_key_invalid' },
    });
    // A provider key on agent routes.
    expect(
      await http(stack.gateway, '/v1/me', { token: plumber.key, from: address() }),
    ).toMatchObject({ status: 401, body: { code: 'api_key_invalid' } });
    expect(
      await http(stack.gateway, `/v1/request/${request.id}/proposals`, {
        token: plumber.key,
        headers: { 'X-Service-Request-Token': request.token },
        from: address(),
      }),
    ).toMatchObject({ status: 401, body: { code: 'api_key_invalid' } });
    // A provider key on staff routes.
    for (const path of ['/v1/staff/providers', '/v1/staff/disputes', '/v1/staff/deadlines']) {
      expect(
        await http(stack.gateway, path, { token: plumber.key, from: address() }),
      ).toMatchObject({ status: 401, body: { code: 'staff_token_invalid' } });
    }
    // An agent key on staff routes of the engagement.
    expect(
      await http(stack.gateway, '/v1/staff/payments', { token: agent.key, from: address() }),
    ).toMatchObject({ status: 401, body: { code: 'staff_token_invalid' } });
  });

  it('are rate limited per key', async () => {
    const strict = await stack.extraGateway({ RATE_LIMIT_PER_MINUTE: '2' });
    const provider = await stack.providerOf();
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await me(provider.key, strict)).status);
    expect(statuses).toEqual([200, 200, 429]);
    // Another key of another provider has its own budget.
    expect((await me(plumber.key, strict)).status).toBe(200);
  });
});

describe('what a provider sees', () => {
  let other: ProviderAccount;
  let designer: ProviderAccount;

  beforeAll(async () => {
    other = await stack.providerOf(['home-services']);
    designer = await stack.providerOf(['design']);
  });

  it('a request routed to it, without the owning integration, and nothing else', async () => {
    const request = await stack.requestOf(agent);
    // Before routing: nobody sees it.
    expect(await stack.asProvider(plumber, `/requests/${request.id}`)).toMatchObject({
      status: 404,
      body: { code: 'request_not_found' },
    });
    await stack.routeTo(request.id, [plumber.id]);
    const read = await stack.asProvider(plumber, `/requests/${request.id}`);
    expect(read).toMatchObject({
      status: 200,
      body: {
        object: 'request',
        id: request.id,
        status: 'routed',
        relation: 'routed',
        customer: { name: 'Ada Lovelace', email: 'ada@example.com' },
      },
    });
    expect(read.body).not.toHaveProperty('integration_id');
    expect(JSON.stringify(read.body)).not.toContain(agent.integrationId);
    const list = await stack.asProvider(plumber, '/requests?limit=100');
    expect((list.body.data as { id: string }[]).map((r) => r.id)).toContain(request.id);
    for (const list2 of (list.body.data as Record<string, unknown>[]) ?? []) {
      expect(list2).not.toHaveProperty('integration_id');
    }

    // Another provider, even of the same category, sees nothing.
    expect(await stack.asProvider(other, `/requests/${request.id}`)).toMatchObject({
      status: 404,
      body: { code: 'request_not_found' },
    });
    const otherList = await stack.asProvider(other, '/requests?limit=100');
    expect((otherList.body.data as { id: string }[]).map((r) => r.id)).not.toContain(request.id);
  });

  it('hides the customer contact unless the customer gave contact permission', async () => {
    const request = await stack.requestOf(agent, { contact_permission: false });
    await stack.routeTo(request.id, [plumber.id]);
    const read = await stack.asProvider(plumber, `/requests/${request.id}`);
    expect(read.body).toMatchObject({
      contact_permission: false,
      customer: { name: null, email: null, company: null, website: null },
    });
  });

  it('a marketplace request once staff published it, in its own categories only', async () => {
    const request = await stack.requestOf(agent, { marketplace_opt_in: true });
    expect((await stack.asProvider(other, `/requests/${request.id}`)).status).toBe(404);
    const published = await stack.asStaff(`/requests/${request.id}/marketplace-review`, {
      body: { decision: 'approved' },
    });
    expect(published.status).toBe(200);
    expect(await stack.asProvider(other, `/requests/${request.id}`)).toMatchObject({
      status: 200,
      body: { relation: 'marketplace' },
    });
    expect(await stack.asProvider(designer, `/requests/${request.id}`)).toMatchObject({
      status: 404,
      body: { code: 'request_not_found' },
    });
  });

  it('writes into the conversation of a visible request only', async () => {
    const request = await stack.requestOf(agent);
    const hidden = await stack.asProvider(plumber, `/requests/${request.id}/messages`, {
      body: { message: 'Hello?' },
    });
    expect(hidden).toMatchObject({ status: 404, body: { code: 'request_not_found' } });
    await stack.routeTo(request.id, [plumber.id]);
    const sent = await stack.asProvider(plumber, `/requests/${request.id}/messages`, {
      body: { message: 'I can come on Thursday morning.' },
    });
    expect(sent).toMatchObject({
      status: 201,
      body: { object: 'message', request_id: request.id, author_role: 'provider' },
    });
    const detail = await stack.asCustomer(agent, request, '');
    expect(detail.body.conversation).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          author_role: 'provider',
          message: 'I can come on Thursday morning.',
        }),
      ]),
    );
    expect(
      await stack.asProvider(plumber, `/requests/${request.id}/messages`, {
        body: { message: '' },
      }),
    ).toMatchObject({ status: 422, body: { errors: [{ pointer: '/message' }] } });
  });
});

describe('provider proposals', () => {
  it('are made on visible open requests, once per provider', async () => {
    const request = await stack.requestOf(agent);
    const path = `/requests/${request.id}/proposals`;
    expect(await stack.asProvider(plumber, path, { body: PROPOSAL })).toMatchObject({
      status: 404,
      body: { code: 'request_not_found' },
    });
    await stack.routeTo(request.id, [plumber.id]);
    const created = await stack.asProvider(plumber, path, { body: PROPOSAL });
    expect(created).toMatchObject({
      status: 201,
      body: {
        object: 'proposal',
        id: expect.stringMatching(/^prp_/),
        request_id: request.id,
        provider_id: plumber.id,
        provider_name: plumber.name,
        amount: 240,
        currency: 'USD',
        status: 'submitted',
        deadline_at: expect.any(String),
        milestones: [
          expect.objectContaining({ title: 'Diagnose the leak', amount: 40 }),
          expect.objectContaining({ title: 'Replace the cartridge', amount: 200 }),
        ],
      },
    });
    expect(await stack.asProvider(plumber, path, { body: PROPOSAL })).toMatchObject({
      status: 409,
      body: { code: 'proposal_exists' },
    });
    const id = String(created.body.id);
    expect(await stack.asProvider(plumber, `/proposals/${id}`)).toMatchObject({
      status: 200,
      body: { id },
    });
    const mine = await stack.asProvider(plumber, '/proposals?status=submitted&limit=100');
    expect((mine.body.data as { id: string }[]).map((p) => p.id)).toContain(id);

    // Withdrawn, and then not again.
    const withdrawn = await stack.asProvider(plumber, `/proposals/${id}/withdraw`, {
      method: 'POST',
    });
    expect(withdrawn).toMatchObject({ status: 200, body: { status: 'withdrawn' } });
    const again = await stack.asProvider(plumber, `/proposals/${id}/withdraw`, {
      method: 'POST',
    });
    expect(again).toMatchObject({
      status: 409,
      body: {
        code: 'invalid_state_transition',
        current_state: 'withdrawn',
        action: 'withdraw',
        allowed_actions: [],
      },
    });
  });

  it('are refused on a request that is no longer open', async () => {
    const request = await stack.requestOf(agent);
    await stack.routeTo(request.id, [plumber.id]);
    const cancelled = await stack.asStaff(`/requests/${request.id}`, {
      method: 'PATCH',
      body: { status: 'cancelled', reason: 'The customer found someone.' },
    });
    expect(cancelled.status).toBe(200);
    // Still routed to the provider, so it may read it, but a closed request takes no proposals.
    expect(
      await stack.asProvider(plumber, `/requests/${request.id}/proposals`, { body: PROPOSAL }),
    ).toMatchObject({ status: 409, body: { code: 'request_closed', current_state: 'cancelled' } });
  });

  it('are validated, amounts to the currency’s precision included', async () => {
    const request = await stack.requestOf(agent);
    await stack.routeTo(request.id, [plumber.id]);
    const path = `/requests/${request.id}/proposals`;
    const bad = await stack.asProvider(plumber, path, {
      body: { message: 'x', amount: 10.001, milestones: [{ title: 'a', amount: 1.234 }] },
    });
    expect(bad.status).toBe(422);
    expect((bad.body.errors as { pointer: string }[]).map((e) => e.pointer).sort()).toEqual([
      '/amount',
      '/milestones/0/amount',
    ]);
    const unknown = await stack.asProvider(plumber, path, {
      body: { ...PROPOSAL, amount: -1, discount: 5 },
    });
    expect((unknown.body.errors as { pointer: string }[]).map((e) => e.pointer).sort()).toEqual([
      '/amount',
      '/discount',
    ]);
    expect(
      await stack.asProvider(plumber, path, {
        body: { ...PROPOSAL, currency: 'JPY', amount: 1.5 },
      }),
    ).toMatchObject({ status: 422, body: { errors: [{ pointer: '/amount' }] } });
  });

  it('replay with the same Idempotency-Key, kept per provider', async () => {
    const request = await stack.requestOf(agent);
    await stack.routeTo(request.id, [plumber.id]);
    const key = randomUUID();
    const path = `/requests/${request.id}/proposals`;
    const first = await stack.asProvider(plumber, path, {
      body: PROPOSAL,
      headers: { 'Idempotency-Key': key },
    });
    const second = await stack.asProvider(plumber, path, {
      body: PROPOSAL,
      headers: { 'Idempotency-Key': key },
    });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body.id).toBe(first.body.id);
  });

  it('are not another provider’s to read or withdraw', async () => {
    const other = await stack.providerOf();
    const request = await stack.routedRequest(agent, [plumber, other]);
    const id = await stack.propose(plumber, request.id);
    expect(await stack.asProvider(other, `/proposals/${id}`)).toMatchObject({
      status: 404,
      body: { code: 'proposal_not_found' },
    });
    expect(
      await stack.asProvider(other, `/proposals/${id}/withdraw`, { method: 'POST' }),
    ).toMatchObject({ status: 404, body: { code: 'proposal_not_found' } });
  });
});

describe('a provider’s lists of one request', () => {
  it('answer only that request’s proposals, jobs, milestones, deliverables and disputes', async () => {
    const provider = await stack.providerOf();
    // Two engagements of one provider, each with its proposal, job, two milestones, a
    // deliverable and a dispute; and a proposal on a third request, still open.
    const engaged = [
      await stack.engagement(agent, provider),
      await stack.engagement(agent, provider),
    ];
    const open = await stack.routedRequest(agent, [provider, plumber]);
    const openProposal = await stack.propose(provider, open.id);
    const theirs = await stack.propose(plumber, open.id);
    for (const { request, jobId } of engaged) {
      const milestones = await stack.asProvider(provider, `/milestones?job_id=${jobId}`);
      const [milestone] = milestones.body.data as { id: string }[];
      const added = await stack.asProvider(provider, `/milestones/${milestone?.id}/deliverables`, {
        body: { title: 'Photo of the fitted tap', url: 'https://files.example.com/tap.jpg' },
      });
      expect(added.status).toBe(201);
      const opened = await stack.asCustomer(agent, request, '/disputes', {
        body: { kind: 'dispute', reason: 'The tap still drips.' },
      });
      expect(opened.status).toBe(201);
    }

    type Row = { id: string; request_id: string };
    const listed = async (path: string) => {
      const answer = await stack.asProvider(provider, path);
      expect([path, answer.status]).toEqual([path, 200]);
      return answer.body.data as Row[];
    };
    for (const resource of ['proposals', 'jobs', 'milestones', 'deliverables', 'disputes']) {
      const everything = await listed(`/${resource}?limit=100`);
      for (const { request } of engaged) {
        const own = await listed(`/${resource}?limit=100&request_id=${request.id}`);
        expect([resource, own.length]).not.toEqual([resource, 0]);
        expect(own.every((row) => row.request_id === request.id)).toBe(true);
        // All of them: the same items the whole list holds for that request, in its order.
        expect(own.map((row) => row.id)).toEqual(
          everything.filter((row) => row.request_id === request.id).map((row) => row.id),
        );
      }
    }
    // With a status, and a page at a time.
    const [first, second] = engaged;
    if (!first || !second) throw new Error('two engagements');
    const milestonePage = await stack.asProvider(
      provider,
      `/milestones?request_id=${first.request.id}&status=open&limit=1`,
    );
    expect(milestonePage).toMatchObject({
      status: 200,
      body: { has_more: true, data: [{ request_id: first.request.id, status: 'open' }] },
    });
    const onward = await listed(
      `/milestones?request_id=${first.request.id}&status=open&limit=1&starting_after=${String(
        (milestonePage.body.data as Row[])[0]?.id,
      )}`,
    );
    expect(onward).toEqual([expect.objectContaining({ request_id: first.request.id })]);
    expect(await listed(`/jobs?request_id=${second.request.id}&status=completed`)).toEqual([]);
    // Only the provider's own: another provider's proposal on the same request is left out.
    expect((await listed(`/proposals?request_id=${open.id}`)).map((row) => row.id)).toEqual([
      openProposal,
    ]);
    expect(await listed(`/jobs?request_id=${open.id}`)).toEqual([]);
    const rival = await stack.asProvider(plumber, `/proposals?request_id=${first.request.id}`);
    expect(rival).toMatchObject({ status: 200, body: { data: [], has_more: false } });
    expect((await stack.asProvider(plumber, `/proposals?request_id=${open.id}`)).body.data).toEqual(
      [expect.objectContaining({ id: theirs })],
    );
    expect(
      await stack.asProvider(provider, `/proposals?request_id=${'r'.repeat(65)}`),
    ).toMatchObject({ status: 422, body: { errors: [{ pointer: '/query/request_id' }] } });
  });
});

describe('GET /v1/capabilities', () => {
  it('lists the provider key, every scope (the engagement ones among them) and limits', async () => {
    const caps = await http(stack.gateway, '/v1/capabilities', { from: address() });
    expect(caps.body).toMatchObject({
      authentication: {
        provider_key: { header: 'Authorization', scheme: 'Bearer', routes: '/v1/provider/' },
      },
      scopes: [...SCOPES],
      limits: { engagement: { title: 200, plan_milestones: 20, comments: 200 } },
    });
  });
});

describe('staff routes', () => {
  it('are never reached with an agent or a provider credential, nor a token without the role', async () => {
    const roleless = await signStaffToken(stack.secret, { roles: ['support'] });
    for (const token of [agent.key, plumber.key]) {
      const answer = await http(stack.gateway, '/v1/staff/providers', {
        token,
        body: { name: 'X', email: 'x@example.com', categories: ['design'] },
        from: address(),
      });
      expect(answer.status).toBe(401);
    }
    expect(
      await http(stack.gateway, '/v1/staff/providers', { token: roleless, from: address() }),
    ).toMatchObject({ status: 403, body: { code: 'staff_role_required' } });
  });
});
