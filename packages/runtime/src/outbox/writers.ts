// The writer registry of kept collections: each process that writes kept documents says how far
// it has published (its low-water mark) and that it lives (its beat); the windows of one that
// stopped beating are published again by another.
import type { Logger } from '@handoff/observability';
import type { Collection } from 'mongodb';
import { randomUUID } from 'node:crypto';
import { OUTBOX_WINDOW_MS, type OutboxDocument, type OutboxMessage } from './document.ts';

/** The collection where each process with kept collections says how far it has published. */
export const OUTBOX_WRITERS = 'outbox_writers';

/**
 * A writer of kept documents: a process, while it runs. Every message it wrote before
 * `low_water` is published; what it wrote since is in its windows from that second on. A writer
 * whose `beat_at` is older than the dead-after time is adopted by the sweep of another.
 */
export interface OutboxWriterDoc {
  _id: string;
  beat_at: Date;
  low_water: Date;
}

/** How often a writer's registry entry is refreshed, unless `heartbeatMs` says otherwise. */
export const OUTBOX_HEARTBEAT_MS = 2_000;
/** How long a writer's entry may go unrefreshed before it counts as dead (`deadAfterMs`). */
export const OUTBOX_DEAD_AFTER_MS = 15_000;

/** How many ids of kept messages it published a process remembers (see `keepUpdate`). */
export const PUBLISHED_REMEMBERED = 100_000;

/**
 * How long a kept message not found in its document (by {@link WriterRegistry.settle}) may wait
 * for its write before the write counts as failed (a write that fails publishes nothing, and must
 * not hold the low-water mark for ever).
 */
export const UNWRITTEN_AFTER_MS = 60_000;

/** Where a kept message is written: the name of its collection, and its document. */
export interface MarkedAt {
  collection: string;
  documentId: string;
}

/** A kept message marked for its write: where, and when. */
interface Mark extends MarkedAt {
  since: number;
}

/** A kept message whose publish failed, with its document: the sweep publishes it. */
export interface LeftMessage {
  collection: Collection<OutboxDocument>;
  documentId: string;
  message: OutboxMessage;
  /** When it was marked for its write. */
  since: number;
}

/**
 * The windows a dead writer can have written in and not published: from its low-water mark's to
 * the last one it can have written in before it counted as dead.
 */
export function windowsOf(gone: OutboxWriterDoc, deadAfterMs: number): string[] {
  const first = Math.floor(gone.low_water.getTime() / OUTBOX_WINDOW_MS);
  const last = Math.floor((gone.beat_at.getTime() + deadAfterMs) / OUTBOX_WINDOW_MS);
  const windows: string[] = [];
  for (let second = first; second <= last; second += 1) windows.push(`${gone._id}:${second}`);
  return windows;
}

export interface WriterRegistryOptions {
  /** The registry; none without kept collections (then this process is in no registry). */
  writers: Collection<OutboxWriterDoc> | undefined;
  kept: readonly Collection<OutboxDocument>[];
  logger: Logger;
  heartbeatMs?: number;
  deadAfterMs?: number;
}

/** This process as a writer of kept documents, and its view of the others. */
export class WriterRegistry {
  /** This writer's id, in its registry entry and its windows. */
  readonly id = `w_${randomUUID()}`;
  readonly heartbeatMs: number;
  readonly #options: WriterRegistryOptions;
  readonly #deadAfterMs: number;
  /** Kept messages marked for a write and not published yet, by id. */
  readonly #unpublished = new Map<string, Mark>();
  /**
   * Ids of kept messages this process published lately (the latest {@link PUBLISHED_REMEMBERED}):
   * a move drops them from the document it writes anyway, so a document carries little more than
   * its last write's messages, which every read of it decodes.
   */
  readonly #publishedHere = new Set<string>();
  /** Kept messages whose publish failed, by id. */
  readonly #left = new Map<string, LeftMessage>();

  constructor(options: WriterRegistryOptions) {
    this.#options = options;
    this.heartbeatMs = options.heartbeatMs ?? OUTBOX_HEARTBEAT_MS;
    this.#deadAfterMs = options.deadAfterMs ?? OUTBOX_DEAD_AFTER_MS;
  }

  /** Kept messages marked for their write whose publish has not come yet (for the metrics). */
  get markedCount(): number {
    return this.#unpublished.size;
  }

  /** Kept messages whose publish failed, waiting for the sweep (for the metrics). */
  get leftCount(): number {
    return this.#left.size;
  }

  /** Whether this process is in a registry (it has kept collections). */
  get registered(): boolean {
    return this.#options.writers !== undefined;
  }

  /**
   * This writer's window of now, with `messages`, about to be written into the document `at`,
   * held as unpublished until their publish (or until {@link settle} finds that their write failed).
   */
  mark(messages: readonly OutboxMessage[], at: MarkedAt): string {
    const since = Date.now();
    for (const message of messages) this.#unpublished.set(message.id, { ...at, since });
    return `${this.id}:${Math.floor(since / OUTBOX_WINDOW_MS)}`;
  }

