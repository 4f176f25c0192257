// The Stripe processor through the official SDK against a real stripe-mock process: approval
// creates a PaymentIntent, and completion arrives as a signed Stripe webhook.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { call } from '@handoff/bus';
import { EnvError } from '@handoff/config';
import { Payment, paymentRecordOps } from '@handoff/contracts';
import { eventually, startStripeMock, type StripeMock } from '@handoff/testkit';
import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { readEnv } from '../src/env.ts';
import { opts, staff, startStack, type Stack } from './support/stack.ts';

const SECRET_KEY = `sk_test_${randomBytes(12).toString('hex')}`;
const WEBHOOK_SECRET = `whsec_${randomBytes(24).toString('base64url')}`;

let mock: StripeMock;
let stack: Stack;

beforeAll(async () => {
  mock = await startStripeMock();
  stack = await startStack('stripe', {
    PAYMENT_PROVIDER: 'stripe',
    STRIPE_SECRET_KEY: SECRET_KEY,
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_URL: mock.url,
  });
});

afterAll(async () => {
  await stack.stop();
  await mock.stop();
});

interface IntentFields {
  id: string;
  amount: number;
  currency: string;
  metadata?: Record<string, string>;
  last_payment_error?: { code: string; decline_code?: string; message: string };
}

/** A Stripe event as Stripe sends it: the raw body and its `Stripe-Signature`. */
function stripeWebhook(type: string, intent: IntentFields, secret = WEBHOOK_SECRET) {
  const payload = JSON.stringify(
    {
      id: `evt_${randomBytes(12).toString('hex')}`,
      object: 'event',
      api_version: Stripe.API_VERSION,
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      data: {
        object: {
          object: 'payment_intent',
          metadata: {},
          status: type === 'payment_intent.succeeded' ? 'succeeded' : 'requires_payment_method',
          ...intent,
        },
      },
    },
    null,
    2,
  );
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret });
  return { payload, signature };
}

const deliver = (webhook: { payload: string; signature: string }) =>
  call(stack.nc, paymentRecordOps.stripeWebhook, webhook, opts);

/** An approved payment whose PaymentIntent stripe-mock has created. */
async function chargedPayment(amount = 42.5, currency = 'USD') {
  const approved = await stack.approvedPayment(amount, currency);
  const payment = await eventually(async () => {
    const current = await call(stack.nc, paymentRecordOps.get, { id: approved.payment.id }, opts);
    return current.provider_reference ? current : undefined;
  });
  const intent: IntentFields = {
    id: payment.provider_reference ?? '',
    amount: Math.round(amount * 100),
    currency: currency.toLowerCase(),
    metadata: { payment_id: payment.id },
  };
  return { ...approved, payment, intent };
}

describe('approval with the Stripe processor', () => {
  it('creates a PaymentIntent on stripe-mock and keeps its id', async () => {
    const { payment, paymentRequest } = await chargedPayment(19.99);
    expect(Payment.parse(payment)).toMatchObject({
      payment_request_id: paymentRequest.id,
      provider: 'stripe',
      status: 'pending',
      amount: 19.99,
      currency: 'USD',
    });
    expect(payment.provider_reference).toMatch(/^pi_/);
    expect(await stack.rawPayments().findOne({ _id: payment.id })).toMatchObject({
      amount_minor: 1999,
      charged_at: expect.any(Date),
    });
  });

  it('staff cannot confirm it: Stripe reports completion (provider_confirms)', async () => {
    const { payment } = await chargedPayment();
    await expect(
      call(stack.nc, paymentRecordOps.confirm, { id: payment.id, actor: staff.actor }, opts),
    ).rejects.toMatchObject({ code: 'provider_confirms' });
  });
});

