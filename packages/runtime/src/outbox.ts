import type { Logger } from '@handoff/observability';
import type { JetStreamClient } from '@nats-io/jetstream';
import type { Store } from '@handoff/store';
import type { Collection, Document } from 'mongodb';

/**
 * A message waiting to be published. It is written inside the very document whose change it
 * announces, in the same single-document update, so the change and its message cannot drift
 * apart: if the process dies before publishing, the sweep publishes it later.
 */
export interface OutboxMessage {
  /** The event id; also the JetStream `Nats-Msg-Id`, so a repeated publish is stored once. */
  id: string;
  subject: string;
  payload: Record<string, unknown>;
  created_at: Date;
  /** Kept beside the message for `beforePublish` (e.g. an audit entry); never published. */
  local?: Record<string, unknown>;
}

/** The part of any document that the outbox reads and writes. */
export interface OutboxDocument {
  _id: string;
  outbox?: OutboxMessage[];
}

export interface OutboxOptions {
  js: JetStreamClient;
  logger: Logger;
  /** Collections whose documents may carry an `outbox` array. */
  collections: Collection<OutboxDocument>[];
  /**
   * Runs before each publish and may return the payload to publish instead (e.g. with the
   * event's `sequence` filled in), or write what derives from the message (an audit entry).
   * It must be idempotent: after a crash it runs again for the same message.
   */
  beforePublish?: (message: OutboxMessage) => Promise<Record<string, unknown> | undefined>;
  /** How often to look for messages that a crashed or failed publish left behind. */
  sweepIntervalMs?: number;
  /** Messages younger than this are left to the request that wrote them. */
  sweepGraceMs?: number;
  /** Serializes writes per document (the store's), so the removal never races a new message. */
  serialize?: Store['serialize'];
}

export interface Outbox {
  /** Publishes messages just written into `documentId` and removes them from it. */
  publish(
    collection: Collection<OutboxDocument>,
    documentId: string,
    messages: OutboxMessage[],
  ): Promise<void>;
  /**
   * `publish` after a change is durable, on a call's path: a failed publish is logged and left
   * to the sweep rather than failing a call whose change is already stored.
   */
  publishOrLeave<T extends Document>(
    collection: Collection<T>,
    documentId: string,
    messages: OutboxMessage[],
  ): Promise<void>;
  /** Publishes every message older than the grace period; returns how many. */
  sweep(): Promise<number>;
  /** Starts the periodic sweep; the returned function stops it and waits for a running sweep. */
  start(): () => Promise<void>;
}

export function outboxMessage(
  id: string,
  subject: string,
  payload: Record<string, unknown>,
  local?: Record<string, unknown>,
): OutboxMessage {
  return { id, subject, payload, created_at: new Date(), ...(local ? { local } : {}) };
}

/**
 * Test-only fault hook: `HANDOFF_TEST_FAULT=crash-after-write` ends the process right after a
 * change and its message are written, `crash-after-publish` right after a publish (before the
 * message leaves the document). The crash tests set it on a service process; nothing else
 * does, and production manifests never carry it.
 */
function crashForTest(point: 'crash-after-write' | 'crash-after-publish'): void {
  if (process.env.HANDOFF_TEST_FAULT === point) process.exit(86);
}

export function createOutbox(options: OutboxOptions): Outbox {
  const publishOne = async (
    collection: Collection<OutboxDocument>,
    documentId: string,
    message: OutboxMessage,
  ) => {
    const payload = (await options.beforePublish?.(message)) ?? message.payload;
    await options.js.publish(message.subject, JSON.stringify(payload), { msgID: message.id });
    crashForTest('crash-after-publish');
    // Pull the exact element: FerretDB 1.24 matches $pull conditions only by whole-element equality.
    const pull = () => collection.updateOne({ _id: documentId }, { $pull: { outbox: message } });
    await (options.serialize ? options.serialize(collection, documentId, pull) : pull());
  };

  const publish: Outbox['publish'] = async (collection, documentId, messages) => {
    crashForTest('crash-after-write');
    for (const message of messages) await publishOne(collection, documentId, message);
  };

  const sweep = async () => {
    let count = 0;
    const before = new Date(Date.now() - (options.sweepGraceMs ?? 2_000));
    for (const collection of options.collections) {
      const pending = await collection
        .find({ 'outbox.created_at': { $lt: before } }, { projection: { outbox: 1 } })
        .limit(500)
        .toArray();
      for (const doc of pending) {
        for (const message of doc.outbox ?? []) {
          await publishOne(collection, doc._id, message);
          count += 1;
        }
      }
    }
    return count;
  };

  const publishOrLeave: Outbox['publishOrLeave'] = (collection, documentId, messages) =>
    publish(collection as unknown as Collection<OutboxDocument>, documentId, messages).catch(
      (error: unknown) => {
        options.logger.warn(
          { err: error, document_id: documentId },
          'outbox publish failed; left for the sweep',
        );
      },
    );

  return {
    publish,
    publishOrLeave,
    sweep,
    start() {
      let running: Promise<unknown> = Promise.resolve();
      const timer = setInterval(() => {
        running = running.then(sweep).catch((error: unknown) => {
          options.logger.warn({ err: error }, 'outbox sweep failed; will retry');
        });
      }, options.sweepIntervalMs ?? 5_000);
      timer.unref();
      return async () => {
        clearInterval(timer);
        await running;
      };
    },
  };
}
