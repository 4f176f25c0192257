import { beforeAll, describe, expect, it } from '@jest/globals';
import { eventually } from '@handoff/testkit';
import { address, http, type Onboarded } from './support/http.ts';
import { useStack, type OwnedRequest, type ProviderAccount } from './support/stack.ts';

const stack = useStack('gw_staff_engagement');
let agent: Onboarded;
let plumber: ProviderAccount;

beforeAll(async () => {
  [agent, plumber] = await Promise.all([stack.agentOf(), stack.providerOf()]);
});

type Row = Record<string, unknown> & { id: string; status: string };
const rows = (body: Record<string, unknown>) => body.data as Row[];

/** A payment request proposed by the agent and approved by staff: its payment (manual provider). */
async function approvedPayment(request: OwnedRequest, amount: number) {
  const proposed = await stack.asCustomer(agent, request, '/payment-request', {
    body: { amount, description: 'Parts and labour' },
  });
  expect(proposed.status).toBe(201);
  const approved = await stack.asStaff(`/payment-requests/${String(proposed.body.id)}/approve`, {
    method: 'POST',
  });
  expect(approved).toMatchObject({ status: 200, body: { status: 'approved' } });
  return eventually(async () => {
    const list = await stack.asStaff(`/payments?request_id=${request.id}&status=pending`);
    const found = rows(list.body).find((p) => p.payment_request_id === proposed.body.id);
    if (!found) throw new Error('no payment yet');
    return found;
  });
}

describe('payments, for staff', () => {
  let request: OwnedRequest;

  beforeAll(async () => {
    request = await stack.requestOf(agent);
  });

  it('are created by an approved payment request, and confirmed by staff (manual provider)', async () => {
    const payment = await approvedPayment(request, 125.5);
    expect(payment).toMatchObject({
      object: 'payment',
      id: expect.stringMatching(/^pay_/),
      request_id: request.id,
      amount: 125.5,
      currency: 'USD',
      provider: 'manual',
      status: 'pending',
      deadline_at: expect.any(String),
    });
    expect(await stack.asStaff(`/payments/${payment.id}`)).toMatchObject({
      status: 200,
      body: { id: payment.id },
    });
    const confirmed = await stack.asStaff(`/payments/${payment.id}/confirm`, {
      body: { reference: 'bank transfer 4711' },
    });
    expect(confirmed).toMatchObject({
      status: 200,
      body: {
        status: 'completed',
        provider_reference: 'bank transfer 4711',
        completed_at: expect.any(String),
        deadline_at: null,
      },
    });
    const again = await stack.asStaff(`/payments/${payment.id}/confirm`, { method: 'POST' });
    expect(again).toMatchObject({
      status: 409,
      body: {
        code: 'invalid_state_transition',
        resource: 'payment',
        current_state: 'completed',
        allowed_actions: [],
      },
    });
    const completed = await stack.asStaff(`/payments?status=completed&request_id=${request.id}`);
    expect(rows(completed.body).map((p) => p.id)).toEqual([payment.id]);
  });

  it('can be marked failed with a reason', async () => {
    const payment = await approvedPayment(request, 10);
    expect(await stack.asStaff(`/payments/${payment.id}/fail`, { body: {} })).toMatchObject({
      status: 422,
      body: { errors: [{ pointer: '/reason' }] },
    });
    expect(
      await stack.asStaff(`/payments/${payment.id}/fail`, { body: { reason: 'Card declined.' } }),
    ).toMatchObject({ status: 200, body: { status: 'failed', failure_reason: 'Card declined.' } });
  });

  it('answer payment_not_found for an unknown id, and validate their queries', async () => {
    await stack.staffRefused(404, 'payment_not_found', [
      ['/payments/pay_unknown', {}],
      ['/payments/pay_unknown/confirm', { method: 'POST' }],
    ]);
    expect(await stack.asStaff('/payments?status=refunded')).toMatchObject({
      status: 422,
      body: { errors: [{ pointer: '/query/status' }] },
    });
    expect(
      await stack.asStaff('/payments/pay_x/confirm', { body: { reference: 'x', amount: 1 } }),
    ).toMatchObject({ status: 422, body: { errors: [{ pointer: '/amount' }] } });
  });

  it('are staff’s only: agents and providers get 401', async () => {
    for (const token of [agent.key, plumber.key]) {
      expect(
        (await http(stack.gateway, '/v1/staff/payments', { token, from: address() })).status,
      ).toBe(401);
    }
  });
});

