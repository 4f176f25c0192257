// The real stack a payments test runs against: intake (it owns requests and hands out event
// sequences) and payments on the worker's NATS and database, plus a feed of HANDOFF_EVENTS.
import { afterAll, beforeAll } from '@jest/globals';
import { call } from '@handoff/bus';
import {
  EventEnvelope,
  paymentOps,
  paymentRecordOps,
  requestOps,
  type EventType,
} from '@handoff/contracts';
import { bootstrap as bootstrapIntake } from '@handoff/intake';
import { createLogger } from '@handoff/observability';
import { auditCollectionName, sha256Hex } from '@handoff/runtime';
import { eventually, serviceEnv, ServiceStack, uniqueDatabase } from '@handoff/testkit';
import type { JsMsg } from '@nats-io/jetstream';
import { Writable } from 'node:stream';
import { bootstrap } from '../../src/bootstrap.ts';
import type { PaymentRequestDoc } from '../../src/store/payment-requests.ts';
import type { PaymentDoc } from '../../src/store/payments.ts';
import { PAYMENT_REQUESTS, PAYMENTS } from '../../src/store/collections.ts';

export type Payments = Awaited<ReturnType<typeof bootstrap>>;

/** The call id every bus call of these tests carries, as the gateway's calls carry theirs. */
export const CALL_ID = 'call-audit-1';
export const opts = { timeoutMs: 10_000, callId: CALL_ID };
export const integration_id = 'int_test';
export const staff = { actor: 'staff-1@handoff.test' };

export interface Received {
  subject: string;
  payload: { type?: string; data?: { request_id?: unknown; object?: { id?: unknown } } };
}

/** Intake and payments (with `env` added to the payments service's environment). */
export class Stack extends ServiceStack<Parts> {
  readonly label: string;
  readonly env: Record<string, string>;
  /** Every line the payments service logged. */
  readonly logLines: string[] = [];
  readonly received: Received[] = [];

  constructor(label: string, env: Record<string, string> = {}) {
    super();
    this.label = label;
    this.env = env;
  }

  protected get what(): string {
    return `${this.label} stack`;
  }

  get service(): Payments {
    return this.parts.service;
  }

  protected async launch(): Promise<Parts> {
    // Each service as its own NATS user, as in production.
    const base = (user: 'intake' | 'payments') =>
      serviceEnv(user, uniqueDatabase(`${this.label}${user}`));
    const logger = createLogger({
      service: 'payments',
      version: 'test',
      level: 'debug',
      destination: new Writable({
        write: (chunk: Buffer, _encoding, done) => {
          this.logLines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
          done();
        },
      }),
    });
    const intake = await bootstrapIntake({ env: base('intake') });
    const service = await bootstrap({ env: { ...base('payments'), ...this.env }, logger });
    return {
      service,
      stop: async () => {
        await service.stop();
        await intake.stop();
      },
    };
  }

  protected onEvent(msg: JsMsg): void {
    this.received.push({ subject: msg.subject, payload: msg.json() });
  }

  /** The payments service's audit log, as stored. */
  rawAudit() {
    return this.service.store.db.collection(auditCollectionName('payments'));
  }

  /** Waits for the audit entry of `action` on `target_id`, and returns it. */
  auditEntry(target_id: string, action: string) {
    return eventually(
      async () => (await this.rawAudit().findOne({ target_id, action })) ?? undefined,
      { what: `the audit entry ${action} of ${target_id}` },
    );
  }

  rawRequests() {
    return this.service.store.db.collection<PaymentRequestDoc>(PAYMENT_REQUESTS);
  }

  rawPayments() {
    return this.service.store.db.collection<PaymentDoc>(PAYMENTS);
  }

  /** A new request; `livemode: false` makes it a test request (a test key's). */
  async newRequest(livemode = true): Promise<string> {
    const created = await call(
      this.nc,
      requestOps.create,
      {
        integration_id,
        token_hash: sha256Hex('hrt_x'),
        input: { message: 'hi' },
        ...(livemode ? {} : { livemode: false }),
      },
      opts,
    );
    return created.id;
  }

  createPaymentRequest(
    request_id: string,
    input: { amount: number; currency?: string } = { amount: 42.5 },
  ) {
    return call(
      this.nc,
      paymentOps.create,
      { request_id, integration_id, input: { description: 'Deposit', ...input } },
      opts,
    );
  }

  decide(id: string, decision: 'approved' | 'rejected', reason?: string) {
    return call(
      this.nc,
      paymentOps.decide,
      { id, decision: { decision, ...(reason ? { reason } : {}) }, ...staff },
      opts,
    );
  }

  /** The payments of one request, newest first. */
  async paymentsOf(request_id: string) {
    return (await call(this.nc, paymentRecordOps.list, { request_id, limit: 100 }, opts)).data;
  }

  /** A new request with an approved payment request, and the payment its approval created. */
  async approvedPayment(amount = 42.5, currency = 'USD', livemode = true) {
    const requestId = await this.newRequest(livemode);
    const paymentRequest = await this.createPaymentRequest(requestId, { amount, currency });
    await this.decide(paymentRequest.id, 'approved');
    await this.service.sweeps.idle();
    const [payment, ...others] = await this.paymentsOf(requestId);
    if (!payment || others.length > 0) throw new Error('the approval did not create one payment');
    return { requestId, paymentRequest, payment };
  }

  /** Events on HANDOFF_EVENTS about the resource `id`, each a valid envelope. */
  eventsAbout(id: string, type?: EventType) {
    return this.received
      .filter((e) => e.payload.data?.object?.id === id && (!type || e.payload.type === type))
      .map((e) => ({ subject: e.subject, event: EventEnvelope.parse(e.payload) }));
  }

  /** Waits until `count` events of `type` about `id` have arrived. */
  waitForEvents(id: string, type: EventType, count = 1) {
    return eventually(
      () => {
        const found = this.eventsAbout(id, type);
        return found.length >= count ? found : undefined;
      },
      { what: `${count} ${type} event(s) about ${id}` },
    );
  }

  /**
   * Proves that no event about `id` beyond those already seen arrives: an event published
   * afterwards (a marker on the same stream) has arrived, so anything earlier would have too.
   */
  async settle(): Promise<void> {
    await this.service.sweeps.idle();
    await this.service.outbox.sweep();
    const marker = await this.newRequest();
    await eventually(
      () => this.received.some((e) => e.payload.data?.request_id === marker) || undefined,
      { what: 'the marker request.created event' },
    );
  }
}

interface Parts {
  service: Payments;
  stop(): Promise<void>;
}

/** A stack started now; for a test that must prepare something first in its own beforeAll. */
export const startStack = (label: string, env: Record<string, string> = {}): Promise<Stack> =>
  new Stack(label, env).start();

/** A stack started before the file's tests and stopped after them. */
export function useStack(label: string): Stack {
  const stack = new Stack(label);
  beforeAll(() => stack.start());
  afterAll(() => stack.stop());
  return stack;
}
