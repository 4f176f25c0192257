// Removing published messages from their documents, in batches: one write clears many documents,
// so a message costs its document one write more at most, shared with the messages of others.
import type { Logger } from '@handoff/observability';
import { bulkWriteInChunks, MAX_OPERATIONS_PER_COMMAND, type Store } from '@handoff/store';
import type { AnyBulkWriteOperation, Collection, Filter } from 'mongodb';
import { markerGroup, type OutboxDocument, type OutboxMessage } from './document.ts';

/**
 * How many removal commands (of up to `MAX_OPERATIONS_PER_COMMAND` documents each) run at once.
 * FerretDB 1.24 holds a connection per update of a command until the command ends, so this times
 * that stays well inside its pool of 100.
 */
const CLEAR_CONCURRENCY = 4;

/** A published message to remove, or (without one) a document whose outbox may be empty. */
export interface Removal {
  collection: Collection<OutboxDocument>;
  documentId: string;
  message?: OutboxMessage;
}

/** Documents of one collection cleared by one command: each with its published messages. */
export interface RemovalChunk {
  collection: Collection<OutboxDocument>;
  documents: (readonly [string, OutboxMessage[]])[];
  /** The marker group they share; none for markers found on empty outboxes. */
  group: string | undefined;
}

/** How a chunk was cleared (see {@link clearChunk}). */
export type ChunkCleared =
  | { by: 'group' | 'each' | 'long-way'; documents: number }
  /** Left for the sweep, which publishes the messages again (harmless: same ids). */
  | { by: 'failed'; collection: string; documents: number; error: unknown };

/**
 * The chunks a batch is cleared in: by collection name (callers hold their own handles of one
 * collection), then by document, each document with the distinct messages published from it,
 * then by marker group (a document's marker is the group of the last message written into it,
 * the latest of those published when its outbox holds just them), at most
 * `MAX_OPERATIONS_PER_COMMAND` documents each.
 */
export function removalChunks(batch: readonly Removal[]): RemovalChunk[] {
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
  const chunks: RemovalChunk[] = [];
  for (const { collection, documents } of byCollection.values()) {
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
        chunks.push({
          collection,
          documents: members.slice(start, start + MAX_OPERATIONS_PER_COMMAND),
          group,
        });
      }
    }
  }
  return chunks;
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
  // A turn that cannot be had (with STORE_LOCKS, taking a document's lock fails while the
  // database is away) fails the batch: the 30-minute soak saw it end payments#1 as an unhandled
  // rejection, and its batch would have waited for that turn for ever.
  const held = ids.map(
    (id) =>
      new Promise<void>((acquired, failed) => {
        serialize(collection, id, () => {
          acquired();
          return done;
        }).catch(failed);
      }),
  );
  try {
    await Promise.all(held);
    return await task();
  } finally {
    release();
  }
}

const EMPTIED = { $set: { outbox: [] }, $unset: { outbox_pending: '' as const } };

/** The condition under which a document is emptied: its outbox holds exactly `messages`. */
function heldExactly(documentId: string, messages: readonly OutboxMessage[]) {
  return {
    _id: documentId,
    outbox: { $size: messages.length },
    // Each id by equality: FerretDB 1.24 applies neither `$all` nor `$elemMatch` on an array
    // of documents (it matches nothing), but does apply dotted equalities.
    ...(messages.length > 0 ? { $and: messages.map((m) => ({ 'outbox.id': m.id })) } : {}),
  };
}

/**
 * Removes the published messages of a chunk. A document is emptied (outbox `[]`, marker dropped)
 * only when its outbox holds exactly the messages just published: its size and their ids match,
 * checked in the filter, so atomically on MongoDB and under the document's serialized turn on
 * FerretDB. That is the rule: a document rarely gets a message between its publish and this
 * removal.
 *
 * - `group`: when the chunk's documents share a marker group, one `updateMany` on
 *   `{outbox_pending: group, $or: [each document's condition]}`: the group is an indexed
 *   equality that reads only the documents written in the same 20 ms, and FerretDB writes all
 *   of them in one transaction, where an update per document cost it a query and a commit each.
 * - `each`: otherwise, or when that matched fewer, one update per document, `{_id, …condition}`:
 *   `_id` is the one member FerretDB needs to find the document by its index, the rest is
 *   checked on that one document.
 * - `long-way`: when those matched fewer too (a document got a message meanwhile), a `$pull` of
 *   each exact message (FerretDB 1.24 matches `$pull` conditions only by whole-element
 *   equality), then the marker dropped only where the outbox is empty in that very update, so a
 *   message pushed meanwhile keeps it.
 */
