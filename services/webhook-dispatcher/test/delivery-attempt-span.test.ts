import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SpanKind, SpanStatusCode, stopTelemetry } from '@handoff/observability';
import { collectSpans } from '@handoff/testkit';
import { answerAttributes, attemptAttributes } from '../src/delivery/attempt-span.ts';
import { attemptDelivery } from '../src/delivery/attempt.ts';
import { deliveryStack, jobFor } from './support/delivery-resources.ts';

// Telemetry first, as `runMain` starts it.
const ended = collectSpans('attempt-span-test');
afterAll(() => stopTelemetry());

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const ORIGIN_SPAN_ID = 'b7ad6b7169203331';

describe("an attempt span's attributes", () => {
  it('name the delivery, and the URL by scheme, host and path alone', () => {
    const job = jobFor('whe_1', { attempt: 3 });
    expect(
      attemptAttributes(job, 'https://user:pw@hooks.example.com:8443/in/x?token=s3cret#frag'),
    ).toEqual({
      'http.request.method': 'POST',
      'url.full': 'https://hooks.example.com:8443/in/x',
      'server.address': 'hooks.example.com',
      'server.port': 8443,
      'handoff.event.id': job.event.id,
      'handoff.event.type': 'request.created',
      'handoff.delivery.id': job.delivery_id,
      'handoff.endpoint.id': 'whe_1',
      'handoff.attempt': 3,
    });
    expect(attemptAttributes(job, 'http://127.0.0.1/h')).toMatchObject({
      'url.full': 'http://127.0.0.1/h',
      'server.port': 80,
    });
  });

  it("say an answer's status, and name a failure as OpenTelemetry's HTTP client spans do", () => {
    expect(answerAttributes({ statusCode: 204, outcome: 'success' })).toEqual({
      'http.response.status_code': 204,
      'handoff.webhook.outcome': 'success',
    });
    expect(answerAttributes({ statusCode: 503, outcome: 'retry' })).toEqual({
      'http.response.status_code': 503,
      'handoff.webhook.outcome': 'retry',
      'error.type': '503',
    });
    expect(answerAttributes({ statusCode: null, outcome: 'retry' })).toEqual({
      'handoff.webhook.outcome': 'retry',
      'error.type': 'no_response',
    });
    expect(answerAttributes({ statusCode: null, outcome: 'refused' })).toEqual({
      'handoff.webhook.outcome': 'refused',
      'error.type': 'target_refused',
    });
  });
});

describe('an attempt while spans are recorded, on real servers', () => {
  let stack: Awaited<ReturnType<typeof deliveryStack>>;
  beforeAll(async () => {
    stack = await deliveryStack('attempt-span');
  });
  afterAll(async () => {
    await stack.stop();
  });

  it('is a client span, a child of the context its job kept and linked to it', async () => {
    const hook = await stack.receiver(503);
    const { doc } = await stack.endpoint(`${hook.url}?token=s3cret`);
    const job = jobFor(doc._id, {
      attempt: 2,
      traceparent: `00-${TRACE_ID}-${ORIGIN_SPAN_ID}-01`,
    });
    await attemptDelivery(stack.resources, job);
    expect(hook.receipts.map((r) => r.id)).toEqual([job.event.id]);

    const span = ended.find((s) => s.attributes['handoff.delivery.id'] === job.delivery_id);
    expect(span?.name).toBe('POST');
    expect(span?.kind).toBe(SpanKind.CLIENT);
    expect(span?.spanContext().traceId).toBe(TRACE_ID);
    expect(span?.parentSpanContext?.spanId).toBe(ORIGIN_SPAN_ID);
    expect(span?.links.map((link) => link.context.spanId)).toEqual([ORIGIN_SPAN_ID]);
    expect(span?.attributes).toMatchObject({
      'handoff.event.id': job.event.id,
      'handoff.attempt': 2,
      'http.response.status_code': 503,
      'url.full': new URL(hook.url).origin + new URL(hook.url).pathname,
    });
    expect(JSON.stringify(span?.attributes)).not.toContain('s3cret');
    expect(span?.status.code).toBe(SpanStatusCode.ERROR);
  });

  it('starts a trace of its own for a job that kept no context', async () => {
    const { doc } = await stack.endpoint((await stack.receiver(204)).url);
    const job = jobFor(doc._id);
    await attemptDelivery(stack.resources, job);
    const span = ended.find((s) => s.attributes['handoff.delivery.id'] === job.delivery_id);
    expect(span?.parentSpanContext).toBeUndefined();
    expect(span?.links).toEqual([]);
    expect(span?.status.code).toBe(SpanStatusCode.UNSET);
  });
});
