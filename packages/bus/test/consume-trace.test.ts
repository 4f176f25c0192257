// A durable consumer's handling of a message joins the trace its headers carry (an outbox
// message's publish), in a consumer span; a message without one starts a trace of its own.
import { afterAll, describe, expect, it } from '@jest/globals';
import { activeTraceHeaders, createLogger, SpanKind, stopTelemetry } from '@handoff/observability';
import { collectSpans, eventually } from '@handoff/testkit';
import { headers } from '@nats-io/transport-node';
import { consumeDurable } from '../src/index.ts';
import { useJetStream } from './support/jetstream.ts';

const ended = collectSpans('consume-trace-test');
afterAll(() => stopTelemetry());

const logger = createLogger({ service: 'consume-trace-test', version: '0', level: 'silent' });
const bus = useJetStream('consume-trace-test');

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PUBLISH_SPAN_ID = '00f067aa0ba902b7';

/**
 * A stream and a durable consumer of their own, the subject to publish on, and headers that carry
 * the publish's trace context.
 */
async function tracedDurable() {
  const traced = headers();
  traced.set('traceparent', `00-${TRACE_ID}-${PUBLISH_SPAN_ID}-01`);
  return { ...(await bus.durable('trace')), traced };
}

describe('consumeDurable while spans are recorded', () => {
  it("handles each message in a consumer span, a child of the context in the message's headers", async () => {
    const { stream, consumer, subject, traced } = await tracedDurable();
    await bus.js.publish(subject, 'traced', { headers: traced });
    await bus.js.publish(subject, 'untraced');

    const seen = new Map<string, string | undefined>();
    const stop = await consumeDurable(bus.js, {
      stream,
      consumer,
      concurrency: 1,
      logger,
      handle: (msg) => {
        seen.set(msg.string(), activeTraceHeaders()?.traceparent);
        return Promise.resolve();
      },
    });
    bus.stops.push(stop);
    await eventually(() => (seen.size === 2 ? seen : undefined), { what: 'both messages' });

    const spans = ended.filter((span) => span.name === `${subject} process`);
    expect(spans).toHaveLength(2);
    const [first, second] = spans;
    expect(first?.kind).toBe(SpanKind.CONSUMER);
    expect(first?.spanContext().traceId).toBe(TRACE_ID);
    expect(first?.parentSpanContext?.spanId).toBe(PUBLISH_SPAN_ID);
    expect(first?.attributes).toMatchObject({
      'messaging.system': 'nats',
      'messaging.destination.name': subject,
      'messaging.consumer.group.name': consumer,
    });
    // What the handler does is in that span.
    expect(seen.get('traced')).toBe(`00-${TRACE_ID}-${first?.spanContext().spanId}-01`);
    expect(second?.spanContext().traceId).not.toBe(TRACE_ID);
    expect(second?.parentSpanContext).toBeUndefined();
  });

  it('makes no span for a message it does not take', async () => {
    const { stream, consumer, subject, traced } = await tracedDurable();
    await bus.js.publish(subject, 'passed over', { headers: traced });
    await bus.js.publish(subject, 'taken', { headers: traced });

    const handled: string[] = [];
    const stop = await consumeDurable(bus.js, {
      stream,
      consumer,
      concurrency: 1,
      logger,
      takes: (msg) => msg.string() === 'taken',
      handle: (msg) => {
        handled.push(msg.string());
        return Promise.resolve();
      },
    });
    bus.stops.push(stop);
    await eventually(
      async () => {
        const info = await bus.jsm.consumers.info(stream, consumer);
        return info.ack_floor.stream_seq >= 2 && info.num_ack_pending === 0 ? info : undefined;
      },
      { what: 'both messages acknowledged' },
    );
    expect(handled).toEqual(['taken']);
    expect(ended.filter((span) => span.name === `${subject} process`)).toHaveLength(1);
  });
});
