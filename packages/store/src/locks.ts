import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from 'mongodb';
import { isDuplicateKey } from './duplicates.ts';

/**
 * Locks of one document across processes, for the read-modify-writes the store's serializer
 * orders within one process, on a server whose conditional updates are not atomic.
 *
 * Why: FerretDB 1.24 reads a document, applies an update in Go and writes the whole document
 * back, as separate steps, so two replicas' writes to one document can interleave: a
 * compare-and-set both "win", or one write puts back what the other changed. `npm run chaos`
 * (two replicas of every service) found a payment completed twice: one replica's outbox removal
 * of an earlier event wrote back the payment as pending over another replica's confirmation.
 * An insert of a taken `_id` fails atomically there too (PostgreSQL's unique index), so holding
 * `<collection>/<id>` in {@link LOCKS_COLLECTION} makes each document's writes take turns across
 * processes as `serialize` makes them within one. A lock a process died holding counts for
 * {@link LOCK_TTL_MS}; a task must not take longer. MongoDB applies each update atomically and
 * needs none: services take locks only with `STORE_LOCKS=true` on FerretDB (the stack sets it
 * when it runs several replicas).
 */
export interface DocumentLocks {
  /** Runs `task` holding the lock of `key`, waiting for it up to {@link LOCK_WAIT_MS}. */
  hold<T>(key: string, task: () => Promise<T>): Promise<T>;
}

/** How long a lock whose holder never released it (a process that died) keeps others out. */
export const LOCK_TTL_MS = 30_000;
/** How long a writer waits for a lock before its call fails (and is retried by its caller). */
export const LOCK_WAIT_MS = 15_000;
export const LOCKS_COLLECTION = '_document_locks';

interface LockDoc {
  _id: string;
  at: Date;
}

export function documentLocks(db: Db): DocumentLocks {
  const locks = db.collection<LockDoc>(LOCKS_COLLECTION);
  const take = async (key: string): Promise<boolean> => {
    try {
      await locks.insertOne({ _id: key, at: new Date() });
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  };
  const acquire = async (key: string): Promise<void> => {
    const deadline = Date.now() + LOCK_WAIT_MS;
    for (let round = 0; ; round += 1) {
      if (await take(key)) return;
      const held = await locks.findOne({ _id: key });
      if (held && Date.now() - held.at.getTime() > LOCK_TTL_MS) {
        // Its holder died: dropped, unless another writer dropped and took it meanwhile.
        await locks.deleteOne({ _id: key, at: held.at });
        continue;
      }
      if (Date.now() > deadline) {
        throw new Error(`document ${key} stayed locked for ${LOCK_WAIT_MS / 1000} s`);
      }
      // Short at first (a write takes a few ms), then at most 25 ms, with jitter.
      await sleep(Math.min(25, 2 + round * 3) * (0.5 + Math.random()));
    }
  };
  return {
    async hold(key, task) {
      await acquire(key);
      try {
        return await task();
      } finally {
        // Not released (the database is away): it counts until LOCK_TTL_MS.
        await locks.deleteOne({ _id: key }).catch(() => undefined);
      }
    },
  };
}

/** Whether the server is FerretDB, whose updates are not atomic (its `buildInfo` says so). */
export async function isFerretDB(db: Db): Promise<boolean> {
  const info = await db.admin().command({ buildInfo: 1 });
  return typeof info.ferretdbVersion === 'string';
}
