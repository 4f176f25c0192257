// The drain loop: what no call published (a crash, a failed publish) is published by the sweep,
// every few seconds, with the heartbeat of this writer beside it.
import type { Logger } from '@handoff/observability';
import type { Collection } from 'mongodb';
import type { OutboxDocument, OutboxMessage } from './document.ts';
import type { Removals } from './removal.ts';
import type { WriterRegistry } from './writers.ts';

/** How often the sweep runs, unless `sweepIntervalMs` says otherwise. */
export const OUTBOX_SWEEP_MS = 5_000;
/** How many pending documents of a collection one sweep reads. */
const SWEEP_LIMIT = 500;

export interface DrainParts {
  /** Every collection whose documents may carry messages. */
  collections: readonly Collection<OutboxDocument>[];
  /** Messages younger than this are left to the call that wrote them. */
  graceMs: number;
  /** Publishes a message of a document and has it removed with the next batch. */
  publishRemoved(
    collection: Collection<OutboxDocument>,
    documentId: string,
    message: OutboxMessage,
  ): Promise<void>;
  /** Publishes a kept message (it stays in its document). */
  publishKept(message: OutboxMessage): Promise<void>;
  removals: Removals;
  registry: WriterRegistry;
  logger: Logger;
  /** Told what each sweep that completed published (for the metrics). */
  swept?(result: SweepResult): void;
}

/** What one sweep published. */
export interface SweepResult {
  /** Messages of documents still marked pending, older than the grace period. */
  pending: number;
  /** Kept messages whose publish by this writer had failed. */
  left: number;
  /** Kept messages of dead writers. */
  adopted: number;
  /** Kept messages this writer wrote whose publish never came (`WriterRegistry.settle`). */
  settled: number;
}

/**
 * Publishes everything left behind once: pending documents, failed kept publishes, dead writers,
 * and kept writes of this writer that never published.
 */
export async function sweepOnce(parts: DrainParts): Promise<SweepResult> {
  let pending = 0;
  const before = Date.now() - parts.graceMs;
  for (const collection of parts.collections) {
    const docs = await collection
      .find({ outbox_pending: true }, { projection: { outbox: 1 } })
      .limit(SWEEP_LIMIT)
      .toArray();
    for (const doc of docs) {
      const messages = doc.outbox ?? [];
      // A marker left on an empty outbox (a crash between the removal and the unset).
      if (messages.length === 0) parts.removals.remove({ collection, documentId: doc._id });
      for (const message of messages) {
        if (new Date(message.created_at).getTime() >= before) continue;
        await parts.publishRemoved(collection, doc._id, message);
        pending += 1;
      }
    }
  }
  await parts.removals.flush();
  let left = 0;
  for (const { message } of parts.registry.left()) {
    await parts.publishKept(message);
    left += 1;
  }
  const adopted = await parts.registry.adoptDead(parts.publishKept);
  const settled = await parts.registry.settle(parts.publishKept, parts.graceMs);
  const result = { pending, left, adopted, settled };
  parts.swept?.(result);
  return result;
}

/** Messages one sweep published, however left behind. */
export const sweptCount = (result: SweepResult): number =>
  result.pending + result.left + result.adopted + result.settled;

/**
 * Starts the periodic sweep (and the registry heartbeat); the returned function stops both,
 * waits for a running sweep, removes what was published, and leaves the registry once nothing
 * of this writer is unpublished.
 */
export function startDrain(parts: DrainParts, sweepIntervalMs = OUTBOX_SWEEP_MS) {
  const { logger, registry } = parts;
  let running: Promise<unknown> = Promise.resolve();
  const interval = setInterval(() => {
    running = running
      .then(() => sweepOnce(parts))
      .catch((error: unknown) => {
        logger.warn({ err: error }, 'outbox sweep failed; will retry');
      });
  }, sweepIntervalMs);
  interval.unref();
  let beating: Promise<unknown> = Promise.resolve();
  const beat = registry.registered
    ? setInterval(() => {
        beating = beating
          .then(() => registry.beat())
          .catch((error: unknown) => {
            logger.warn({ err: error }, 'outbox heartbeat failed; will retry');
          });
      }, registry.heartbeatMs)
    : undefined;
  beat?.unref();
  return async (): Promise<void> => {
    clearInterval(interval);
    clearInterval(beat);
    await running;
    await beating;
    await parts.removals.flush();
    await registry.leave();
  };
}
