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
  /** How long one try of a batch may take before it is aborted ({@link GROUP_COMMIT_TIMEOUT_MS}). */
  timeoutMs?: number;
}

/**
 * How long one try of a batch's write may take. A write can wait for ever: the MongoDB driver
 * (7.8) waits for its socket's `drain` when a command does not fit the socket's buffers, and a
 * connection closed meanwhile from the driver's side (the pool cleared after a heartbeat timed
 * out, which interrupts the connections in use) never ends that wait. Seen in the soak of seed 72
 * and in a 20-minute run of database restarts: a webhook-dispatcher replica whose attempts log
 * waited behind one such batch, for good, with the connection it was written on closed and
 * still checked out. A group commit holds every later batch behind the one being written, so
 * one write that never ends stops them all; aborted, the batch fails (and is tried again when
 * `tries` allows) and the next ones go on. A slow write may be cut short too (a commit under a
 * PostgreSQL restart took 34 s): it is then tried again, which the attempts log and the events
 * feed may (they refuse what a try wrote before as duplicates); `groupedInserts` fails its
 * callers instead. Three tries of the attempts log end within the 2 minutes after which the
 * dispatcher gives a job up as stuck.
 */
export const GROUP_COMMIT_TIMEOUT_MS = 30_000;

/** A batch's write that took longer than its timeout. */
export class GroupCommitTimeoutError extends Error {
  constructor(items: number, timeoutMs: number) {
    super(`a batch of ${items} write(s) took over ${timeoutMs / 1000} s and was aborted`);
    this.name = 'GroupCommitTimeoutError';
  }
}

/**
 * What a batch's write may resolve with to fail single items: at a position, the error that item
 * alone failed with (the others were written). Anything else (nothing, or no entry at a
 * position): the item was written.
 */
export type ItemErrors = readonly unknown[];

/**
 * Group commit: calls `write` with what was added, one batch at a time (so two items added one
 * after the other are written in that order), and a signal that aborts when the try has taken
 * `timeoutMs` (the write passes it to the driver; a write that does not stop is failed anyway). When no write is under way, what was added in the
 * same turn of the event loop is written at once; while one is, additions wait and go together in
 * the next. So an item waits for no timer when the database keeps up, and batches grow with the
 * load when it does not: N callers at once cost one command, not N. `add` resolves once its batch
 * is written (or rejects with its own error, when `write` names one); a batch that fails as a
 * whole is tried again up to `tries` times, then each of its callers gets the error.
 */
export function groupCommit<T>(
  write: (items: T[], signal: AbortSignal) => Promise<unknown>,
  options: GroupCommitOptions = {},
) {
  const tries = options.tries ?? 3;
  const maxBatch = options.maxBatch ?? 500;
  const timeoutMs = options.timeoutMs ?? GROUP_COMMIT_TIMEOUT_MS;
  let items: T[] = [];
  let waiters: { resolve: () => void; reject: (error: unknown) => void }[] = [];
  let scheduled = false;
  let writing: Promise<void> | undefined;

  const writeOnce = (batch: T[]): Promise<unknown> => {
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new GroupCommitTimeoutError(batch.length, timeoutMs)),
      timeoutMs,
    );
    const aborted = new Promise<never>((_, reject) => {
      controller.signal.addEventListener('abort', () => reject(controller.signal.reason as Error));
    });
    // Aborted, the batch fails with the timeout, whatever the write made of the abort.
    return Promise.race([write(batch, controller.signal), aborted])
      .catch((error: unknown) => {
        throw controller.signal.aborted ? (controller.signal.reason as Error) : error;
      })
      .finally(() => clearTimeout(timer));
  };

  const writeWithRetries = async (batch: T[]): Promise<unknown> => {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await writeOnce(batch);
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
export function groupedInserts<T extends Document>(
  collection: Collection<T>,
  options: Pick<GroupCommitOptions, 'timeoutMs'> = {},
) {
  const commit = groupCommit<T>(
    async (docs, signal) => {
      try {
        await collection.insertMany(
          docs as OptionalUnlessRequiredId<T>[],
          abortable({ ordered: false }, signal),
        );
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
    { tries: 1, ...options },
  );
  return {
    /** Resolves once `doc` is stored, as `insertOne` would. */
    insert: (doc: T): Promise<void> => commit.add(doc),
    close: () => commit.close(),
  };
}
export type GroupedInserts<T extends Document> = ReturnType<typeof groupedInserts<T>>;

/**
 * Write options with `signal`. The driver (7.8) aborts any command with it (the pool checkout,
 * the socket's write and read), but its types declare it on reads only.
 */
export function abortable<O extends object>(options: O, signal: AbortSignal | undefined): O {
  return signal === undefined ? options : ({ ...options, signal } as O);
}