  /** A kept message is published (by this writer, or adopted from a dead one). */
  published(id: string): void {
    this.#unpublished.delete(id);
    this.#left.delete(id);
    this.#publishedHere.add(id);
    if (this.#publishedHere.size > PUBLISHED_REMEMBERED) {
      const [oldest] = this.#publishedHere;
      if (oldest !== undefined) this.#publishedHere.delete(oldest);
    }
  }

  /** Whether this process published the message lately. */
  publishedHere(id: string): boolean {
    return this.#publishedHere.has(id);
  }

  /**
   * The publish of `messages` failed: kept messages are not swept from their documents while
   * this writer lives, so it keeps them itself, until a sweep publishes them.
   */
  failed(
    collection: Collection<OutboxDocument>,
    documentId: string,
    messages: readonly OutboxMessage[],
  ): void {
    for (const message of messages) {
      const since = this.#unpublished.get(message.id)?.since ?? Date.now();
      this.#unpublished.delete(message.id);
      this.#left.set(message.id, { collection, documentId, message, since });
    }
  }

  /** The kept messages whose publish failed, for the sweep. */
  left(): LeftMessage[] {
    return [...this.#left.values()];
  }

  /** Before this time every kept message of this writer is published. */
  lowWater(now = Date.now()): Date {
    let low = now;
    for (const { since } of this.#unpublished.values()) low = Math.min(low, since);
    for (const { since } of this.#left.values()) low = Math.min(low, since);
    return new Date(low);
  }

  /**
   * Settles the marks older than `graceMs` whose publish has not come: the write failed, or
   * failed only as far as its caller could tell (the connection lost after the server applied
   * it, so the call answered an error and never published; `npm run chaos` lost a
   * `deliverable.created` that way, its mark dropped after a minute while the deliverable stood).
   * Each is looked up in its document: a message there is published; one not there
   * {@link UNWRITTEN_AFTER_MS} after its mark is dropped (its write failed). Returns how many
   * were published.
   */
  async settle(
    publish: (message: OutboxMessage) => Promise<void>,
    graceMs: number,
    now = Date.now(),
  ): Promise<number> {
    const documents = new Map<string, { at: MarkedAt; ids: string[] }>();
    for (const [id, mark] of this.#unpublished) {
      if (now - mark.since < graceMs) continue;
      const key = `${mark.collection}/${mark.documentId}`;
      const entry = documents.get(key) ?? { at: mark, ids: [] };
      entry.ids.push(id);
      documents.set(key, entry);
    }
    let count = 0;
    for (const { at, ids } of documents.values()) {
      const collection = this.#options.kept.find((c) => c.collectionName === at.collection);
      const doc = await collection?.findOne({ _id: at.documentId }, { projection: { outbox: 1 } });
      for (const id of ids) {
        const mark = this.#unpublished.get(id);
        if (!mark) continue; // published meanwhile
        const message = doc?.outbox?.find((m) => m.id === id);
        if (message) {
          await publish(message);
          this.published(id);
          count += 1;
        } else if (now - mark.since > UNWRITTEN_AFTER_MS) {
          this.#unpublished.delete(id);
        }
      }
    }
    return count;
  }

  /** This writer's registry entry, as of now: the low-water mark first, then the beat. */
  async beat(): Promise<void> {
    const { writers } = this.#options;
    if (!writers) return;
    const low_water = this.lowWater();
    await writers.updateOne(
      { _id: this.id },
      { $set: { low_water, beat_at: new Date() } },
      { upsert: true },
    );
  }

  /**
   * Publishes again every kept message of each dead writer (no heartbeat for `deadAfterMs`),
   * in its windows ({@link windowsOf}), then drops its entry; returns how many. Another process
   * adopting the same writer at once publishes the same messages, which JetStream stores once.
   */
  async adoptDead(publish: (message: OutboxMessage) => Promise<void>): Promise<number> {
    const { writers, kept, logger } = this.#options;
    if (!writers) return 0;
    let count = 0;
    const dead = await writers
      .find({ _id: { $ne: this.id }, beat_at: { $lt: new Date(Date.now() - this.#deadAfterMs) } })
      .toArray();
    for (const gone of dead) {
      const before = count;
      for (const window of windowsOf(gone, this.#deadAfterMs)) {
        for (const collection of kept) {
          const written = await collection
            .find({ outbox_window: window }, { projection: { outbox: 1 } })
            .toArray();
          for (const doc of written) {
            for (const message of doc.outbox ?? []) {
              await publish(message);
              count += 1;
            }
          }
        }
      }
      await writers.deleteOne({ _id: gone._id, beat_at: gone.beat_at });
      const { low_water, beat_at } = gone;
      logger.info(
        { writer: gone._id, low_water, beat_at, published: count - before },
        'outbox: adopted the kept messages of a writer that stopped',
      );
    }
    return count;
  }

  /**
   * Leaves the registry when nothing of this writer is unpublished; else stays in it (a last
   * beat), for another process to adopt what is left.
   */
  async leave(): Promise<'left' | 'stayed' | 'unregistered'> {
    const { writers } = this.#options;
    if (!writers) return 'unregistered';
    this.lowWater();
    if (this.#unpublished.size > 0 || this.#left.size > 0) {
      await this.beat();
      return 'stayed';
    }
    await writers.deleteOne({ _id: this.id });
    return 'left';
  }
}
