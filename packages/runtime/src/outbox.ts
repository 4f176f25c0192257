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
  /** Starts the periodic sweep; the returned function stops it and waits for a running sweep. */
  start(): () => Promise<void>;
}

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
    payload,
    created_at: new Date(),
    ...(local ? { local } : {}),
    ...(headers ? { headers } : {}),
  };
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
  ) => {
    const payload = (await options.beforePublish?.(message)) ?? message.payload;
    const extra = message.headers ? Object.entries(message.headers) : [];
    const published = extra.length > 0 ? natsHeaders() : undefined;
    for (const [name, value] of extra) published?.set(name, value);
    await options.js.publish(message.subject, JSON.stringify(payload), {
      msgID: message.id,
      ...(published ? { headers: published } : {}),
    });
    crashForTest('crash-after-publish');
    remove({ collection, documentId, message });
  };

  const publish: Outbox['publish'] = async (collection, documentId, messages) => {
    crashForTest('crash-after-write');
    for (const message of messages) await publishOne(collection, documentId, message);
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
    return count;
  };

  const adoptUnmarked = async () => {
    let count = 0;
    for (const collection of options.collections) {
      const result = await collection.updateMany(
        { 'outbox.0': { $exists: true }, outbox_pending: { $exists: false } },
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
    start() {
      let running: Promise<unknown> = Promise.resolve();
      const interval = setInterval(() => {
        running = running.then(sweep).catch((error: unknown) => {
          options.logger.warn({ err: error }, 'outbox sweep failed; will retry');
        });
      }, options.sweepIntervalMs ?? 5_000);
      interval.unref();
      return async () => {
        clearInterval(interval);
        await running;
        await flush();
      };
    },
  };
}
