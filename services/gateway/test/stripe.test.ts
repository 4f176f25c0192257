import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eventually, findBinary, freePort } from '@handoff/testkit';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { connect } from 'node:net';
import { address, type Onboarded } from './support/http.ts';
import { startStack, type Stack } from './support/stack.ts';

/**
 * The Stripe webhook route against a payments service running the Stripe processor on
 * stripe-mock: the gateway must hand over the body's exact bytes and the `Stripe-Signature`
 * header, since only the payments service holds the webhook secret and verifies them.
 */

const WEBHOOK_SECRET = 'whsec_gatewaytest0123456789';
let stack: Stack;
let agent: Onboarded;
let stripeMock: ChildProcess | undefined;

async function startStripeMock(): Promise<string> {
  const binary = await findBinary(['stripe-mock']);
  if (!binary) throw new Error('stripe-mock is not installed (npm run setup builds it)');
  const port = await freePort();
  stripeMock = spawn(binary, ['-http-addr', `127.0.0.1:${port}`, '-https-addr', '127.0.0.1:0'], {
    stdio: 'ignore',
  });
  await eventually(
    () =>
      new Promise<boolean>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1');
        socket.once('connect', () => {
          socket.end();
          resolve(true);
        });
        socket.once('error', reject);
      }),
    { what: 'stripe-mock to listen' },
  );
  return `http://127.0.0.1:${port}`;
}

beforeAll(async () => {
  const apiUrl = await startStripeMock();
  stack = await startStack('gw_stripe', {
    env: {
      payments: {
        PAYMENT_PROVIDER: 'stripe',
        STRIPE_SECRET_KEY: 'sk_test_gateway',
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_URL: apiUrl,
      },
    },
  });
  agent = await stack.agentOf();
});

afterAll(async () => {
  await stack?.stop();
  stripeMock?.kill();
});

/** Stripe's signature scheme: `t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. */
function sign(payload: string, secret = WEBHOOK_SECRET, at = Math.floor(Date.now() / 1000)) {
  const v1 = createHmac('sha256', secret).update(`${at}.${payload}`).digest('hex');
  return `t=${at},v1=${v1}`;
}

const deliver = (payload: string, signature?: string) =>
  fetch(`${stack.gateway.url}/v1/webhooks/stripe`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'X-Forwarded-For': address(),
      ...(signature === undefined ? {} : { 'Stripe-Signature': signature }),
    },
    body: payload,
  });

/**
 * An event with the layout a JSON parser would not keep (indentation, key order, an escaped
 * character): if the gateway parsed and re-serialized it, the signature would no longer match.
 */
function event(type: string, intent: Record<string, unknown>) {
  return `{
  "id": "evt_gateway_${Math.random().toString(36).slice(2)}",
  "object": "event",
  "type": "${type}",
  "api_version": "2024-06-20",
  "note": "caf\\u00e9",
  "data": {"object": ${JSON.stringify({ object: 'payment_intent', ...intent }, null, 4)}}
}`;
}

describe('POST /v1/webhooks/stripe', () => {
  it('completes a Stripe payment when Stripe reports the PaymentIntent succeeded', async () => {
    const request = await stack.requestOf(agent);
    const proposed = await stack.asCustomer(agent, request, '/payment-request', {
      body: { amount: 125.5, description: 'Parts and labour' },
    });
    expect(proposed.status).toBe(201);
    const approved = await stack.asStaff(`/payment-requests/${String(proposed.body.id)}/approve`, {
      method: 'POST',
    });
    expect(approved.status).toBe(200);
    const payment = await eventually(async () => {
      const list = await stack.asStaff(`/payments?request_id=${request.id}`);
      const [found] = list.body.data as Record<string, unknown>[];
      if (!found?.provider_reference) throw new Error('no PaymentIntent yet');
      return found;
    });
    expect(payment).toMatchObject({ provider: 'stripe', status: 'pending' });
    // Staff do not confirm what Stripe confirms.
    expect(
      await stack.asStaff(`/payments/${String(payment.id)}/confirm`, { method: 'POST' }),
    ).toMatchObject({ status: 409, body: { code: 'provider_confirms' } });

    const payload = event('payment_intent.succeeded', {
      id: payment.provider_reference,
      amount: 12550,
      currency: 'usd',
      status: 'succeeded',
      metadata: { payment_id: payment.id },
    });
    const answer = await deliver(payload, sign(payload));
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ received: true });
    expect(await stack.asStaff(`/payments/${String(payment.id)}`)).toMatchObject({
      status: 200,
      body: { status: 'completed', completed_at: expect.any(String) },
    });
  });

  it('acknowledges verified events it has no use for', async () => {
    const payload = event('customer.created', { id: 'pi_unrelated', amount: 1, currency: 'usd' });
    const answer = await deliver(payload, sign(payload));
    expect(answer.status).toBe(200);
    const unknown = event('payment_intent.succeeded', {
      id: 'pi_not_ours',
      amount: 100,
      currency: 'usd',
    });
    expect((await deliver(unknown, sign(unknown))).status).toBe(200);
  });

  it('refuses what does not verify with 400 signature_invalid', async () => {
    const payload = event('payment_intent.succeeded', { id: 'pi_x', amount: 1, currency: 'usd' });
    const cases = [
      undefined,
      '',
      sign(payload, 'whsec_someoneelse'),
      sign(`${payload} `),
      sign(payload, WEBHOOK_SECRET, Math.floor(Date.now() / 1000) - 3600),
      'garbage',
    ];
    for (const signature of cases) {
      const answer = await deliver(payload, signature);
      expect([signature, answer.status]).toEqual([signature, 400]);
      expect(await answer.json()).toMatchObject({ code: 'signature_invalid', status: 400 });
    }
  });
});