export async function clearChunk(
  chunk: RemovalChunk,
  serialize: Store['serialize'] | undefined,
): Promise<ChunkCleared> {
  const { collection, documents, group } = chunk;
  const ids = documents.map(([documentId]) => documentId);
  try {
    const by = await holdingAll(serialize, collection, ids, async () => {
      if (group !== undefined) {
        const filter = {
          outbox_pending: group,
          $or: documents.map(([documentId, messages]) => heldExactly(documentId, messages)),
        } as Filter<OutboxDocument>;
        const { matchedCount } = await collection.updateMany(filter, EMPTIED);
        if (matchedCount === documents.length) return 'group' as const;
      }
      // Built only when needed: the group's command clears the whole chunk as a rule.
      const direct: AnyBulkWriteOperation<OutboxDocument>[] = documents.map(
        ([documentId, messages]) => ({
          updateOne: { filter: heldExactly(documentId, messages), update: EMPTIED },
        }),
      );
      const { matched } = await bulkWriteInChunks(collection, direct, { ordered: false });
      if (matched === direct.length) return 'each' as const;
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
      return 'long-way' as const;
    });
    return { by, documents: ids.length };
  } catch (error) {
    return { by: 'failed', collection: collection.collectionName, documents: ids.length, error };
  }
}

/**
 * Clears a batch, a few commands at once: one after another, the removals (a query and a commit
 * per document on FerretDB) fell behind a busy write path, and the documents they left marked
 * made every sweep read thousands of them.
 */
export async function clearRemovals(
  batch: readonly Removal[],
  serialize: Store['serialize'] | undefined,
): Promise<ChunkCleared[]> {
  const chunks = removalChunks(batch);
  const cleared: ChunkCleared[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(CLEAR_CONCURRENCY, chunks.length) }, async () => {
      while (next < chunks.length) {
        const chunk = chunks[next];
        next += 1;
        if (chunk) cleared.push(await clearChunk(chunk, serialize));
      }
    }),
  );
  return cleared;
}

export interface RemovalOptions {
  logger: Logger;
  /** Serializes writes per document (the store's), so the removal never races a new message. */
  serialize?: Store['serialize'];
  /** Removals wait at most this long for others to share their write (25 ms). */
  delayMs?: number;
  /** … or until this many wait (200). */
  batchSize?: number;
}

/** Published messages, removed from their documents in batches. */
export function removals(options: RemovalOptions) {
  const delayMs = options.delayMs ?? 25;
  const batchSize = options.batchSize ?? 200;
  let waiting: Removal[] = [];
  let timer: NodeJS.Timeout | undefined;
  let clearing: Promise<void> = Promise.resolve();

  const report = (cleared: ChunkCleared[]) => {
    for (const chunk of cleared) {
      if (chunk.by !== 'failed') continue;
      // Published but still in the outbox: the sweep publishes them again, which JetStream
      // (same message id) and the sequence bucket (same event id) make harmless.
      options.logger.warn(
        { err: chunk.error, collection: chunk.collection, documents: chunk.documents },
        'outbox removal failed; left for the sweep',
      );
    }
  };

  /** Removes every message published so far from its document. */
  const flush = (): Promise<void> => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    clearing = clearing.then(async () => {
      while (waiting.length > 0) {
        const batch = waiting;
        waiting = [];
        report(await clearRemovals(batch, options.serialize));
      }
    });
    return clearing;
  };

  return {
    /** Removes the message with the next batch (or, without one, drops a stale marker). */
    remove(removal: Removal): void {
      waiting.push(removal);
      if (waiting.length >= batchSize) void flush();
      else if (!timer) {
        timer = setTimeout(() => void flush(), delayMs);
        timer.unref();
      }
    },
    flush,
  };
}
export type Removals = ReturnType<typeof removals>;
