// The real stack a payments test runs against: intake (it owns requests and hands out event
// sequences) and payments on the worker's NATS and database, plus a feed of HANDOFF_EVENTS.
import { call } from '@handoff/bus';
import {
  EVENTS_STREAM,
  EventEnvelope,
  paymentOps,
  paymentRecordOps,
  requestOps,
  sha256Hex,
  type EventType,
} from '@handoff/contracts';
import { bootstrap as bootstrapIntake } from '@handoff/intake';
import { createLogger } from '@handoff/observability';
import { natsEnv, natsOptions, testServers, uniqueDatabase, eventually } from '@handoff/testkit';
import { jetstream, type ConsumerMessages } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { Writable } from 'node:stream';
import { bootstrap } from '../src/bootstrap.ts';
import type { PaymentDoc, PaymentRequestDoc } from '../src/domain/documents.ts';
import { PAYMENT_REQUESTS, PAYMENTS } from '../src/store/collections.ts';

export type Payments = Awaited<ReturnType<typeof bootstrap>>;
type Intake = Awaited<ReturnType<typeof bootstrapIntake>>;

export const opts = { timeoutMs: 10_000 };
export const integration_id = 'int_test';
export const staff = { actor: 'staff-1@handoff.test', request_id: 'req-audit-1' };

interface Received {
  subject: string;
  payload: { type?: string; data?: { request_id?: unknown; object?: { id?: unknown } } };
}

export interface Stack {
  service: Payments;
  intake: Intake;
  nc: NatsConnection;
  /** Every line the payments service logged. */
  logLines: string[];
  received: Received[];
  stop(): Promise<void>;
}

/** Starts intake and payments (with `env` added to the payments service's environment). */
export async function startStack(label: string, env: Record<string, string> = {}): Promise<Stack> {
  const base = (name: string) => ({
    // Each service as its own NATS user, as in production.
    ...natsEnv(name === 'intake' ? 'intake' : 'payments'),
    MONGO_URL: testServers().mongoUrl,
    MONGO_DB: uniqueDatabase(`${label}${name}`),
    HEALTH_PORT: '0',
    LOG_LEVEL: 'silent',
  });
  const logLines: string[] = [];
  const logger = createLogger({
    service: 'payments',
    version: 'test',
    level: 'debug',
    destination: new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    }),
  });
  const intake = await bootstrapIntake({ env: base('intake') });
  const service = await bootstrap({ env: { ...base('payments'), ...env }, logger });
  const nc = await connect({ ...natsOptions() });
  const consumer = await jetstream(nc).consumers.get(EVENTS_STREAM.name, {
    filter_subjects: ['handoff.events.>'],
  });
  const feed: ConsumerMessages = await consumer.consume();
  const received: Received[] = [];
  void (async () => {
    for await (const msg of feed) received.push({ subject: msg.subject, payload: msg.json() });
  })();
  return {
    service,
    intake,
    nc,
    logLines,
    received,
    async stop() {
      await feed.close();
      await nc.close();
      await service.stop();
      await intake.stop();
    },
  };
}

export const rawRequests = (stack: Stack) =>
  stack.service.store.db.collection<PaymentRequestDoc>(PAYMENT_REQUESTS);
export const rawPayments = (stack: Stack) =>
  stack.service.store.db.collection<PaymentDoc>(PAYMENTS);

export async function newRequest(stack: Stack): Promise<string> {
  const created = await call(
    stack.nc,
    requestOps.create,
    { integration_id, token_hash: sha256Hex('hrt_x'), input: { message: 'hi' } },
    opts,
  );
  return created.id;
}

export function createPaymentRequest(
  stack: Stack,
  request_id: string,
  input: { amount: number; currency?: string } = { amount: 42.5 },
) {
  return call(
    stack.nc,
    paymentOps.create,
    { request_id, integration_id, input: { description: 'Deposit', ...input } },
    opts,
  );
}

export function decide(
  stack: Stack,
  id: string,
  decision: 'approved' | 'rejected',
  reason?: string,
) {
  return call(
    stack.nc,
    paymentOps.decide,
    { id, decision: { decision, ...(reason ? { reason } : {}) }, ...staff },
    opts,
  );
}

/** The payments of one request, newest first. */
export async function paymentsOf(stack: Stack, request_id: string) {
  return (await call(stack.nc, paymentRecordOps.list, { request_id, limit: 100 }, opts)).data;
}

/** A new request with an approved payment request, and the payment its approval created. */
export async function approvedPayment(stack: Stack, amount = 42.5, currency = 'USD') {
  const requestId = await newRequest(stack);
  const paymentRequest = await createPaymentRequest(stack, requestId, { amount, currency });
  await decide(stack, paymentRequest.id, 'approved');
  await stack.service.sweeps.idle();
  const [payment, ...others] = await paymentsOf(stack, requestId);
  if (!payment || others.length > 0) throw new Error('the approval did not create one payment');
  return { requestId, paymentRequest, payment };
}

/** Events on HANDOFF_EVENTS about the resource `id`, each a valid envelope. */
export function eventsAbout(stack: Stack, id: string, type?: EventType) {
  return stack.received
    .filter((e) => e.payload.data?.object?.id === id && (!type || e.payload.type === type))
    .map((e) => ({ subject: e.subject, event: EventEnvelope.parse(e.payload) }));
}

/** Waits until `count` events of `type` about `id` have arrived. */
export function waitForEvents(stack: Stack, id: string, type: EventType, count = 1) {
  return eventually(
    () => {
      const found = eventsAbout(stack, id, type);
      return found.length >= count ? found : undefined;
    },
    { what: `${count} ${type} event(s) about ${id}` },
  );
}

/**
 * Proves that no event about `id` beyond those already seen arrives: an event published
 * afterwards (a marker on the same stream) has arrived, so anything earlier would have too.
 */
export async function settle(stack: Stack) {
  await stack.service.sweeps.idle();
  await stack.service.outbox.sweep();
  const marker = await newRequest(stack);
  await eventually(
    () => stack.received.some((e) => e.payload.data?.request_id === marker) || undefined,
    { what: 'the marker request.created event' },
  );
}
