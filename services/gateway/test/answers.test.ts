import { beforeAll, describe, expect, it } from '@jest/globals';
import { EVENTS_STREAM, EventEnvelope, WEBHOOK_DEFAULTS } from '@handoff/contracts';
import { generateApiKey } from '@handoff/runtime';
import { eventually, natsOptions, startNats } from '@handoff/testkit';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bootstrap } from '../src/bootstrap.ts';
import { DeliverPolicy, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { http, type Onboarded } from './support/http.ts';
import { useStack, type ProviderAccount } from './support/stack.ts';

// The answers an agent developer expects (issue 12), against the whole stack: the order of the
// credential checks, currency case, the 401 details, and the Request view's extension fields.

const stack = useStack('gw_answers');
let agent: Onboarded;
let plumber: ProviderAccount;

beforeAll(async () => {
  [agent, plumber] = await Promise.all([stack.agentOf(), stack.providerOf()]);
});

describe('a missing request token', () => {
  it('answers 401 before the body is looked at', async () => {
    const request = await stack.requestOf(agent);
    for (const body of [{ nonsense: true }, { message: '' }]) {
      const answer = await http(stack.gateway, `/v1/request/${request.id}/message`, {
        token: agent.key,
        body,
      });
      expect(answer).toMatchObject({ status: 401, body: { code: 'request_token_missing' } });
    }
    // Malformed JSON and a wrong content type do not come first either.
    const broken = await fetch(`${stack.gateway.url}/v1/request/${request.id}/payment-request`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${agent.key}`, 'Content-Type': 'text/plain' },
      body: '{"amount":',
    });
    expect(broken.status).toBe(401);
    expect(await broken.json()).toMatchObject({ code: 'request_token_missing' });
    // With the token, the same bad body is a 422.
    expect(
      await stack.asCustomer(agent, request, '/message', { body: { nonsense: true } }),
    ).toMatchObject({ status: 422, body: { code: 'validation_failed' } });
  });
});

describe('currency codes', () => {
  it('are taken in any case and returned upper case', async () => {
    const request = await stack.requestOf(agent);
    for (const [given, stored] of [
      ['eur', 'EUR'],
      ['Jpy', 'JPY'],
    ] as const) {
      const created = await stack.asCustomer(agent, request, '/payment-request', {
        body: { amount: 100, currency: given, description: 'Call-out' },
      });
      expect(created).toMatchObject({ status: 201, body: { currency: stored, amount: 100 } });
    }
    // The precision follows the code whatever its case: yen has no minor unit.
    expect(
      await stack.asCustomer(agent, request, '/payment-request', {
        body: { amount: 100.5, currency: 'jpy', description: 'Call-out' },
      }),
    ).toMatchObject({ status: 422, body: { errors: [{ pointer: '/amount' }] } });
  });

  it('still refuses an unknown code, saying what a code is', async () => {
    const request = await stack.requestOf(agent);
    const unknown = await stack.asCustomer(agent, request, '/payment-request', {
      body: { amount: 1, currency: 'xyz', description: 'x' },
    });
    expect(unknown).toMatchObject({
      status: 422,
      body: {
        errors: [
          {
            pointer: '/currency',
            detail: 'not an ISO 4217 currency code (three letters, e.g. USD, EUR, JPY)',
          },
        ],
      },
    });
  });
});

describe('401 details', () => {
  const agentRoute = '/v1/ai-to-human-request';
  const body = { message: 'Hello' };
  const detailOf = async (path: string, authorization: string | undefined) => {
    const answer = await http(stack.gateway, path, {
      ...(path === agentRoute ? { body } : {}),
      headers: authorization === undefined ? {} : { Authorization: authorization },
    });
    expect(answer.status).toBe(401);
    // The credential never comes back.
    if (authorization) {
      const secret = authorization.split(/\s+/).at(-1) ?? '';
      expect(JSON.stringify(answer.body)).not.toContain(secret);
    }
    return { code: answer.body.code, detail: String(answer.body.detail) };
  };

  it('tell a missing scheme, a staff token and a provider key apart on agent routes', async () => {
    const answers = {
      none: await detailOf(agentRoute, undefined),
      noScheme: await detailOf(agentRoute, agent.key),
      basic: await detailOf(agentRoute, 'Basic dXNlcjpwYXNz'),
      staff: await detailOf(agentRoute, `Bearer ${stack.staff}`),
      provider: await detailOf(agentRoute, `Bearer ${plumber.key}`),
      malformed: await detailOf(agentRoute, 'Bearer hk_live_not-a-key'),
      unknown: await detailOf(agentRoute, `Bearer ${generateApiKey().key}`),
    };
    expect(answers.none).toEqual({
      code: 'api_key_missing',
      detail: 'Send the agent key as `Authorization: Bearer <key>`.',
    });
    expect(answers.noScheme.code).toBe('api_key_invalid');
    expect(answers.noScheme.detail).toMatch(/lacks the `Bearer` scheme/);
    expect(answers.basic.detail).toMatch(/uses another scheme/);
    expect(answers.staff.detail).toMatch(/not a staff token/);
    expect(answers.provider.detail).toMatch(/not a provider key/);
    expect(answers.malformed.detail).toMatch(/malformed/);
    // A well-formed key nobody issued gets the plain answer: no oracle on stored keys.
    expect(answers.unknown.detail).toBe('The agent key is not valid.');
    for (const answer of Object.values(answers).slice(1)) {
      expect(answer.code).toBe('api_key_invalid');
    }
    // Each case says something of its own.
    const details = Object.values(answers).map((answer) => answer.detail);
    expect(new Set(details).size).toBe(details.length);
  });

  it('tell a staff token and a missing scheme apart on provider routes', async () => {
    const staffToken = await detailOf('/v1/provider/me', `Bearer ${stack.staff}`);
    expect(staffToken).toMatchObject({ code: 'api_key_invalid' });
    expect(staffToken.detail).toMatch(/takes a provider key .*not a staff token/);
    const noScheme = await detailOf('/v1/provider/me', plumber.key);
    expect(noScheme.detail).toMatch(/lacks the `Bearer` scheme/);
  });

  it('tell a missing scheme and an agent key apart on staff routes', async () => {
    const noScheme = await detailOf('/v1/staff/deadlines', stack.staff);
    expect(noScheme).toMatchObject({ code: 'staff_token_missing' });
    expect(noScheme.detail).toMatch(/lacks the `Bearer` scheme/);
    const agentKey = await detailOf('/v1/staff/deadlines', `Bearer ${agent.key}`);
    expect(agentKey).toMatchObject({ code: 'staff_token_invalid' });
    expect(agentKey.detail).toMatch(/agent API keys are not accepted/);
  });
});

describe('the Request view', () => {
  it('names the engaged provider once a proposal is accepted, null before', async () => {
    const fresh = await stack.requestOf(agent);
    expect(await stack.asCustomer(agent, fresh, '')).toMatchObject({
      status: 200,
      body: { engaged_provider_id: null },
    });
    const { request } = await stack.engagement(agent, plumber);
    const read = await eventually(
      async () => {
        const answer = await stack.asCustomer(agent, request, '');
        return answer.body.engaged_provider_id === plumber.id ? answer : undefined;
      },
      { what: 'the engaged provider in the request read' },
    );
    expect(read.body).toMatchObject({ status: 'in_progress', engaged_provider_id: plumber.id });
    expect(
      await http(stack.gateway, `/v1/staff/requests/${request.id}`, { token: stack.staff }),
    ).toMatchObject({ status: 200, body: { engaged_provider_id: plumber.id } });
  });
});

/**
 * The events of one request on the bus, in sequence order, once `count` of them are there. Reads
 * only the request's kinds since `since`, so the events of other test files do not crowd it out.
 */
async function eventsOf(requestId: string, count: number, since: Date): Promise<EventEnvelope[]> {
  const nc = await connect(natsOptions());
  try {
    const consumer = await (
      await jetstreamManager(nc)
    )
      .jetstream()
      .consumers.get(EVENTS_STREAM.name, {
        filter_subjects: ['handoff.events.request.created', 'handoff.events.payment.>'],
        deliver_policy: DeliverPolicy.StartTime,
        opt_start_time: since.toISOString(),
      });
    const events: EventEnvelope[] = [];
    for (let round = 0; round < 30 && events.length < count; round += 1) {
      const batch = await consumer.fetch({ max_messages: 1_000, expires: 1_000 });
      for await (const msg of batch) {
        const event = EventEnvelope.parse(msg.json());
        if (event.data.request_id === requestId) events.push(event);
      }
    }
    return events.sort((a, b) => a.data.sequence - b.data.sequence);
  } finally {
    await nc.close();
  }
}

describe('payment requests and payments, as the agent reads them', () => {
  it('lists every payment request with its status and reason, and every payment with its outcome, each change with an event', async () => {
    // A second back, so that a clock step between this process and the server loses nothing.
    const since = new Date(Date.now() - 1_000);
    const request = await stack.requestOf(agent);
    const propose = async (amount: number) => {
      const created = await stack.asCustomer(agent, request, '/payment-request', {
        body: { amount, currency: 'USD', description: `Part ${amount}` },
      });
      expect(created.status).toBe(201);
      return String(created.body.id);
    };
    const rejected = await propose(10);
    const approved = await propose(20);
    const pending = await propose(30);
    expect(
      await http(stack.gateway, `/v1/staff/payment-requests/${rejected}/reject`, {
        token: stack.staff,
        body: { reason: 'Parts are included in the quote.' },
      }),
    ).toMatchObject({ status: 200 });
    expect(
      await http(stack.gateway, `/v1/staff/payment-requests/${approved}/approve`, {
        method: 'POST',
        token: stack.staff,
      }),
    ).toMatchObject({ status: 200 });

    const all = await stack.asCustomer(agent, request, '/payment-requests');
    expect(all).toMatchObject({ status: 200, body: { object: 'list', has_more: false } });
    expect(all.body.data).toEqual([
      expect.objectContaining({ id: pending, status: 'pending_approval', rejection_reason: null }),
      expect.objectContaining({ id: approved, status: 'approved' }),
      expect.objectContaining({
        id: rejected,
        status: 'rejected',
        rejection_reason: 'Parts are included in the quote.',
      }),
    ]);
    // Filtered and paged like every list.
    expect(
      await stack.asCustomer(agent, request, '/payment-requests?status=rejected'),
    ).toMatchObject({ body: { data: [{ id: rejected }], has_more: false } });
    const first = await stack.asCustomer(agent, request, '/payment-requests?limit=1');
    expect(first.body).toMatchObject({ data: [{ id: pending }], has_more: true });
    expect(
      await stack.asCustomer(agent, request, `/payment-requests?limit=1&starting_after=${pending}`),
    ).toMatchObject({ body: { data: [{ id: approved }], has_more: true } });
    // One at a time too, but only under its own request.
    expect(await stack.asCustomer(agent, request, `/payment-requests/${rejected}`)).toMatchObject({
      status: 200,
      body: {
        id: rejected,
        status: 'rejected',
        rejection_reason: 'Parts are included in the quote.',
      },
    });
    const elsewhere = await stack.requestOf(agent);
    expect(await stack.asCustomer(agent, elsewhere, `/payment-requests/${rejected}`)).toMatchObject(
      { status: 404, body: { code: 'payment_request_not_found' } },
    );
    // The spec's read still shows approved payment data only.
    const read = await stack.asCustomer(agent, request, '');
    expect((read.body.payments as { id: string }[]).map((p) => p.id)).toEqual([approved]);
    // Only the owner with the token.
    const stranger = await stack.agentOf();
    expect(
      await http(stack.gateway, `/v1/request/${request.id}/payment-requests`, {
        token: stranger.key,
        headers: { 'X-Service-Request-Token': request.token },
      }),
    ).toMatchObject({ status: 404, body: { code: 'request_not_found' } });
    expect(
      await stack.asCustomer(agent, { ...request, token: 'hrt_wrong' }, '/payments'),
    ).toMatchObject({ status: 403, body: { code: 'request_token_invalid' } });

    // The approval's payment, then its failure.
    const payment = await eventually(
      async () => {
        const list = await stack.asCustomer(agent, request, '/payments');
        const data = list.body.data as Record<string, unknown>[];
        return data.length === 1 ? data[0] : undefined;
      },
      { what: 'the approved payment request’s payment' },
    );
    expect(payment).toMatchObject({ payment_request_id: approved, status: 'pending' });
    expect(payment).not.toHaveProperty('provider');
    expect(payment).not.toHaveProperty('provider_reference');
    expect(
      await http(stack.gateway, `/v1/staff/payments/${String(payment.id)}/fail`, {
        token: stack.staff,
        body: { reason: 'The card was declined.' },
      }),
    ).toMatchObject({ status: 200 });
    expect(await stack.asCustomer(agent, request, '/payments?status=failed')).toMatchObject({
      body: {
        data: [{ id: payment.id, status: 'failed', failure_reason: 'The card was declined.' }],
      },
    });

    // Every change reached the bus (and so the webhooks): an extension kind where the spec has none.
    const events = await eventsOf(request.id, 7, since);
    expect(events.map((event) => `${event.type}:${String(event.data.object.id)}`)).toEqual([
      `request.created:${request.id}`,
      `payment.requested:${rejected}`,
      `payment.requested:${approved}`,
      `payment.requested:${pending}`,
      `payment.request_rejected:${rejected}`,
      `payment.requested:${approved}`,
      `payment.failed:${String(payment.id)}`,
    ]);
    expect(events[4]?.data.object).toMatchObject({
      status: 'rejected',
      rejection_reason: 'Parts are included in the quote.',
    });
  });
});

describe('the conversation', () => {
  it('is paged newest first through GET /v1/request/{id}/messages, and the read says whether it was cut', async () => {
    const request = await stack.requestOf(agent);
    for (const text of ['first follow-up', 'second follow-up', 'third follow-up']) {
      expect(
        await stack.asCustomer(agent, request, '/message', { body: { message: text } }),
      ).toMatchObject({ status: 201 });
    }
    const read = await stack.asCustomer(agent, request, '');
    expect(read.body).toMatchObject({ conversation_has_more: false });
    const conversation = read.body.conversation as { id: string; message: string }[];
    // Oldest first in the read.
    expect(conversation.map((m) => m.message)).toEqual([
      'first follow-up',
      'second follow-up',
      'third follow-up',
    ]);

    const first = await stack.asCustomer(agent, request, '/messages?limit=2');
    expect(first).toMatchObject({ status: 200, body: { object: 'list', has_more: true } });
    const newest = first.body.data as { id: string; message: string }[];
    expect(newest.map((m) => m.message)).toEqual(['third follow-up', 'second follow-up']);
    const next = await stack.asCustomer(
      agent,
      request,
      `/messages?limit=2&starting_after=${newest[1]?.id ?? ''}`,
    );
    expect(next.body).toMatchObject({ has_more: false });
    expect((next.body.data as { message: string }[]).map((m) => m.message)).toEqual([
      'first follow-up',
    ]);
    expect(
      await stack.asCustomer(agent, request, '/messages?starting_after=a&ending_before=b'),
    ).toMatchObject({ status: 422, body: { errors: [{ pointer: '/query/ending_before' }] } });
    expect(
      await http(stack.gateway, `/v1/request/${request.id}/messages`, { token: agent.key }),
    ).toMatchObject({ status: 401, body: { code: 'request_token_missing' } });
  });
});

describe('staff lists', () => {
  it('list requests by status, routing and marketplace review, paged', async () => {
    const lister = await stack.agentOf();
    const reviewed = await stack.requestOf(lister, { marketplace_opt_in: true });
    const routed = await stack.requestOf(lister);
    const plain = await stack.requestOf(lister);
    expect(
      await http(stack.gateway, `/v1/staff/requests/${routed.id}`, {
        method: 'PATCH',
        token: stack.staff,
        body: { status: 'routed', routing: { mode: 'direct', provider_ids: [plumber.id] } },
      }),
    ).toMatchObject({ status: 200 });
    const list = (query: string) =>
      http(stack.gateway, `/v1/staff/requests?integration_id=${lister.integrationId}&${query}`, {
        token: stack.staff,
      });
    const ids = (answer: { body: Record<string, unknown> }) =>
      (answer.body.data as { id: string }[]).map((r) => r.id);

    const all = await list('');
    expect(all).toMatchObject({ status: 200, body: { object: 'list', has_more: false } });
    expect(ids(all)).toEqual([plain.id, routed.id, reviewed.id]);
    expect(ids(await list('status=routed'))).toEqual([routed.id]);
    expect(ids(await list('routing=unassigned'))).toEqual([plain.id, reviewed.id]);
    expect(ids(await list('marketplace_review=pending_review'))).toEqual([reviewed.id]);
    const first = await list('limit=1');
    expect(first.body).toMatchObject({ has_more: true });
    expect(ids(await list(`limit=1&starting_after=${plain.id}`))).toEqual([routed.id]);
    expect(await list('status=lost')).toMatchObject({
      status: 422,
      body: { errors: [{ pointer: '/query/status' }] },
    });
    expect(await http(stack.gateway, '/v1/staff/requests', { token: lister.key })).toMatchObject({
      status: 401,
    });
  });

  it('list integrations, newest first, by scope', async () => {
    const narrow = await stack.agentOf(['requests:create', 'events:read']);
    const list = await http(stack.gateway, '/v1/staff/integrations?limit=1', {
      token: stack.staff,
    });
    expect(list).toMatchObject({
      status: 200,
      body: { object: 'list', has_more: true, data: [{ id: narrow.integrationId }] },
    });
    const byScope = await http(stack.gateway, '/v1/staff/integrations?scope=events:read', {
      token: stack.staff,
    });
    const found = byScope.body.data as { id: string; scopes: string[]; keys: unknown[] }[];
    expect(found.map((i) => i.id)).toEqual([narrow.integrationId]);
    expect(found[0]?.keys).toHaveLength(1);
    expect(
      await http(stack.gateway, '/v1/staff/integrations?scope=nope', { token: stack.staff }),
    ).toMatchObject({ status: 422 });
  });

  it('show unrouted requests and pending marketplace reviews among the deadlines', async () => {
    const waiting = await stack.requestOf(agent, { marketplace_opt_in: true });
    const answer = await http(stack.gateway, '/v1/staff/deadlines?limit=500', {
      token: stack.staff,
    });
    expect(answer.status).toBe(200);
    const mine = (answer.body.data as Record<string, unknown>[]).filter(
      (item) => item.request_id === waiting.id,
    );
    expect(mine).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          resource: 'request',
          id: waiting.id,
          state: 'submitted',
          waiting_on: 'staff',
          overdue: false,
        }),
        expect.objectContaining({
          resource: 'marketplace_review',
          id: waiting.id,
          state: 'pending_review',
          waiting_on: 'staff',
          overdue: false,
        }),
      ]),
    );
    expect(mine).toHaveLength(2);
    const created = Date.parse(
      String((await stack.asCustomer(agent, waiting, '')).body.created_at),
    );
    const routing = mine.find((item) => item.resource === 'request');
    expect(Date.parse(String(routing?.deadline_at)) - created).toBe(24 * 60 * 60 * 1000);
    // Nothing of it is overdue yet; reviewed and routed, it waits no more.
    const overdue = await http(stack.gateway, '/v1/staff/deadlines?overdue=true', {
      token: stack.staff,
    });
    expect(
      (overdue.body.data as { request_id: string }[]).some((i) => i.request_id === waiting.id),
    ).toBe(false);
    expect(
      await http(stack.gateway, `/v1/staff/requests/${waiting.id}/marketplace-review`, {
        token: stack.staff,
        body: { decision: 'approved' },
      }),
    ).toMatchObject({ status: 200 });
    expect(
      await http(stack.gateway, `/v1/staff/requests/${waiting.id}`, {
        method: 'PATCH',
        token: stack.staff,
        body: { status: 'routed', routing: { mode: 'marketplace', provider_ids: [] } },
      }),
    ).toMatchObject({ status: 200 });
    const after = await http(stack.gateway, '/v1/staff/deadlines?limit=500', {
      token: stack.staff,
    });
    expect(
      (after.body.data as { request_id: string }[]).filter((i) => i.request_id === waiting.id),
    ).toEqual([]);
  });
});

describe('GET /v1/capabilities without a webhook dispatcher on the bus', () => {
  it('says its webhook settings are the defaults until the dispatcher answers', async () => {
    // A NATS server of its own with nothing but this gateway on it: the worker's server has the
    // stack's dispatcher, which would answer.
    const dataDir = mkdtempSync(join(tmpdir(), 'answers-nats-'));
    const nats = await startNats({ dataDir, env: {} });
    const lone = await bootstrap({
      env: {
        NATS_URL: nats.url,
        NATS_USER: 'gateway',
        NATS_PASSWORD: nats.passwords?.gateway ?? '',
        PORT: '0',
        STAFF_JWT_SECRET: randomBytes(32).toString('base64url'),
        LOG_LEVEL: 'silent',
      },
    });
    try {
      const caps = await http(lone, '/v1/capabilities');
      expect(caps).toMatchObject({
        status: 200,
        body: {
          webhooks: {
            retry_schedule_seconds: [...WEBHOOK_DEFAULTS.retryScheduleSeconds],
            max_attempts: WEBHOOK_DEFAULTS.retryScheduleSeconds.length + 1,
            timeout_ms: WEBHOOK_DEFAULTS.timeoutMs,
            source: 'defaults',
          },
        },
      });
    } finally {
      await lone.stop();
      await nats.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
