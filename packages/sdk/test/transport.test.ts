// The retry layer against a plain HTTP server that answers what a busy or failing gateway
// answers (429 with Retry-After, 503, 409 idempotency_key_in_use), so the rules can be seen
// without overloading the real stack.
import { afterEach, describe, expect, it } from '@jest/globals';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createHandoffClient,
  createProviderClient,
  createStaffClient,
  HandoffConnectionError,
  HandoffError,
  toArray,
} from '../src/index.ts';

interface Seen {
  method: string;
  url: string;
  idempotencyKey: string | undefined;
  requestToken: string | undefined;
  body: string;
  /** When the whole request had arrived (ms since the epoch). */
  at: number;
}

let server: Server | undefined;

async function stop() {
  const running = server;
  server = undefined;
  if (!running) return;
  running.closeAllConnections();
  await new Promise((resolve) => running.close(resolve));
}

afterEach(stop);

/** A server answering the scripted statuses in turn, recording what it was sent. */
async function scripted(
  answers: { status: number; headers?: Record<string, string>; body: unknown }[],
) {
  const seen: Seen[] = [];
  server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        idempotencyKey: req.headers['idempotency-key'] as string | undefined,
        requestToken: req.headers['x-service-request-token'] as string | undefined,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      });
      const answer = answers[Math.min(seen.length - 1, answers.length - 1)] ?? answers[0];
      res.writeHead(answer?.status ?? 500, {
        'Content-Type':
          (answer?.status ?? 500) >= 400 ? 'application/problem+json' : 'application/json',
        ...answer?.headers,
      });
      res.end(JSON.stringify(answer?.body ?? {}));
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { seen, baseUrl: `http://127.0.0.1:${port}` };
}

const problem = (status: number, code: string) => ({
  type: `/docs/errors/${code}`,
  title: code,
  status,
  detail: `${code} happened`,
  code,
  request_id: 'req-test',
});

/** An agent client against the scripted server that retries `maxRetries` times at once. */
const agentRetrying = (baseUrl: string, maxRetries: number) =>
  createHandoffClient({ baseUrl, apiKey: 'hk_live_test', retry: { maxRetries, baseDelayMs: 1 } });

const EMPTY_LIST = { object: 'list', data: [], has_more: false };

/** A 200 answer with one page of a list of `object`s. */
const listPage = (object: string, ids: string[], hasMore: boolean, fields = {}) => ({
  status: 200,
  body: {
    object: 'list',
    has_more: hasMore,
    data: ids.map((id) => ({ id, object, ...fields })),
  },
});

const created = {
  object: 'request',
  id: 'req_1',
  request_token: 'hrt_1',
};

describe('paging', () => {
  it('follows starting_after until has_more is false, one page at a time', async () => {
    const events = { type: 'request.created' };
    const { seen, baseUrl } = await scripted([
      listPage('event', ['evt_3', 'evt_2'], true, events),
      listPage('event', ['evt_1'], false, events),
    ]);
    const client = createHandoffClient({ baseUrl, apiKey: 'hk_live_test' });
    const ids: string[] = [];
    for await (const event of client.events.list({ request_id: 'req_1' })) ids.push(event.id);
    expect(ids).toEqual(['evt_3', 'evt_2', 'evt_1']);
    expect(
      seen.map((call) => new URL(call.url, baseUrl).searchParams.get('starting_after')),
    ).toEqual([null, 'evt_2']);
    expect(new URL(seen[1]?.url ?? '', baseUrl).searchParams.get('request_id')).toBe('req_1');
  });
});