describe('Stripe webhooks', () => {
  it('payment_intent.succeeded, verified, completes the payment and publishes payment.completed', async () => {
    const { payment, intent, requestId } = await chargedPayment(250);
    const webhook = stripeWebhook('payment_intent.succeeded', intent);
    expect(await deliver(webhook)).toEqual({ received: true, payment_id: payment.id });

    const completed = await call(stack.nc, paymentRecordOps.get, { id: payment.id }, opts);
    expect(completed).toMatchObject({
      status: 'completed',
      provider_reference: intent.id,
      completed_at: expect.any(String),
      deadline_at: null,
    });
    const [event] = await stack.waitForEvents(payment.id, 'payment.completed');
    expect(event?.event.data).toMatchObject({ request_id: requestId, object: completed });

    // Stripe delivers at least once: the same webhook again changes nothing.
    expect(await deliver(webhook)).toEqual({ received: true, payment_id: payment.id });
    expect(await deliver(stripeWebhook('payment_intent.succeeded', intent))).toEqual({
      received: true,
      payment_id: payment.id,
    });
    await stack.settle();
    expect(stack.eventsAbout(payment.id, 'payment.completed')).toHaveLength(1);
    expect(await call(stack.nc, paymentRecordOps.get, { id: payment.id }, opts)).toEqual(completed);
    expect(await stack.paymentsOf(requestId)).toHaveLength(1);
  });

  it('refuses a bad signature as signature_invalid and changes nothing', async () => {
    const { payment, intent } = await chargedPayment();
    // Published messages leave the outbox in a batch; compare settled documents.
    await stack.service.outbox.flush();
    const before = await stack.rawPayments().findOne({ _id: payment.id });
    const forged = stripeWebhook('payment_intent.succeeded', intent, 'whsec_not-the-secret');
    await expect(deliver(forged)).rejects.toMatchObject({ code: 'signature_invalid' });
    const genuine = stripeWebhook('payment_intent.succeeded', intent);
    // A body changed after signing, and a signature without the body it signed.
    await expect(
      deliver({
        payload: genuine.payload.replace('"amount": 4250', '"amount": 1'),
        signature: genuine.signature,
      }),
    ).rejects.toMatchObject({ code: 'signature_invalid' });
    await expect(deliver({ payload: genuine.payload, signature: 'garbage' })).rejects.toMatchObject(
      {
        code: 'signature_invalid',
      },
    );
    await stack.settle();
    expect(await stack.rawPayments().findOne({ _id: payment.id })).toEqual(before);
    expect(stack.eventsAbout(payment.id)).toEqual([]);
  });

  it('payment_intent.payment_failed fails the payment with the decline code', async () => {
    const { payment, intent } = await chargedPayment();
    const webhook = stripeWebhook('payment_intent.payment_failed', {
      ...intent,
      last_payment_error: {
        code: 'card_declined',
        decline_code: 'insufficient_funds',
        message: 'Your card has insufficient funds.',
      },
    });
    expect(await deliver(webhook)).toEqual({ received: true, payment_id: payment.id });
    expect(await call(stack.nc, paymentRecordOps.get, { id: payment.id }, opts)).toMatchObject({
      status: 'failed',
      failure_reason: 'insufficient_funds',
    });
    expect(await deliver(webhook)).toEqual({ received: true, payment_id: payment.id });
    await stack.settle();
    // One payment.failed (an extension kind), however often Stripe repeats the notification.
    expect(stack.eventsAbout(payment.id).map((e) => e.event.type)).toEqual(['payment.failed']);
  });

  it('finds the payment by the metadata when the intent id is not stored yet', async () => {
    const { payment, intent } = await chargedPayment();
    await stack
      .rawPayments()
      .updateOne({ _id: payment.id }, { $set: { provider_reference: null } });
    const result = await deliver(stripeWebhook('payment_intent.succeeded', intent));
    expect(result).toEqual({ received: true, payment_id: payment.id });
    expect(await call(stack.nc, paymentRecordOps.get, { id: payment.id }, opts)).toMatchObject({
      status: 'completed',
      provider_reference: intent.id,
    });
  });

  it('acknowledges other event types and intents of no payment of ours', async () => {
    const { intent } = await chargedPayment();
    expect(await deliver(stripeWebhook('payment_intent.created', intent))).toEqual({
      received: true,
      payment_id: null,
    });
    expect(
      await deliver(
        stripeWebhook('payment_intent.succeeded', {
          id: 'pi_notours',
          amount: 100,
          currency: 'usd',
        }),
      ),
    ).toEqual({ received: true, payment_id: null });
  });

  it('refuses a success for another amount (amount_mismatch) and changes nothing', async () => {
    const { payment, intent } = await chargedPayment(10);
    await expect(
      deliver(stripeWebhook('payment_intent.succeeded', { ...intent, amount: 1 })),
    ).rejects.toMatchObject({ code: 'amount_mismatch' });
    expect(await call(stack.nc, paymentRecordOps.get, { id: payment.id }, opts)).toMatchObject({
      status: 'pending',
    });
  });
});

