import type { EventType, WebhookAttempt } from '@handoff/contracts';
import {
  bulkWriteInChunks,
  duplicatePositions,
  groupCommit,
  isDuplicateKey,
  type Store,
} from '@handoff/store';
import type {
  AnyBulkWriteOperation,
  Collection,
  Document,
  OptionalUnlessRequiredId,
} from 'mongodb';

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'cancelled';

/**
 * The record of one delivery, written after each attempt (the queue, not this record, drives the
 * delivery). Finished ones carry the hour in which they may be deleted.
 */
export interface DeliveryDoc {
  /** `<endpoint id>.<event id>` (plus `.r<n>` for a redelivery). */
  _id: string;
  endpoint_id: string;
  event_id: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: Date | null;
  /** `YYYY-MM-DDTHH` (UTC) once finished; null while attempts remain. */
  expires_bucket: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface AttemptDoc {
  _id: string;
  endpoint_id: string;
  event_id: string;
  event_type: EventType;
  attempt: number;
  attempted_at: Date;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  response_body: string | null;
  next_attempt_at: Date | null;
}

/** This resource's collections (`collectionsOf` in collections.ts gathers every resource's). */
export const deliveryCollections = (store: Store) => ({
  deliveries: store.db.collection<DeliveryDoc>('webhook_deliveries'),
  attempts: store.db.collection<AttemptDoc>('webhook_attempts'),
});

export function attemptView(doc: AttemptDoc): WebhookAttempt {
  return {
    object: 'webhook_attempt',
    id: doc._id,
    endpoint_id: doc.endpoint_id,
    event_id: doc.event_id,
    event_type: doc.event_type,
    attempt: doc.attempt,
    attempted_at: doc.attempted_at.toISOString(),
    status_code: doc.status_code,
    duration_ms: doc.duration_ms,
    error: doc.error,
    response_body: doc.response_body,
    next_attempt_at: doc.next_attempt_at?.toISOString() ?? null,
  };
}

const HOUR_MS = 60 * 60 * 1000;
/** Finished deliveries are kept this long for staff, then deleted (attempts stay for the API). */
export const DELIVERY_RETENTION_HOURS = 24;

/** The expiry bucket of a record finished at `at`: the hour (UTC) in which it may be deleted. */
export const expiryBucket = (at: number) =>
  new Date(at + (DELIVERY_RETENTION_HOURS + 1) * HOUR_MS).toISOString().slice(0, 13);

/**
 * Inserts documents that are new in the common case, all in one command. Returns the ones that
 * existed already (a redone step after a crash); throws on any other failure.
 */
export async function insertNew<T extends Document & { _id: string }>(
  collection: Collection<T>,
  docs: T[],
): Promise<T[]> {
  if (docs.length === 0) return [];
  try {
    await collection.insertMany(docs as OptionalUnlessRequiredId<T>[], { ordered: false });
    return [];
  } catch (error) {
    if (!isDuplicateKey(error)) throw error;
    const positions = duplicatePositions(error);
    // A duplicate without its position: the whole batch is written again as upserts by the caller.
    if (positions === undefined) return docs;
    return positions.map((index) => docs[index]).filter((doc) => doc !== undefined);
  }
}

type DeliveryRecord = DeliveryDoc;

/**
 * Attempt logs and delivery records, written in batches (`groupCommit` of @handoff/store): per batch one
 * `insertMany` of attempts and one of delivery records, and one `bulkWrite` for the records of
 * deliveries that had one already (retries). A caller awaits its own records before it
 * acknowledges its job, so a job is never finished without them.
 */
export function recorder(store: Store) {
  const c = deliveryCollections(store);
  const batch = groupCommit<{
    attempt: AttemptDoc | null;
    delivery: DeliveryRecord;
    first: boolean;
  }>(async (items) => {
    const attempts = items.flatMap((item) => (item.attempt ? [item.attempt] : []));
    // The last word on each delivery in this batch.
    const latest = new Map<string, { delivery: DeliveryRecord; first: boolean }>();
    for (const item of items) {
      const before = latest.get(item.delivery._id);
      latest.set(item.delivery._id, {
        delivery: item.delivery,
        first: item.first && (before?.first ?? true),
      });
    }
    const entries = [...latest.values()];
    // Most deliveries get their record once, at their first attempt: an insert, which needs no
    // lookup. Those found already there, and later attempts, update theirs.
    const [, existing] = await Promise.all([
      // Attempts of a batch written again are refused as duplicates, which is what they are.
      insertNew(c.attempts, attempts),
      insertNew(
        c.deliveries,
        entries.filter((entry) => entry.first).map((entry) => entry.delivery),
      ),
    ]);
    const updates = [
      ...existing,
      ...entries.filter((entry) => !entry.first).map((entry) => entry.delivery),
    ];
    if (updates.length === 0) return;
    const operations: AnyBulkWriteOperation<DeliveryDoc>[] = updates.map(
      ({ _id, created_at, ...change }) => ({
        updateOne: {
          filter: { _id },
          update: { $set: change, $setOnInsert: { created_at } },
          upsert: true,
        },
      }),
    );
    await bulkWriteInChunks(c.deliveries, operations, { ordered: false });
  });
  return {
    /** Resolves once these records are stored; `first`: the delivery's first attempt. */
    record(attempt: AttemptDoc | null, delivery: DeliveryRecord, first: boolean): Promise<void> {
      return batch.add({ attempt, delivery, first });
    },
    close: () => batch.close(),
  };
}
export type Recorder = ReturnType<typeof recorder>;

/**
 * Deletes finished delivery records whose expiry bucket is due, by equality on the bucket (the
 * one kind of filter FerretDB serves from an index), looking back `hours` buckets for runs that
 * were missed.
 */
export async function pruneDeliveries(store: Store, hours: number, now = Date.now()) {
  const c = deliveryCollections(store);
  let deleted = 0;
  for (let back = 0; back < hours; back += 1) {
    const bucket = new Date(now - back * HOUR_MS).toISOString().slice(0, 13);
    deleted += (await c.deliveries.deleteMany({ expires_bucket: bucket })).deletedCount;
  }
  return deleted;
}

/**
 * Deletes every finished record whose bucket is due, however old: one range query, which
 * FerretDB answers by reading the whole collection, so it runs once after a start, to catch up
 * on buckets a stopped service missed; the periodic run uses `pruneDeliveries`.
 */
export async function pruneAllDueDeliveries(store: Store, now = Date.now()) {
  const bucket = new Date(now).toISOString().slice(0, 13);
  const result = await deliveryCollections(store).deliveries.deleteMany({
    expires_bucket: { $type: 'string', $lte: bucket },
  });
  return result.deletedCount;
}