describe('provider and staff clients', () => {
  it('page the provider lists with their filters, through `for await`', async () => {
    const jobs = { status: 'active' };
    const { seen, baseUrl } = await scripted([
      listPage('job', ['job_2'], true, jobs),
      listPage('job', ['job_1'], false, jobs),
    ]);
    const provider = createProviderClient({ baseUrl, apiKey: 'hpk_live_test' });
    const ids: string[] = [];
    for await (const job of provider.jobs.list({ status: 'active' })) ids.push(job.id);
    expect(ids).toEqual(['job_2', 'job_1']);
    const urls = seen.map((call) => new URL(call.url, baseUrl));
    expect(urls.map((url) => url.pathname)).toEqual(['/v1/provider/jobs', '/v1/provider/jobs']);
    expect(urls.map((url) => url.searchParams.get('starting_after'))).toEqual([null, 'job_2']);
    expect(urls.map((url) => url.searchParams.get('status'))).toEqual(['active', 'active']);
  });

  it('retry a staff action with one Idempotency-Key and throw its problem typed', async () => {
    const { seen, baseUrl } = await scripted([
      { status: 503, body: problem(503, 'service_unavailable') },
      { status: 409, body: problem(409, 'invalid_state_transition') },
    ]);
    const staff = createStaffClient({
      baseUrl,
      token: 'staff.jwt',
      retry: { maxRetries: 2, baseDelayMs: 1 },
    });
    const failure = await staff.paymentRequests.approve('pr_1').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(HandoffError);
    expect(failure).toMatchObject({ status: 409, code: 'invalid_state_transition' });
    expect(seen.map((call) => `${call.method} ${call.url}`)).toEqual([
      'POST /v1/staff/payment-requests/pr_1/approve',
      'POST /v1/staff/payment-requests/pr_1/approve',
    ]);
    expect(new Set(seen.map((call) => call.idempotencyKey)).size).toBe(1);
    expect(seen[0]?.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('keep the generated client reachable as `api`', async () => {
    const { seen, baseUrl } = await scripted([
      { status: 200, body: { object: 'provider', id: 'prv_1' } },
    ]);
    const provider = createProviderClient({ baseUrl, apiKey: 'hpk_live_test' });
    const me = await provider.api.GET('/v1/provider/me');
    expect(me.data).toMatchObject({ id: 'prv_1' });
    expect(seen.map((call) => call.url)).toEqual(['/v1/provider/me']);
  });
});

describe('the calls of the clients', () => {
  const agent = (baseUrl: string) => {
    const client = createHandoffClient({ baseUrl, apiKey: 'hk_live_test' });
    client.requests.useToken('req_1', 'hrt_1');
    return client;
  };
  const provider = (baseUrl: string) => createProviderClient({ baseUrl, apiKey: 'hpk_live_test' });
  const staff = (baseUrl: string) => createStaffClient({ baseUrl, token: 'staff.jwt' });

  it.each([
    {
      call: (base: string) => agent(base).requests.proposals.decline('req_1', 'prp_1'),
      sent: 'POST /v1/request/req_1/proposals/prp_1/decline {} hrt_1',
    },
    {
      call: (base: string) =>
        agent(base).requests.milestones.get('req_2', 'ms_1', { token: 'hrt_2' }),
      sent: 'GET /v1/request/req_2/milestones/ms_1  hrt_2',
    },
    {
      call: (base: string) =>
        toArray(agent(base).requests.disputes.list('req_1', { status: 'open' })),
      sent: 'GET /v1/request/req_1/disputes?status=open&limit=100  hrt_1',
    },
    {
      call: (base: string) => agent(base).requests.sendMessage('req_1', { message: 'Hi' }),
      sent: 'POST /v1/request/req_1/message {"message":"Hi"} hrt_1',
    },
    {
      call: (base: string) => agent(base).requests.cancel('req_1'),
      sent: 'POST /v1/request/req_1/cancel {} hrt_1',
    },
    {
      call: (base: string) =>
        agent(base).requests.cancel('req_2', { reason: 'Solved.' }, { token: 'hrt_2' }),
      sent: 'POST /v1/request/req_2/cancel {"reason":"Solved."} hrt_2',
    },
    {
      call: (base: string) => agent(base).webhookEndpoints.delete('we_1'),
      sent: 'DELETE /v1/webhook-endpoints/we_1  -',
    },
    {
      call: (base: string) => provider(base).milestones.reportProgress('ms_1', { progress: 50 }),
      sent: 'POST /v1/provider/milestones/ms_1/progress {"progress":50} -',
    },
    {
      call: (base: string) => provider(base).milestones.submit('ms_1'),
      sent: 'POST /v1/provider/milestones/ms_1/submit {} -',
    },
    {
      call: (base: string) => staff(base).providers.revokeKey('pk_1'),
      sent: 'POST /v1/staff/provider-keys/pk_1/revoke  -',
    },
    {
      call: (base: string) => staff(base).integrations.rotateWebhookSecret('int_1', 'we_1'),
      sent: 'POST /v1/staff/integrations/int_1/webhook-endpoints/we_1/rotate-secret {} -',
    },
    {
      call: (base: string) => toArray(staff(base).integrations.webhookAttempts('int_1', 'we_1')),
      sent: 'GET /v1/staff/integrations/int_1/webhook-endpoints/we_1/attempts?limit=100  -',
    },
  ])('$sent', async ({ call, sent }) => {
    const { seen, baseUrl } = await scripted([{ status: 200, body: EMPTY_LIST }]);
    await call(baseUrl);
    expect(seen.map((it) => `${it.method} ${it.url} ${it.body} ${it.requestToken ?? '-'}`)).toEqual(
      [sent],
    );
  });

  it('refuse a call under a request whose token they do not have, before sending it', async () => {
    const { seen, baseUrl } = await scripted([{ status: 200, body: EMPTY_LIST }]);
    const client = createHandoffClient({ baseUrl, apiKey: 'hk_live_test' });
    expect(() => client.requests.jobs.get('req_9', 'job_1')).toThrow(/No request token for req_9/);
    await expect(toArray(client.requests.jobs.list('req_9'))).rejects.toThrow(/req_9/);
    expect(seen).toEqual([]);
  });
});

describe('retries and idempotency keys', () => {
  it('retries a POST after 429, 503 and a busy key, with one Idempotency-Key throughout', async () => {
    const { seen, baseUrl } = await scripted([
      { status: 429, headers: { 'Retry-After': '0' }, body: problem(429, 'rate_limited') },
      { status: 503, body: problem(503, 'service_unavailable') },
      { status: 409, body: problem(409, 'idempotency_key_in_use') },
      { status: 201, body: created },
    ]);
    const client = agentRetrying(baseUrl, 3);
    const answer = await client.requests.create({ message: 'Hello' });
    expect(answer.id).toBe('req_1');
    expect(seen).toHaveLength(4);
    const keys = new Set(seen.map((call) => call.idempotencyKey));
    expect(keys.size).toBe(1);
    expect([...keys][0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen.every((call) => call.body === '{"message":"Hello"}')).toBe(true);
  });

  it('waits the Retry-After seconds a 429 asks for before retrying', async () => {
    const { seen, baseUrl } = await scripted([
      { status: 429, headers: { 'Retry-After': '1' }, body: problem(429, 'rate_limited') },
      { status: 200, body: EMPTY_LIST },
    ]);
    // A backoff of about a millisecond: only the header can make the retry wait a second.
    const client = agentRetrying(baseUrl, 1);
    await client.services();
    expect(seen).toHaveLength(2);
    const [first, second] = seen;
    // Timers may fire a millisecond or two early against the wall clock; never 10 ms.
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(990);
  });

  it('waits until the HTTP date a Retry-After names before retrying', async () => {
    // The next whole second and one more: an HTTP date has no fractions.
    const until = new Date(Math.ceil(Date.now() / 1000) * 1000 + 1000);
    const { seen, baseUrl } = await scripted([
      {
        status: 503,
        headers: { 'Retry-After': until.toUTCString() },
        body: problem(503, 'service_unavailable'),
      },
      { status: 200, body: EMPTY_LIST },
    ]);
    const client = agentRetrying(baseUrl, 1);
    await client.services();
    expect(seen).toHaveLength(2);
    expect(seen[1]?.at ?? 0).toBeGreaterThanOrEqual(until.getTime() - 10);
  });

  it('gives up after the last retry with the typed problem', async () => {
    const { seen, baseUrl } = await scripted([
      { status: 503, headers: { 'Retry-After': '0' }, body: problem(503, 'service_unavailable') },
    ]);
    const client = agentRetrying(baseUrl, 2);
    const error = await client.capabilities().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HandoffError);
    expect(error).toMatchObject({ status: 503, code: 'service_unavailable', retryAfterSeconds: 0 });
    expect(seen).toHaveLength(3);
    expect(seen[0]?.idempotencyKey).toBeUndefined();
  });

  it('does not retry a client error', async () => {
    const { seen, baseUrl } = await scripted([
      { status: 403, body: problem(403, 'insufficient_scope') },
    ]);
    const client = createHandoffClient({ baseUrl, apiKey: 'hk_live_test' });
    await expect(client.me()).rejects.toMatchObject({ status: 403, code: 'insufficient_scope' });
    expect(seen).toHaveLength(1);
  });

  it('reports a connection error after retrying it', async () => {
    const { baseUrl } = await scripted([{ status: 200, body: {} }]);
    await stop();
    const client = agentRetrying(baseUrl, 1);
    await expect(client.services()).rejects.toBeInstanceOf(HandoffConnectionError);
  });
});
