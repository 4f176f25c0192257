import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { natsOptions } from '@handoff/testkit';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { AttemptResult } from '../src/delivery/attempt.ts';
import { endpointHealth } from '../src/delivery/endpoint-health.ts';
import { attemptLog, deliveryChange, recordOutcome, recordWrite } from '../src/delivery/outcome.ts';
import type { SendResult } from '../src/adapters/sender.ts';
import { expiryBucket } from '../src/store/deliveries.ts';
import type { EndpointDoc } from '../src/store/endpoints.ts';
import { deliveryStack, jobFor, queuedJobs } from './support/delivery-resources.ts';

const NOW = 1_700_000_000_000;
const answer = (change: Partial<SendResult> = {}): SendResult => ({
  outcome: 'success',
  statusCode: 200,
  durationMs: 12,
  error: null,
  responseBody: 'ok',
  retryAfterSeconds: null,
  ...change,
});
const sent = (
  endpoint: EndpointDoc,
  verdict: Extract<AttemptResult, { kind: 'sent' }>['verdict'],
  send = answer(),
  attemptedAt = new Date(NOW),
): AttemptResult => ({ kind: 'sent', endpoint, attemptedAt, send, verdict });

describe("what an attempt writes in its delivery's record", () => {
  it('needs no record for a sure first attempt that succeeded, and finishes one that may exist', () => {
    expect(recordWrite(1, 'succeeded', true)).toBe('none');
    expect(recordWrite(1, 'succeeded', false)).toBe('finish');
    expect(recordWrite(1, 'pending', true)).toBe('insert');
    expect(recordWrite(1, 'cancelled', true)).toBe('insert');
    expect(recordWrite(2, 'succeeded', true)).toBe('update');
  });

  it('is pending until the retry, finished otherwise, and cancelled with the attempts made', () => {
    const endpoint = { _id: 'whe_a' } as EndpointDoc;
    const job = { attempt: 2 };
    expect(deliveryChange(job, sent(endpoint, { kind: 'retry', at: NOW + 5 }), NOW)).toEqual({
      status: 'pending',
      attempts: 2,
      next_attempt_at: new Date(NOW + 5),
      expires_bucket: null,
    });
    const finished = { next_attempt_at: null, expires_bucket: expiryBucket(NOW), attempts: 2 };
    expect(deliveryChange(job, sent(endpoint, { kind: 'delivered' }), NOW)).toEqual({
      status: 'succeeded',
      ...finished,
    });
    expect(deliveryChange(job, sent(endpoint, { kind: 'give-up', why: 'exhausted' }), NOW)).toEqual(
      { status: 'failed', ...finished },
    );
    expect(deliveryChange(job, { kind: 'cancelled' }, NOW)).toEqual({
      status: 'cancelled',
      ...finished,
      attempts: 1,
    });
  });

  it("logs the attempt with its answer and the next attempt's time", () => {
    const job = jobFor('whe_a', { attempt: 3 });
    const result = sent(
      { _id: 'whe_a' } as EndpointDoc,
      { kind: 'retry', at: NOW + 9 },
      answer({
        outcome: 'retry',
        statusCode: 502,
        error: 'bad gateway',
      }),
    );
    expect(attemptLog(job, result as Extract<AttemptResult, { kind: 'sent' }>)).toMatchObject({
      endpoint_id: 'whe_a',
      event_id: job.event.id,
      event_type: 'request.created',
      attempt: 3,
      attempted_at: new Date(NOW),
      status_code: 502,
      error: 'bad gateway',
      response_body: 'ok',
      next_attempt_at: new Date(NOW + 9),
    });
  });
});

describe('what an answer changes on its endpoint', () => {
  const day = 86_400;
  const attemptedAt = new Date(NOW);

  it('ends a run of failures with a success, and leaves a healthy endpoint alone', () => {
    expect(endpointHealth({ failing_since: new Date(0) }, 'success', attemptedAt, day)).toEqual({
      kind: 'recovered',
    });
    expect(endpointHealth({ failing_since: null }, 'success', attemptedAt, day)).toEqual({
      kind: 'unchanged',
    });
    expect(endpointHealth({ failing_since: null }, 'gone', attemptedAt, day)).toEqual({
      kind: 'gone',
    });
  });

  it('starts a run of failures, and disables the endpoint once it has lasted long enough', () => {
    expect(
      endpointHealth({ failing_since: null }, 'retry', attemptedAt, day, new Date(NOW)),
    ).toEqual({ kind: 'failing', since: attemptedAt, first: true, disable: false });
    const since = new Date(NOW - day * 1_000);
    expect(
      endpointHealth({ failing_since: since }, 'refused', attemptedAt, day, new Date(NOW)),
    ).toEqual({ kind: 'failing', since, first: false, disable: true });
  });
});