describe('secrets', () => {
  it('never reach the log', async () => {
    await chargedPayment();
    // Even settings handed to a log call by mistake are redacted.
    stack.service.logger.warn(
      { STRIPE_SECRET_KEY: SECRET_KEY, env: { STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET } },
      'settings',
    );
    const lines = stack.logLines.join('\n');
    expect(lines).toContain('[redacted]');
    expect(lines.length).toBeGreaterThan(0);
    expect(lines).not.toContain(SECRET_KEY);
    expect(lines).not.toContain(WEBHOOK_SECRET);
  });
});

describe('configuration', () => {
  const base = { NATS_URL: 'nats://127.0.0.1:4222', MONGO_URL: 'mongodb://127.0.0.1:27017' };

  it('defaults to the manual processor', () => {
    expect(readEnv(base)).toMatchObject({ PAYMENT_PROVIDER: 'manual' });
  });

  it('refuses PAYMENT_PROVIDER=stripe without its key and webhook secret', () => {
    expect(() => readEnv({ ...base, PAYMENT_PROVIDER: 'stripe' })).toThrow(EnvError);
    expect(() => readEnv({ ...base, PAYMENT_PROVIDER: 'stripe' })).toThrow(
      /STRIPE_SECRET_KEY: is required[\s\S]*STRIPE_WEBHOOK_SECRET: is required/,
    );
  });

  it('refuses malformed Stripe settings, naming each without echoing it', () => {
    let error: unknown;
    try {
      readEnv({
        ...base,
        PAYMENT_PROVIDER: 'stripe',
        STRIPE_SECRET_KEY: 'pk_test_publishable',
        STRIPE_WEBHOOK_SECRET: 'not-a-secret',
        STRIPE_API_URL: 'ftp://stripe-mock',
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(EnvError);
    expect((error as EnvError).issues.map((issue) => issue.split(':')[0]).sort()).toEqual([
      'STRIPE_API_URL',
      'STRIPE_SECRET_KEY',
      'STRIPE_WEBHOOK_SECRET',
    ]);
    expect(String(error)).not.toContain('not-a-secret');
  });
});

// Last: it stops stripe-mock.
describe('when Stripe cannot be reached', () => {
  it('the approval still stands and the payment waits, uncharged, for the recovery sweep', async () => {
    await mock.stop();
    const { payment, paymentRequest } = await stack.approvedPayment();
    expect(await stack.rawRequests().findOne({ _id: paymentRequest.id })).toMatchObject({
      status: 'approved',
      payment_id: payment.id,
    });
    expect(payment).toMatchObject({ status: 'pending', provider_reference: null });
    expect(await stack.rawPayments().findOne({ _id: payment.id })).toMatchObject({
      charged_at: null,
    });
    const later = new Date(Date.now() + 10 * 60_000);
    expect(await stack.service.sweeps.recover(later)).toMatchObject({ charged: 0 });
    expect(await stack.rawPayments().findOne({ _id: payment.id })).toMatchObject({
      status: 'pending',
      charged_at: null,
    });
    const warnings = stack.logLines.filter(
      (line) => line.includes(payment.id) || /charg/.test(line),
    );
    console.log(warnings);
    expect(warnings.length).toBeGreaterThanOrEqual(2);
    expect(stack.logLines.join('\n')).not.toContain(SECRET_KEY);
  });

  it('a test request’s payment never reaches Stripe: the test processor takes it, test mode settles it', async () => {
    const { requestId, payment } = await stack.approvedPayment(42.5, 'USD', false);
    expect(payment).toMatchObject({
      provider: 'test',
      status: 'pending',
      provider_reference: null,
    });
    // Charged at once, though Stripe cannot be reached: nothing was asked of it.
    expect(await stack.rawPayments().findOne({ _id: payment.id })).toMatchObject({
      charged_at: expect.any(Date),
    });
    const confirmed = await call(
      stack.nc,
      paymentRecordOps.confirm,
      { id: payment.id, actor: 'system:test-mode', reference: 'test' },
      opts,
    );
    expect(confirmed).toMatchObject({ provider: 'test', status: 'completed' });
    const [completed] = await stack.waitForEvents(payment.id, 'payment.completed');
    expect(completed?.event).toMatchObject({ livemode: false, data: { request_id: requestId } });
  });
});
