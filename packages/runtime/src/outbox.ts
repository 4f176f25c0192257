// The transactional outbox: a change and the messages announcing it are written in one
// single-document update; the messages are then published, and removed from the document (or,
// in a kept collection, left there and covered by the writer registry). The parts: outbox/.
import type { Logger } from '@handoff/observability';
import type { Store } from '@handoff/store';
import type { JetStreamClient } from '@nats-io/jetstream';
import type { Collection, Document } from 'mongodb';
import {
  withOutbox,
  type OutboxDocument,
  type OutboxFields,
  type OutboxMessage,
} from './outbox/document.ts';
import { startDrain, sweepOnce, sweptCount, type DrainParts } from './outbox/drain.ts';
import { keptDocument, keptUpdate } from './outbox/kept.ts';
import { outboxBacklog } from './outbox/metrics.ts';
import { crashForTest, messagePublisher } from './outbox/publish.ts';
import { removals } from './outbox/removal.ts';
import { WriterRegistry, type OutboxWriterDoc } from './outbox/writers.ts';

export * from './outbox/document.ts';
export { OUTBOX_SWEEP_MS, type SweepResult } from './outbox/drain.ts';
export { KEPT_FOR_MS } from './outbox/kept.ts';
export {
  OUTBOX_DEAD_AFTER_MS,
  OUTBOX_HEARTBEAT_MS,
  OUTBOX_WRITERS,
  PUBLISHED_REMEMBERED,
  UNWRITTEN_AFTER_MS,
  type OutboxWriterDoc,
} from './outbox/writers.ts';

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
  /** Published messages are removed from their documents in one write at most this much later. */
  clearDelayMs?: number;
  /** … or as soon as this many wait. */
  clearBatchSize?: number;
  /** Serializes writes per document (the store's), so the removal never races a new message. */
  serialize?: Store['serialize'];
  /**
   * Collections (of `collections`) whose documents keep their messages after the publish, so a
   * message costs no second write: new documents come from `withMessages`, and messages are
   * added only by `moveDocument` with this outbox (`keepUpdate`). A crash is covered by the writer registry
   * instead: this process's low-water mark in `writers`, refreshed every `heartbeatMs`, and the
   * windows of a writer whose heartbeat stopped for `deadAfterMs`, which the sweep of another
   * process publishes again (JetStream drops a message id it already holds, consumers
   * de-duplicate by event id past its window).
   */
  kept?: Collection<OutboxDocument>[];
  /** The registry of writers ({@link OUTBOX_WRITERS}): needed with `kept`. */
  writers?: Collection<OutboxWriterDoc>;
  /** How often this writer's registry entry is refreshed (2 s). */
  heartbeatMs?: number;
  /** A writer whose entry is older than this is dead, and its windows are adopted (15 s). */
  deadAfterMs?: number;
}

export interface Outbox {
  /**
   * Publishes messages just written into `documentId`; they leave the document with the next
   * batch of removals.
   */
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
  /** Publishes every message older than the grace period and removes it; returns how many. */
  sweep(): Promise<number>;
  /** Removes every message published so far from its document. */
  flush(): Promise<void>;
  /**
   * Marks documents whose messages were written before the marker existed, so the sweep finds
   * them; returns how many. A full scan on FerretDB: run once at start, never periodically.
   */
  adoptUnmarked(): Promise<number>;
  /**
   * `doc`, new, with `messages` in its outbox, to insert into `collection`: for a kept collection
   * marked with this writer's window of the current second (until they are published, the
   * messages hold this writer's low-water mark, at most {@link UNWRITTEN_AFTER_MS} without a
   * publish: the write failed); for another one as {@link withOutbox} writes it.
   */
  withMessages<T extends { _id: string }>(
    collection: { collectionName: string },
    doc: T,
    messages: readonly OutboxMessage[],
  ): T & OutboxFields;
  /** Whether the collection of that name is kept. */
  keeps(collection: string): boolean;
  /**
   * A change of a kept document of the collection named `collection` as it stood (`before`) that
   * adds `messages`: `update` with the outbox set to the messages of the last
   * {@link KEPT_FOR_MS} and these (marked like `withMessages`), and the windows likewise; and the
   * condition that the outbox is still the one read, for the compare-and-set (so that no message
   * another write added meanwhile is lost).
   */
  keepUpdate<U extends { $set?: object }>(
    collection: string,
    before: OutboxFields & { _id: string },
    update: U,
    messages: readonly OutboxMessage[],
  ): { update: U & { $set: OutboxFields }; unchanged: Record<string, unknown> };
  /**
   * Enters this writer in the registry, before its first kept write (a no-op without kept
   * collections).
   */
  register(): Promise<void>;
  /**
   * Starts the periodic sweep (and the registry heartbeat); the returned function stops both,
   * waits for a running sweep, and leaves the registry once nothing of this writer is
   * unpublished.
   */
  start(): () => Promise<void>;
}

