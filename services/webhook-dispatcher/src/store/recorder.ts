import type { Store } from '@handoff/store';
import type { AnyBulkWriteOperation } from 'mongodb';
import { collectionsOf, type AttemptDoc, type DeliveryDoc } from './documents.ts';

/** How long writes wait for company: one round trip then carries many attempts. */
const FLUSH_MS = 20;
/** A batch this large is written at once. */
const MAX_BATCH = 500;
const TRIES = 3;

const HOUR_MS = 60 * 60 * 1000;
/** Finished deliveries are kept this long for staff, then deleted (attempts stay for the API). */
export const DELIVERY_RETENTION_HOURS = 24;

/** The expiry bucket of a record finished at `at`: the hour (UTC) in which it may be deleted. */
export const expiryBucket = (at: number) =>
  new Date(at + (DELIVERY_RETENTION_HOURS + 1) * HOUR_MS).toISOString().slice(0, 13);

const isDuplicateOnly = (error: unknown) => {
  const { code, writeErrors } = error as {
    code?: number;
    writeErrors?: { code?: number }[] | { code?: number };
  };
  if (writeErrors === undefined) return code === 11000;
  const list = Array.isArray(writeErrors) ? writeErrors : [writeErrors];
  return list.every((entry) => entry.code === 11000);
};

/**
 * Attempt logs and delivery records, written in batches: every few tens of milliseconds one
 * `insertMany` and one `bulkWrite` for everything recorded meanwhile. A caller awaits the write
 * of its own records before it acknowledges its job, so a job is never finished without them.
 * Batches are written one after another, so two records of one delivery land in order.
 */
export function recorder(store: Store) {
  const c = collectionsOf(store);
  let attempts: AttemptDoc[] = [];
  let deliveries = new Map<string, Partial<DeliveryDoc> & { _id: string }>();
  let waiters: { resolve: () => void; reject: (error: unknown) => void }[] = [];
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();

  const write = async (
    batchAttempts: AttemptDoc[],
    batchDeliveries: (Partial<DeliveryDoc> & { _id: string })[],
  ) => {
    for (let attempt = 1; ; attempt += 1) {
      try {
        if (batchAttempts.length > 0) {
          await c.attempts.insertMany(batchAttempts, { ordered: false }).catch((error: unknown) => {
            // Written by an earlier try of this batch.
            if (!isDuplicateOnly(error)) throw error;
          });
        }
        if (batchDeliveries.length > 0) {
          const operations: AnyBulkWriteOperation<DeliveryDoc>[] = batchDeliveries.map(
            ({ _id, created_at, ...change }) => ({
              updateOne: {
                filter: { _id },
                update: { $set: change, $setOnInsert: { created_at: created_at ?? new Date() } },
                upsert: true,
              },
            }),
          );
          await c.deliveries.bulkWrite(operations, { ordered: false });
        }
        return;
      } catch (error) {
        if (attempt >= TRIES) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
      }
    }
  };

  const flushNow = () => {
    clearTimeout(timer);
    timer = undefined;
    const batch = { attempts, deliveries: [...deliveries.values()], waiters };
    attempts = [];
    deliveries = new Map();
    waiters = [];
    writing = writing.then(() =>
      write(batch.attempts, batch.deliveries).then(
        () => batch.waiters.forEach((w) => w.resolve()),
        (error: unknown) => batch.waiters.forEach((w) => w.reject(error)),
      ),
    );
  };

  return {
    /** Resolves once these records are stored. */
    record(
      attempt: AttemptDoc | null,
      delivery: Partial<DeliveryDoc> & { _id: string },
    ): Promise<void> {
      if (attempt) attempts.push(attempt);
      deliveries.set(delivery._id, { ...deliveries.get(delivery._id), ...delivery });
      const written = new Promise<void>((resolve, reject) => waiters.push({ resolve, reject }));
      if (attempts.length + deliveries.size >= MAX_BATCH) flushNow();
      else timer ??= setTimeout(flushNow, FLUSH_MS);
      return written;
    },
    async close(): Promise<void> {
      if (waiters.length > 0) flushNow();
      await writing;
    },
  };
}
export type Recorder = ReturnType<typeof recorder>;

/**
 * Deletes finished delivery records whose expiry bucket is due, by equality on the bucket (the
 * one kind of filter FerretDB serves from an index), looking back `hours` buckets for runs that
 * were missed.
 */
export async function pruneDeliveries(store: Store, hours: number, now = Date.now()) {
  const c = collectionsOf(store);
  let deleted = 0;
  for (let back = 0; back < hours; back += 1) {
    const bucket = new Date(now - back * HOUR_MS).toISOString().slice(0, 13);
    deleted += (await c.deliveries.deleteMany({ expires_bucket: bucket })).deletedCount;
  }
  return deleted;
}
