import type { Logger } from '@handoff/observability';
import type { JetStreamClient } from '@nats-io/jetstream';
import {
  bulkWriteInChunks,
  MAX_OPERATIONS_PER_COMMAND,
  type IndexDefinition,
  type Store,
} from '@handoff/store';
import { headers as natsHeaders } from '@nats-io/transport-node';
import type { AnyBulkWriteOperation, Collection, Document, Filter } from 'mongodb';
import { randomUUID } from 'node:crypto';

/**
 * A message waiting to be published. It is written inside the very document whose change it
 * announces, in the same single-document update, so the change and its message cannot drift
 * apart: if the process dies before publishing, the sweep publishes it later.
 */
export interface OutboxMessage {
  /** The event id; also the JetStream `Nats-Msg-Id`, so a repeated publish is stored once. */
  id: string;
  subject: string;
  /**
   * The body, as the JSON text that is published: one string field rather than the event's
   * object tree, since every later read of the document decodes what it holds (FerretDB turns
   * each field of a nested object into values of its own, and the messages of kept collections
   * stay in their documents). Messages written before hold the object; {@link payloadOf}
   * reads either.
   */
  payload: string | Record<string, unknown>;
  created_at: Date;
  /** Kept beside the message for `beforePublish` (e.g. an audit entry); never published. */
  local?: Record<string, unknown>;
  /** NATS headers to publish the message with (beside `Nats-Msg-Id`). */
  headers?: Record<string, string>;
}

/** The fields of any document that the outbox reads and writes. */
export interface OutboxFields {
  outbox?: OutboxMessage[];
  /**
   * Present while the outbox may hold messages: set in the write that adds one, unset once it is
   * empty. The sweep finds pending documents by the equality `outbox_pending: true`, which an
   * index serves (FerretDB pushes down only equality filters; a range over `outbox.created_at`
   * read every document). Written as `[true, group]` (see {@link markerOf}), which that equality
   * matches as well (an array field equals each of its elements, on MongoDB and FerretDB alike);
   * a bare `true` is the marker of documents written before the group.
   */
  outbox_pending?: OutboxMarker;
  /**
   * On a document of a kept collection: the writer and the second of the write that added its
   * messages, `<writer>:<second>`; after a move, those of the writes whose messages it still
   * keeps (an array equals each of its elements, on MongoDB and FerretDB alike). Never cleared:
   * the messages stay in the document after their publish, and only a writer that died has its
   * documents looked up by it (see {@link OutboxOptions.kept}).
   */
  outbox_window?: string | string[];
}

/** The marker of a document whose outbox holds messages: `true`, with or without its group. */
export type OutboxMarker = true | [true, string];

/**
 * How long a marker group lasts: the documents whose messages were written within the same
 * 20 ms share one, so the removal of their published messages finds them all with one indexed
 * equality, however many other documents are pending.
 */
export const MARKER_GROUP_MS = 20;

/** The marker a write adding `message` sets: `true` and the group of the message's time. */
export function markerOf(message: Pick<OutboxMessage, 'created_at'>): [true, string] {
  return [true, markerGroup(message)];
}

function markerGroup(message: Pick<OutboxMessage, 'created_at'>): string {
  return `g${Math.floor(new Date(message.created_at).getTime() / MARKER_GROUP_MS)}`;
}

/** The part of any document that the outbox reads and writes. */
export interface OutboxDocument extends OutboxFields {
  _id: string;
}

/** The one index of the outbox, on every collection whose documents carry messages. */
export const outboxIndex: IndexDefinition = {
  key: { outbox_pending: 1 },
  options: { name: 'outbox_marker' },
};
/** The index of kept collections: a dead writer's documents, one second of writes at a time. */
export const outboxWindowIndex: IndexDefinition = {
  key: { outbox_window: 1 },
  options: { name: 'outbox_window' },
};

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
/** How often the sweep runs, unless `sweepIntervalMs` says otherwise. */
export const OUTBOX_SWEEP_MS = 5_000;

/** How long a window of a kept collection lasts. */
export const OUTBOX_WINDOW_MS = 1_000;

/**
 * How long a move of a kept document keeps the messages (and windows) of earlier writes: long
 * published by then, since a writer that dies is adopted within seconds while any process of
 * its service runs, and a process adopts before it serves.
 */
