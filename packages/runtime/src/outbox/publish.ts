// Publishing one outbox message to JetStream: its id is the `Nats-Msg-Id`, so a message published
// again (after a crash, by a sweep, by two adopters at once) is stored once.
import {
  injectTraceContext,
  SpanKind,
  traceContextOf,
  tracesRecorded,
  withSpan,
} from '@handoff/observability';
import type { JetStreamClient } from '@nats-io/jetstream';
import { headers as natsHeaders } from '@nats-io/transport-node';
import { bodyOf, type OutboxMessage } from './document.ts';

/** Runs before each publish; may return the payload to publish instead (see `OutboxOptions`). */
export type BeforePublish = (
  message: OutboxMessage,
) => Promise<Record<string, unknown> | undefined>;

/** What the stream said of a published message. */
export interface Published {
  id: string;
  /** The stream held that id already (within its duplicate window): stored once. */
  duplicate: boolean;
}

export type PublishMessage = (message: OutboxMessage) => Promise<Published>;

/**
 * Publishes messages on `js`, each after `beforePublish`. A message that carries the trace
 * context of the write that made it is published in a producer span of that trace (whoever
 * publishes it: the call, or a sweep seconds later), and carries that span's context instead.
 */
export function messagePublisher(
  js: JetStreamClient,
  beforePublish?: BeforePublish,
): PublishMessage {
  const publish = async (message: OutboxMessage, trace: boolean): Promise<Published> => {
    const replaced = await beforePublish?.(message);
    const body = replaced !== undefined ? JSON.stringify(replaced) : bodyOf(message);
    const extra = message.headers ? Object.entries(message.headers) : [];
    const published = extra.length > 0 ? natsHeaders() : undefined;
    for (const [name, value] of extra) published?.set(name, value);
    if (trace) injectTraceContext((name, value) => published?.set(name, value));
    const ack = await js.publish(message.subject, body, {
      msgID: message.id,
      ...(published ? { headers: published } : {}),
    });
    crashForTest('crash-after-publish');
    return { id: message.id, duplicate: ack.duplicate };
  };
  return (message) => {
    const traceparent = message.headers?.traceparent;
    if (!traceparent || !tracesRecorded()) return publish(message, false);
    return withSpan(
      `${message.subject} publish`,
      {
        kind: SpanKind.PRODUCER,
        parent: traceContextOf(traceparent, message.headers?.tracestate),
        attributes: {
          'messaging.system': 'nats',
          'messaging.operation.type': 'send',
          'messaging.destination.name': message.subject,
          'messaging.message.id': message.id,
        },
      },
      () => publish(message, true),
    );
  };
}

/**
 * Test-only fault hook: `HANDOFF_TEST_FAULT=crash-after-write` ends the process right after a
 * change and its message are written, `crash-after-publish` right after a publish (before the
 * message leaves the document). The crash tests set it on a service process; nothing else
 * does, and production manifests never carry it.
 */
export function crashForTest(point: 'crash-after-write' | 'crash-after-publish'): void {
  if (process.env.HANDOFF_TEST_FAULT === point) process.exit(86);
}
