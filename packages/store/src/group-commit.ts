import {
  MongoBulkWriteError,
  MongoServerError,
  type Collection,
  type Document,
  type OptionalUnlessRequiredId,
} from 'mongodb';
import { writeErrorsOf } from './duplicates.ts';

export interface GroupCommitOptions {
  /** Times a failed batch is written in all (default 3): only for writes safe to repeat. */
  tries?: number;
  /** Items written in one batch at the most (default 500). */
  maxBatch?: number;
}

/**
 * What a batch's write may resolve with to fail single items: at a position, the error that item
 * alone failed with (the others were written). Anything else (nothing, or no entry at a
 * position): the item was written.
 */
export type ItemErrors = readonly unknown[];

/**
 * Group commit: calls `write` with what was added, one batch at a time (so two items added one
 * after the other are written in that order). When no write is under way, what was added in the
 * same turn of the event loop is written at once; while one is, additions wait and go together in
 * the next. So an item waits for no timer when the database keeps up, and batches grow with the
 * load when it does not: N callers at once cost one command, not N. `add` resolves once its batch
 * is written (or rejects with its own error, when `write` names one); a batch that fails as a
 * whole is tried again up to `tries` times, then each of its callers gets the error.
 */
export function groupCommit<T>(
  write: (items: T[]) => Promise<unknown>,
  options: GroupCommitOptions = {},
) {
  const tries = options.tries ?? 3;
  const maxBatch = options.maxBatch ?? 500;
  let items: T[] = [];
  let waiters: { resolve: () => void; reject: (error: unknown) => void }[] = [];
  let scheduled = false;
  let writing: Promise<void> | undefined;

  const writeWithRetries = async (batch: T[]): Promise<unknown> => {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await write(batch);
      } catch (error) {
        if (attempt >= tries) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
      }
    }
  };

  const flush = () => {
    scheduled = false;
    if (writing || items.length === 0) return;
    const batch = { items: items.slice(0, maxBatch), waiters: waiters.slice(0, maxBatch) };
    items = items.slice(maxBatch);
    waiters = waiters.slice(maxBatch);
    writing = writeWithRetries(batch.items)
      .then(
        (result) =>
          batch.waiters.forEach((waiter, index) => {
            const error = Array.isArray(result) ? (result as ItemErrors)[index] : undefined;
            if (error === undefined) waiter.resolve();
            else waiter.reject(error);
          }),
        (error: unknown) => batch.waiters.forEach((waiter) => waiter.reject(error)),
      )
      .finally(() => {
        writing = undefined;
        flush();
      });
  };

  return {
    add(item: T): Promise<void> {
      const written = new Promise<void>((resolve, reject) => waiters.push({ resolve, reject }));
      items.push(item);
      if (!writing && !scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
      return written;
    },
    /** Writes what waits, and resolves once nothing is being written. */
    async close(): Promise<void> {
      flush();
      while (writing) await writing;
    },
  };
}
export type GroupCommit<T> = ReturnType<typeof groupCommit<T>>;

/**
 * `insertOne` for a hot path where many callers insert at once: the documents of concurrent
 * callers go to the database as one unordered `insertMany` ({@link groupCommit}), one command and
 * one commit instead of one each. Each caller's promise settles with its own document's outcome:
 * a document a unique index refused rejects its caller alone, with an error `isDuplicateKey`
 * recognizes. A batch is never written twice (a repeated unordered insert could report documents
 * of its own first try as duplicates): a failure of the whole command rejects every caller of it.
 */
export function groupedInserts<T extends Document>(collection: Collection<T>) {
  const commit = groupCommit<T>(
    async (docs) => {
      try {
        await collection.insertMany(docs as OptionalUnlessRequiredId<T>[], { ordered: false });
        return [];
      } catch (error) {
        if (!(error instanceof MongoBulkWriteError)) throw error;
        const refused = writeErrorsOf(error);
        if (refused.length === 0) throw error;
        const errors: unknown[] = [];
        for (const entry of refused) {
          errors[entry.index] = new MongoServerError({
            message: entry.errmsg ?? `write error ${entry.code}`,
            code: entry.code,
          });
        }
        return errors;
      }
    },
    { tries: 1 },
  );
  return {
    /** Resolves once `doc` is stored, as `insertOne` would. */
    insert: (doc: T): Promise<void> => commit.add(doc),
    close: () => commit.close(),
  };
}
export type GroupedInserts<T extends Document> = ReturnType<typeof groupedInserts<T>>;