export const KEPT_FOR_MS = 10 * 60_000;

/** How many ids of kept messages it published a process remembers (see `keepUpdate`). */
export const PUBLISHED_REMEMBERED = 100_000;

/** The second a window names. */
function windowSecond(window: string): number {
  return Number(window.slice(window.lastIndexOf(':') + 1));
}

/** The index the sweep used before the marker (a range over `outbox.created_at`). */
export const RETIRED_OUTBOX_INDEX = 'outbox_pending';

/** A new document with `messages` in its outbox, to insert as it is. */
export function withOutbox<T extends object>(
  doc: T,
  messages: readonly OutboxMessage[],
): T & OutboxFields {
  const [first] = messages;
  return first
    ? { ...doc, outbox: [...messages], outbox_pending: markerOf(first) }
    : { ...doc, outbox: [] };
}

type OutboxPush = OutboxMessage | { $each: OutboxMessage[] };

/** An update and the outbox part `pushOutbox` adds to it. */
export type WithOutboxPush<U extends { $set?: object; $push?: object }> = Omit<
  U,
  '$set' | '$push'
> & {
  $set: NonNullable<U['$set']> & { outbox_pending?: OutboxMarker };
  $push: NonNullable<U['$push']> & { outbox?: OutboxPush };
};

/** `update` that also adds `messages` to the document's outbox, in the same write. */
export function pushOutbox<U extends { $set?: object; $push?: object }>(
  update: U,
  messages: readonly OutboxMessage[],
): WithOutboxPush<U> {
  const $set = { ...(update.$set as NonNullable<U['$set']>) };
  const $push = { ...(update.$push as NonNullable<U['$push']>) };
  const [only] = messages;
  if (!only) return { ...update, $set, $push };
  const outbox: OutboxPush = messages.length === 1 ? only : { $each: [...messages] };
  return {
    ...update,
    $set: { ...$set, outbox_pending: markerOf(only) },
    $push: { ...$push, outbox },
  };
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
  withMessages<T extends object>(
    collection: { collectionName: string },
    doc: T,
    messages: readonly OutboxMessage[],
  ): T & OutboxFields;
  /** Whether the collection of that name is kept. */
  keeps(collection: string): boolean;
  /**
   * A change of a kept document as it stood (`before`) that adds `messages`: `update` with the
   * outbox set to the messages of the last {@link KEPT_FOR_MS} and these (marked like `keep`),
   * and the windows likewise; and the condition that the outbox is still the one read, for the
   * compare-and-set (so that no message another write added meanwhile is lost).
   */
  keepUpdate<U extends { $set?: object }>(
    before: OutboxFields,
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

/**
 * How long a kept message may wait for its publish before the write that carries it counts as
 * failed (a write that fails publishes nothing, and must not hold the low-water mark for ever).
 */
export const UNWRITTEN_AFTER_MS = 60_000;

export function outboxMessage(
  id: string,
  subject: string,
  payload: Record<string, unknown>,
  local?: Record<string, unknown>,
  headers?: Record<string, string>,
): OutboxMessage {
  return {
    id,
    subject,
    payload: JSON.stringify(payload),
    created_at: new Date(),
    ...(local ? { local } : {}),
    ...(headers ? { headers } : {}),
  };
}

/** A message's body as the JSON text that is published, however it was stored. */
export function bodyOf(message: Pick<OutboxMessage, 'payload'>): string {
  return typeof message.payload === 'string' ? message.payload : JSON.stringify(message.payload);
}

/** A message's body as an object, however it was stored (see {@link OutboxMessage.payload}). */
export function payloadOf(message: Pick<OutboxMessage, 'payload'>): Record<string, unknown> {
  return typeof message.payload === 'string'
    ? (JSON.parse(message.payload) as Record<string, unknown>)
    : message.payload;
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

/** A published message to remove, or (without one) a document whose outbox may be empty. */
interface Removal {
  collection: Collection<OutboxDocument>;
  documentId: string;
  message?: OutboxMessage;
}

/**
 * Runs `task` while holding the per-document serialization of every id, so that a batched write
 * never races a change of one of those documents (FerretDB applies neither `$pull` nor a
 * conditional update atomically). Each id is waited for on its own: no lock order to get wrong.
 * This cannot deadlock as long as no task waits for one document's turn while holding another
 * document's turn in the same collection (the batch holds turns of one collection at a time).
 */
async function holdingAll<T>(
  serialize: Store['serialize'] | undefined,
  collection: Collection<OutboxDocument>,
  ids: readonly string[],
  task: () => Promise<T>,
): Promise<T> {
  if (!serialize) return task();
  let release = () => {};
  const done = new Promise<void>((resolve) => {
    release = resolve;
  });
  const held = ids.map(
    (id) =>
      new Promise<void>((acquired) => {
        void serialize(collection, id, () => {
          acquired();
          return done;
        });
      }),
  );
  try {
    await Promise.all(held);
    return await task();
  } finally {
    release();
  }
}

/**
 * How many removal commands (of up to `MAX_OPERATIONS_PER_COMMAND` documents each) run at once.
 * FerretDB 1.24 holds a connection per update of a command until the command ends, so this times
 * that stays well inside its pool of 100.
 */
const CLEAR_CONCURRENCY = 4;

export function createOutbox(options: OutboxOptions): Outbox {
  const clearDelayMs = options.clearDelayMs ?? 25;
  const clearBatchSize = options.clearBatchSize ?? 200;
  let waiting: Removal[] = [];
  let timer: NodeJS.Timeout | undefined;
  let clearing: Promise<void> = Promise.resolve();

  const kept = options.kept ?? [];
  const keptNames = new Set(kept.map((collection) => collection.collectionName));
  const writers = kept.length > 0 ? options.writers : undefined;
  if (kept.length > 0 && !writers)
    throw new Error('kept outbox collections need a writer registry');
  const heartbeatMs = options.heartbeatMs ?? OUTBOX_HEARTBEAT_MS;
  const deadAfterMs = options.deadAfterMs ?? OUTBOX_DEAD_AFTER_MS;
  const writer = `w_${randomUUID()}`;
  /** Kept messages marked for a write and not published yet: when they were marked, by id. */
  const unpublished = new Map<string, number>();
  /**
   * Ids of kept messages this process published lately (the latest {@link PUBLISHED_REMEMBERED}):
   * a move drops them from the document it writes anyway, so a document carries little more than
   * its last write's messages, which every read of it decodes.
   */
  const publishedHere = new Set<string>();
  /** Kept messages whose publish failed, with their documents: the sweep publishes them. */
  const left = new Map<
    string,
    {
      collection: Collection<OutboxDocument>;
      documentId: string;
      message: OutboxMessage;
      since: number;
    }
  >();

  /** Before this time every kept message of this writer is published. */
  const lowWater = (): Date => {
    const now = Date.now();
    let low = now;
    for (const [id, since] of unpublished) {
      if (now - since > UNWRITTEN_AFTER_MS) unpublished.delete(id);
      else low = Math.min(low, since);
    }
    for (const { since } of left.values()) low = Math.min(low, since);
    return new Date(low);
  };
  /** This writer's window of now, with `messages` held as unpublished until their publish. */
  const mark = (messages: readonly OutboxMessage[]): string => {
    const since = Date.now();
    for (const message of messages) unpublished.set(message.id, since);
    return `${writer}:${Math.floor(since / OUTBOX_WINDOW_MS)}`;
  };
  /** This writer's registry entry, as of now: the low-water mark first, then the beat. */
  const heartbeat = async () => {
    if (!writers) return;
    const low_water = lowWater();
    await writers.updateOne(
      { _id: writer },
      { $set: { low_water, beat_at: new Date() } },
      { upsert: true },
    );
  };

  /**
   * Removes the published messages of a chunk of one collection's documents. A document is
   * emptied (outbox `[]`, marker dropped) only when its outbox holds exactly the messages just
   * published: its size and their ids match, checked in the filter, so atomically on MongoDB and
   * under the document's serialized turn on FerretDB. That is the rule: a document rarely gets a
   * message between its publish and this removal.
   *
   * - When the chunk's documents share a marker group (`group`), first one `updateMany` on
   *   `{outbox_pending: group, $or: [each document's condition]}`: the group is an indexed
   *   equality that reads only the documents written in the same 20 ms, and FerretDB writes all
   *   of them in one transaction, where an update per document cost it a query and a commit each.
   * - Otherwise, or when that matched fewer, one update per document, `{_id, …condition}`: `_id`
   *   is the one member FerretDB needs to find the document by its index, the rest is checked on
   *   that one document.
   * - When those matched fewer too (a document got a message meanwhile), the long way: a `$pull`
   *   of each exact message (FerretDB 1.24 matches `$pull` conditions only by whole-element
   *   equality), then the marker dropped only where the outbox is empty in that very update, so a
   *   message pushed meanwhile keeps it.
   */
  const clearChunk = async (
    collection: Collection<OutboxDocument>,
    documents: readonly (readonly [string, OutboxMessage[]])[],
    group: string | undefined,
  ) => {
    const ids = documents.map(([documentId]) => documentId);
    const condition = (documentId: string, messages: OutboxMessage[]) => ({
      _id: documentId,
      outbox: { $size: messages.length },
      // Each id by equality: FerretDB 1.24 applies neither `$all` nor `$elemMatch` on an array
      // of documents (it matches nothing), but does apply dotted equalities.
      ...(messages.length > 0 ? { $and: messages.map((m) => ({ 'outbox.id': m.id })) } : {}),
    });
    const emptied = { $set: { outbox: [] }, $unset: { outbox_pending: '' as const } };
    try {
      await holdingAll(options.serialize, collection, ids, async () => {
        if (group !== undefined) {
          const filter = {
            outbox_pending: group,
            $or: documents.map(([documentId, messages]) => condition(documentId, messages)),
          } as Filter<OutboxDocument>;
          const { matchedCount } = await collection.updateMany(filter, emptied);
          if (matchedCount === documents.length) return;
        }
        // Built only when needed: the group's command clears the whole chunk as a rule.
        const direct: AnyBulkWriteOperation<OutboxDocument>[] = documents.map(
          ([documentId, messages]) => ({
            updateOne: { filter: condition(documentId, messages), update: emptied },
          }),
        );
        const { matched } = await bulkWriteInChunks(collection, direct, { ordered: false });
        if (matched === direct.length) return;
        const longWay: AnyBulkWriteOperation<OutboxDocument>[] = [
          ...documents.flatMap(([documentId, messages]) =>
            messages.map((message) => ({
              updateOne: { filter: { _id: documentId }, update: { $pull: { outbox: message } } },
            })),
          ),
          {
            updateMany: {
              filter: { outbox_pending: true, _id: { $in: ids }, outbox: { $size: 0 } },
              update: { $unset: { outbox_pending: '' as const } },
            },
          },
        ];
        await bulkWriteInChunks(collection, longWay, { ordered: true });
      });
    } catch (error) {
      // Published but still in the outbox: the sweep publishes them again, which JetStream
      // (same message id) and the sequence bucket (same event id) make harmless.
      options.logger.warn(
        { err: error, collection: collection.collectionName, documents: ids.length },
        'outbox removal failed; left for the sweep',
      );
    }
  };

  const clearBatch = async (batch: Removal[]) => {
    // By collection name (callers hold their own handles of one collection), then by document,
    // each document with the distinct messages published from it.
    const byCollection = new Map<
      string,
      { collection: Collection<OutboxDocument>; documents: Map<string, Map<string, OutboxMessage>> }
    >();
    for (const removal of batch) {
      const name = removal.collection.collectionName;
      const entry = byCollection.get(name) ?? {
        collection: removal.collection,
        documents: new Map<string, Map<string, OutboxMessage>>(),
      };
      const messages = entry.documents.get(removal.documentId) ?? new Map<string, OutboxMessage>();
      if (removal.message) messages.set(removal.message.id, removal.message);
      entry.documents.set(removal.documentId, messages);
      byCollection.set(name, entry);
    }
    const chunks: (() => Promise<void>)[] = [];
    for (const { collection, documents } of byCollection.values()) {
      // By marker group: a document's marker is the group of the last message written into it,
      // the latest of those published when its outbox holds just them. None for a marker found
      // on an empty outbox.
      const byGroup = new Map<string | undefined, [string, OutboxMessage[]][]>();
      for (const [documentId, messages] of documents) {
        const list = [...messages.values()];
        const latest = list.reduce<OutboxMessage | undefined>(
          (last, message) =>
            last && new Date(last.created_at) > new Date(message.created_at) ? last : message,
          undefined,
        );
        const group = latest ? markerGroup(latest) : undefined;
        const members = byGroup.get(group) ?? [];
        members.push([documentId, list]);
        byGroup.set(group, members);
      }
      for (const [group, members] of byGroup) {
        for (let start = 0; start < members.length; start += MAX_OPERATIONS_PER_COMMAND) {
          const some = members.slice(start, start + MAX_OPERATIONS_PER_COMMAND);
          chunks.push(() => clearChunk(collection, some, group));
        }
      }
    }
    // A few commands at once: one after another, the removals (a query and a commit per
    // document on FerretDB) fell behind a busy write path, and the documents they left marked
    // made every sweep read thousands of them.
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(CLEAR_CONCURRENCY, chunks.length) }, async () => {
        while (next < chunks.length) {
          const chunk = chunks[next];
          next += 1;
          await chunk?.();
        }
      }),
    );
  };

  const flush = (): Promise<void> => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    clearing = clearing.then(async () => {
      while (waiting.length > 0) {
        const batch = waiting;
        waiting = [];
        await clearBatch(batch);
      }
    });
    return clearing;
  };

  const remove = (removal: Removal) => {
    waiting.push(removal);
    if (waiting.length >= clearBatchSize) void flush();
    else if (!timer) {
      timer = setTimeout(() => void flush(), clearDelayMs);
      timer.unref();
    }
  };

  const publishOne = async (
    collection: Collection<OutboxDocument>,
    documentId: string,
    message: OutboxMessage,
    removal = true,
  ) => {
    const replaced = await options.beforePublish?.(message);
    const body = replaced !== undefined ? JSON.stringify(replaced) : bodyOf(message);
    const extra = message.headers ? Object.entries(message.headers) : [];
    const published = extra.length > 0 ? natsHeaders() : undefined;
    for (const [name, value] of extra) published?.set(name, value);
    await options.js.publish(message.subject, body, {
      msgID: message.id,
      ...(published ? { headers: published } : {}),
    });
    crashForTest('crash-after-publish');
    if (removal) {
      remove({ collection, documentId, message });
    } else {
      unpublished.delete(message.id);
      left.delete(message.id);
      publishedHere.add(message.id);
      if (publishedHere.size > PUBLISHED_REMEMBERED) {
        const [oldest] = publishedHere;
        if (oldest !== undefined) publishedHere.delete(oldest);
      }
    }
  };

  const publish: Outbox['publish'] = async (collection, documentId, messages) => {
    crashForTest('crash-after-write');
    if (!keptNames.has(collection.collectionName)) {
      for (const message of messages) await publishOne(collection, documentId, message);
      return;
    }
    for (const [index, message] of messages.entries()) {
      try {
        await publishOne(collection, documentId, message, false);
      } catch (error) {
        // Kept messages are not swept from their documents while this writer lives: it keeps
        // the rest of them itself, until a sweep publishes them.
        for (const rest of messages.slice(index)) {
          const since = unpublished.get(rest.id) ?? Date.now();
          unpublished.delete(rest.id);
          left.set(rest.id, { collection, documentId, message: rest, since });
        }
        throw error;
      }
    }
  };

  /**
   * Publishes again every kept message of each dead writer (no heartbeat for `deadAfterMs`),
   * from its low-water mark's window to the last one it can have written in, then drops its
   * entry; returns how many. Another process adopting the same writer at once publishes the
   * same messages, which JetStream stores once.
   */
  const adoptDead = async (): Promise<number> => {
    if (!writers) return 0;
    let count = 0;
    const dead = await writers
      .find({ _id: { $ne: writer }, beat_at: { $lt: new Date(Date.now() - deadAfterMs) } })
      .toArray();
    for (const gone of dead) {
      const before = count;
      const first = Math.floor(gone.low_water.getTime() / OUTBOX_WINDOW_MS);
      const last = Math.floor((gone.beat_at.getTime() + deadAfterMs) / OUTBOX_WINDOW_MS);
      for (let second = first; second <= last; second += 1) {
        for (const collection of kept) {
          const written = await collection
            .find({ outbox_window: `${gone._id}:${second}` }, { projection: { outbox: 1 } })
            .toArray();
          for (const doc of written) {
            for (const message of doc.outbox ?? []) {
              await publishOne(collection, doc._id, message, false);
              count += 1;
            }
          }
        }
      }
      await writers.deleteOne({ _id: gone._id, beat_at: gone.beat_at });
      options.logger.info(
        {
          writer: gone._id,
          low_water: gone.low_water,
          beat_at: gone.beat_at,
          published: count - before,
        },
        'outbox: adopted the kept messages of a writer that stopped',
      );
    }
    return count;
  };

  const sweep = async () => {
    let count = 0;
    const before = Date.now() - (options.sweepGraceMs ?? 2_000);
    for (const collection of options.collections) {
      const pending = await collection
        .find({ outbox_pending: true }, { projection: { outbox: 1 } })
        .limit(500)
        .toArray();
      for (const doc of pending) {
        const messages = doc.outbox ?? [];
        // A marker left on an empty outbox (a crash between the removal and the unset).
        if (messages.length === 0) remove({ collection, documentId: doc._id });
        for (const message of messages) {
          if (new Date(message.created_at).getTime() >= before) continue;
          await publishOne(collection, doc._id, message);
          count += 1;
        }
      }
    }
    await flush();
    for (const { collection, documentId, message } of [...left.values()]) {
      await publishOne(collection, documentId, message, false);
      count += 1;
    }
    count += await adoptDead();
    return count;
  };

  const adoptUnmarked = async () => {
    let count = 0;
    for (const collection of options.collections) {
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
    flush,
    adoptUnmarked,
    withMessages(collection, doc, messages) {
      if (!keptNames.has(collection.collectionName)) return withOutbox(doc, messages);
      if (messages.length === 0) return { ...doc, outbox: [] };
      return { ...doc, outbox: [...messages], outbox_window: mark(messages) };
    },
    keeps: (collection) => keptNames.has(collection),
    keepUpdate(before, update, messages) {
      const kept = before.outbox ?? [];
      const unchanged = { outbox: before.outbox ? { $size: kept.length } : { $exists: false } };
      if (messages.length === 0)
        return { update: { ...update, $set: { ...update.$set } }, unchanged };
      const since = Date.now() - KEPT_FOR_MS;
      const windows = [before.outbox_window ?? []].flat();
      const outbox_window = [
        ...windows.filter((window) => windowSecond(window) * OUTBOX_WINDOW_MS >= since),
        mark(messages),
      ];
      const outbox = [
        ...kept.filter(
          (message) =>
            new Date(message.created_at).getTime() >= since && !publishedHere.has(message.id),
        ),
        ...messages,
      ];
      return {
        update: {
          ...update,
          $set: { ...update.$set, outbox, outbox_window: [...new Set(outbox_window)] },
        },
        unchanged,
      };
    },
    register: heartbeat,
    start() {
      let running: Promise<unknown> = Promise.resolve();
      const interval = setInterval(() => {
        running = running.then(sweep).catch((error: unknown) => {
          options.logger.warn({ err: error }, 'outbox sweep failed; will retry');
        });
      }, options.sweepIntervalMs ?? OUTBOX_SWEEP_MS);
      interval.unref();
      let beating: Promise<unknown> = Promise.resolve();
      const beat = writers
        ? setInterval(() => {
            beating = beating.then(heartbeat).catch((error: unknown) => {
              options.logger.warn({ err: error }, 'outbox heartbeat failed; will retry');
            });
          }, heartbeatMs)
        : undefined;
      beat?.unref();
      return async () => {
        clearInterval(interval);
        clearInterval(beat);
        await running;
        await beating;
        await flush();
        if (!writers) return;
        lowWater(); // drops the marks of writes that failed
        // What is still unpublished keeps the entry, for another process to adopt.
        if (unpublished.size > 0 || left.size > 0) await heartbeat();
        else await writers.deleteOne({ _id: writer });
      };
    },
  };
}