describe('GET /v1/staff/deadlines', () => {
  let request: OwnedRequest;

  beforeAll(async () => {
    // Waiting on the customer: a submitted proposal (milestones service); waiting on staff: a
    // pending payment request, and on the payment provider: a pending payment (payments service).
    request = await stack.routedRequest(agent, [plumber]);
    await stack.propose(plumber, request.id);
    const pending = await stack.asCustomer(agent, request, '/payment-request', {
      body: { amount: 5, description: 'Call-out fee' },
    });
    expect(pending.status).toBe(201);
    await approvedPayment(request, 7);
  });

  const list = (query = '') => stack.asStaff(`/deadlines${query}`);

  it('merges both services’ waiting resources, soonest deadline first', async () => {
    const answer = await list('?limit=500');
    expect(answer).toMatchObject({ status: 200, body: { object: 'list', has_more: false } });
    const items = rows(answer.body) as unknown as {
      resource: string;
      request_id: string;
      deadline_at: string;
      overdue: boolean;
      consequence: string;
      waiting_on: string;
    }[];
    const mine = items.filter((item) => item.request_id === request.id);
    expect(new Set(mine.map((item) => item.resource))).toEqual(
      new Set(['proposal', 'payment_request', 'payment']),
    );
    for (const item of mine) {
      expect(item).toMatchObject({
        object: 'deadline',
        overdue: false,
        consequence: expect.any(String),
        waiting_on: expect.any(String),
      });
    }
    const times = items.map((item) => Date.parse(item.deadline_at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('pages with limit and says when there is more', async () => {
    const all = rows((await list('?limit=500')).body);
    expect(all.length).toBeGreaterThanOrEqual(3);
    const first = await list('?limit=1');
    expect(first.body).toMatchObject({ has_more: true });
    expect(rows(first.body)).toEqual([all[0]]);
    const two = await list('?limit=2');
    expect(rows(two.body)).toEqual(all.slice(0, 2));
  });

  it('filters by time and by being overdue', async () => {
    expect(rows((await list('?overdue=true')).body)).toEqual([]);
    expect(rows((await list(`?before=${new Date().toISOString()}`)).body)).toEqual([]);
    const later = new Date(Date.now() + 400 * 24 * 60 * 60 * 1000).toISOString();
    expect(rows((await list(`?before=${later}&overdue=false&limit=500`)).body).length).toBe(
      rows((await list('?limit=500')).body).length,
    );
  });

  it('validates its query', async () => {
    expect(await list('?limit=0')).toMatchObject({
      status: 422,
      body: { errors: [{ pointer: '/query/limit' }] },
    });
    expect(await list('?overdue=maybe')).toMatchObject({
      status: 422,
      body: { errors: [{ pointer: '/query/overdue' }] },
    });
    expect(await list('?before=tomorrow')).toMatchObject({
      status: 422,
      body: { errors: [{ pointer: '/query/before' }] },
    });
  });
});

describe('POST /v1/webhooks/stripe', () => {
  const post = (body: string, headers: Record<string, string>) =>
    fetch(`${stack.gateway.url}/v1/webhooks/stripe`, {
      method: 'POST',
      headers: { 'X-Forwarded-For': address(), ...headers },
      body,
    });

  it('answers 400 signature_invalid when no Stripe webhook verifies it (manual provider here)', async () => {
    const payload = JSON.stringify({
      id: 'evt_1',
      object: 'event',
      type: 'x',
      data: { object: {} },
    });
    const refused = await post(payload, {
      'Content-Type': 'application/json',
      'Stripe-Signature': 't=1,v1=00',
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ code: 'signature_invalid' });
    const unsigned = await post(payload, { 'Content-Type': 'application/json' });
    expect(unsigned.status).toBe(400);
    expect(await unsigned.json()).toMatchObject({ code: 'signature_invalid' });
  });

  it('takes JSON only, within its size limit', async () => {
    const text = await post('hello', { 'Content-Type': 'text/plain', 'Stripe-Signature': 'x' });
    expect(text.status).toBe(415);
    const big = await post(`{"x":"${'a'.repeat(600 * 1024)}"}`, {
      'Content-Type': 'application/json',
      'Stripe-Signature': 'x',
    });
    expect(big.status).toBe(413);
  });
});