export function createOutbox(options: OutboxOptions): Outbox {
  const { logger } = options;
  const kept = options.kept ?? [];
  const keptNames = new Set(kept.map((collection) => collection.collectionName));
  const writers = kept.length > 0 ? options.writers : undefined;
  if (kept.length > 0 && !writers)
    throw new Error('kept outbox collections need a writer registry');
  const registry = new WriterRegistry({
    writers,
    kept,
    logger,
    ...(options.heartbeatMs !== undefined ? { heartbeatMs: options.heartbeatMs } : {}),
    ...(options.deadAfterMs !== undefined ? { deadAfterMs: options.deadAfterMs } : {}),
  });
  const backlog = outboxBacklog(registry);
  const publishMessage = messagePublisher(options.js, options.beforePublish);
  const removing = removals({
    logger,
    ...(options.serialize ? { serialize: options.serialize } : {}),
    ...(options.clearDelayMs !== undefined ? { delayMs: options.clearDelayMs } : {}),
    ...(options.clearBatchSize !== undefined ? { batchSize: options.clearBatchSize } : {}),
  });
  const drain: DrainParts = {
    collections: options.collections,
    graceMs: options.sweepGraceMs ?? 2_000,
    async publishRemoved(collection, documentId, message) {
      await publishMessage(message);
      removing.remove({ collection, documentId, message });
    },
    async publishKept(message) {
      await publishMessage(message);
      registry.published(message.id);
    },
    removals: removing,
    registry,
    logger,
    swept: backlog.swept,
  };

  const publish: Outbox['publish'] = async (collection, documentId, messages) => {
    crashForTest('crash-after-write');
    if (!keptNames.has(collection.collectionName)) {
      for (const message of messages) await drain.publishRemoved(collection, documentId, message);
      return;
    }
    for (const [index, message] of messages.entries()) {
      try {
        await drain.publishKept(message);
      } catch (error) {
        registry.failed(collection, documentId, messages.slice(index));
        throw error;
      }
    }
  };

  return {
    publish,
    publishOrLeave: (collection, documentId, messages) =>
      publish(collection as unknown as Collection<OutboxDocument>, documentId, messages).catch(
        (error: unknown) => {
          logger.warn(
            { err: error, document_id: documentId },
            'outbox publish failed; left for the sweep',
          );
        },
      ),
    sweep: async () => sweptCount(await sweepOnce(drain)),
    flush: removing.flush,
    adoptUnmarked: () => adoptUnmarked(options.collections),
    withMessages: (collection, doc, messages) =>
      keptNames.has(collection.collectionName)
        ? keptDocument(registry, collection.collectionName, doc, messages)
        : withOutbox(doc, messages),
    keeps: (collection) => keptNames.has(collection),
    keepUpdate: (collection, before, update, messages) =>
      keptUpdate(registry, { collection, documentId: before._id }, before, update, messages),
    register: () => registry.beat(),
    start: () => {
      const unwatch = backlog.watch();
      const stop = startDrain(drain, options.sweepIntervalMs);
      return () => stop().finally(unwatch);
    },
  };
}

/** Marks the documents whose messages were written before the marker existed. */
async function adoptUnmarked(collections: readonly Collection<OutboxDocument>[]): Promise<number> {
  let count = 0;
  for (const collection of collections) {
    const result = await collection.updateMany(
      {
        'outbox.0': { $exists: true },
        outbox_pending: { $exists: false },
        // A kept document's messages stay after their publish: they are not pending.
        outbox_window: { $exists: false },
      },
      { $set: { outbox_pending: true } },
    );
    count += result.modifiedCount;
  }
  return count;
}