describe('recording an outcome, on real servers', () => {
  let stack: Awaited<ReturnType<typeof deliveryStack>>;
  let nc: NatsConnection;
  beforeAll(async () => {
    stack = await deliveryStack('outcome');
    nc = await connect(natsOptions());
  });
  afterAll(async () => {
    await nc.close();
    await stack.stop();
  });

  it('logs a failed attempt, makes its record, queues the retry and marks the endpoint failing', async () => {
    const { doc } = await stack.endpoint('http://127.0.0.1:9/hook');
    const job = jobFor(doc._id);
    const at = Date.now() + 60_000;
    const jobs = queuedJobs(nc, doc._id);
    const attemptedAt = new Date();
    const failed = answer({ outcome: 'retry', statusCode: 500 });
    await recordOutcome(
      stack.resources,
      job,
      true,
      sent(doc, { kind: 'retry', at }, failed, attemptedAt),
    );
    expect(await stack.c.attempts.findOne({ event_id: job.event.id })).toMatchObject({
      attempt: 1,
      status_code: 500,
      next_attempt_at: new Date(at),
    });
    expect(await stack.c.deliveries.findOne({ _id: job.delivery_id })).toMatchObject({
      status: 'pending',
      attempts: 1,
      next_attempt_at: new Date(at),
    });
    expect(await jobs.stop()).toEqual([{ ...job, attempt: 2, not_before: at }]);
    expect(await stack.c.endpoints.findOne({ _id: doc._id })).toMatchObject({
      enabled: true,
      failing_since: attemptedAt,
    });
  });

  it('leaves no record for a sure first success, and ends the run of failures', async () => {
    const { doc } = await stack.endpoint('http://127.0.0.1:9/hook', {
      failing_since: new Date(NOW),
    });
    const job = jobFor(doc._id);
    const jobs = queuedJobs(nc, doc._id);
    await recordOutcome(stack.resources, job, true, sent(doc, { kind: 'delivered' }));
    expect(await stack.c.attempts.countDocuments({ event_id: job.event.id })).toBe(1);
    expect(await stack.c.deliveries.findOne({ _id: job.delivery_id })).toBeNull();
    expect(await stack.c.endpoints.findOne({ _id: doc._id })).toMatchObject({
      failing_since: null,
    });
    expect(await jobs.stop()).toEqual([]);
  });

  it('disables an endpoint that is gone, and records a cancelled delivery without an attempt', async () => {
    const { doc } = await stack.endpoint('http://127.0.0.1:9/hook');
    const job = jobFor(doc._id, { attempt: 2 });
    await recordOutcome(
      stack.resources,
      job,
      false,
      sent(doc, { kind: 'give-up', why: 'gone' }, answer({ outcome: 'gone', statusCode: 410 })),
    );
    expect(await stack.c.endpoints.findOne({ _id: doc._id })).toMatchObject({
      enabled: false,
      disabled_reason: 'gone',
    });
    expect(await stack.c.deliveries.findOne({ _id: job.delivery_id })).toMatchObject({
      status: 'failed',
      attempts: 2,
    });
    // The directory was told: the next attempt finds the endpoint disabled.
    expect(await stack.resources.directory.byId(doc._id)).toMatchObject({ enabled: false });
    const next = { ...job, attempt: 3 };
    await recordOutcome(stack.resources, next, false, { kind: 'cancelled' });
    expect(await stack.c.deliveries.findOne({ _id: job.delivery_id })).toMatchObject({
      status: 'cancelled',
      attempts: 2,
    });
    expect(await stack.c.attempts.countDocuments({ event_id: job.event.id })).toBe(1);
  });
});
