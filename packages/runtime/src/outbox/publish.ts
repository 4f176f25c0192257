// Publishing one outbox message to JetStream: its id is the `Nats-Msg-Id`, so a message published
// again (after a crash, by a sweep, by two adopters at once) is stored once.
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

/** Publishes messages on `js`, each after `beforePublish`. */
export function messagePublisher(
  js: JetStreamClient,
  beforePublish?: BeforePublish,
): PublishMessage {
  return async (message) => {
    const replaced = await beforePublish?.(message);
    const body = replaced !== undefined ? JSON.stringify(replaced) : bodyOf(message);
    const extra = message.headers ? Object.entries(message.headers) : [];
    const published = extra.length > 0 ? natsHeaders() : undefined;
    for (const [name, value] of extra) published?.set(name, value);
    const ack = await js.publish(message.subject, body, {
      msgID: message.id,
      ...(published ? { headers: published } : {}),
    });
    crashForTest('crash-after-publish');
    return { id: message.id, duplicate: ack.duplicate };
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
