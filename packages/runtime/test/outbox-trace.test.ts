// The outbox and traces: a message keeps the trace context of the write that made it, and its
// publish (by the call, or by a sweep later) is a producer span of that trace whose context the
// published message carries to its consumers.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AUDIT_STREAM, newId } from '@handoff/contracts';
import { SpanKind, stopTelemetry, withSpan } from '@handoff/observability';
import { collectSpans, type EndedSpan } from '@handoff/testkit';
import type { Collection } from 'mongodb';
import { createOutbox, withOutbox, type OutboxDocument, type OutboxMessage } from '../src/index.ts';
import { messagePublisher } from '../src/outbox/publish.ts';
import { logger, testMessage, useOutboxServers } from './support/outbox-servers.ts';

// Telemetry first, as `runMain` starts it: every span of this file is recorded.
const ended = collectSpans('outbox-trace-test');
afterAll(() => stopTelemetry());

const servers = useOutboxServers('outbox-trace');
let docs: Collection<OutboxDocument>;
beforeAll(() => {
  docs = servers.store.db.collection('trace_docs');
});

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/;

/** A message made inside a span named `name` (the write that announces a change). */
async function writtenIn(name: string): Promise<{ message: OutboxMessage; span: EndedSpan }> {
  const message = await withSpan(name, {}, () => Promise.resolve(testMessage(60_000)));
  const span = ended.find((s) => s.name === name);
  if (!span) throw new Error(`no span ${name}`);
  return { message, span };
}

/** The `traceparent` the stream holds with the message, as trace id and span id. */
async function publishedContext(message: OutboxMessage) {
  const held = await servers.bus.jsm.streams.getMessage(AUDIT_STREAM.name, {
    last_by_subj: message.subject,
  });
  const match = TRACEPARENT.exec(held?.header.get('traceparent') ?? '');
  return { traceId: match?.[1], spanId: match?.[2] };
}

const publishSpanOf = (message: OutboxMessage) =>
  ended.find((span) => span.name === `${message.subject} publish`);

describe('an outbox message in a trace', () => {
  it('keeps the context of its write, and is published in a producer span of that trace', async () => {
    const { message, span: write } = await writtenIn(`write ${newId('msg')}`);
    const kept = TRACEPARENT.exec(message.headers?.traceparent ?? '');
    expect(kept?.[1]).toBe(write.spanContext().traceId);
    expect(kept?.[2]).toBe(write.spanContext().spanId);

    await messagePublisher(servers.bus.js)(message);
    const publish = publishSpanOf(message);
    expect(publish?.kind).toBe(SpanKind.PRODUCER);
    expect(publish?.spanContext().traceId).toBe(write.spanContext().traceId);
    expect(publish?.parentSpanContext?.spanId).toBe(write.spanContext().spanId);
    expect(publish?.attributes).toMatchObject({
      'messaging.system': 'nats',
      'messaging.destination.name': message.subject,
      'messaging.message.id': message.id,
    });
    // Consumers continue from the publish.
    expect(await publishedContext(message)).toEqual({
      traceId: write.spanContext().traceId,
      spanId: publish?.spanContext().spanId,
    });
  });

  it('is published by a later sweep in the trace of its write, not of whatever runs then', async () => {
    const outbox = createOutbox({
      js: servers.bus.js,
      logger,
      collections: [docs],
      serialize: servers.store.serialize,
    });
    const { message, span: write } = await writtenIn(`write ${newId('msg')}`);
    await docs.insertOne(withOutbox({ _id: newId('msg') }, [message]));

    await withSpan('a later sweep', {}, () => outbox.sweep());
    await outbox.flush();
    const publish = publishSpanOf(message);
    expect(publish?.spanContext().traceId).toBe(write.spanContext().traceId);
    expect(publish?.parentSpanContext?.spanId).toBe(write.spanContext().spanId);
    expect(await publishedContext(message)).toEqual({
      traceId: write.spanContext().traceId,
      spanId: publish?.spanContext().spanId,
    });
  });

  it('keeps nothing when made outside any span, and is published without a span', async () => {
    const message = testMessage();
    expect(message.headers).toBeUndefined();
    await messagePublisher(servers.bus.js)(message);
    expect(publishSpanOf(message)).toBeUndefined();
    expect(await publishedContext(message)).toEqual({ traceId: undefined, spanId: undefined });
  });
});
