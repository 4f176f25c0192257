import type { EventType, WebhookAttempt } from '@handoff/contracts';
import {
  abortable,
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
 * The record of one delivery that needed more than one sure first attempt: written after each
 * attempt of a delivery that is retried, cancelled or may have been attempted before (the queue,
 * not this record, drives the delivery). A delivery that succeeds at its first attempt, as most
 * do, has only that attempt's log entry. Finished ones carry the hour in which they may be
 * deleted.
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
  signal?: AbortSignal,
): Promise<T[]> {
  if (docs.length === 0) return [];
  try {
    await collection.insertMany(
      docs as OptionalUnlessRequiredId<T>[],
      abortable({ ordered: false }, signal),
    );
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
 * How an attempt writes its delivery's record:
 * - `insert`: a first attempt that did not succeed (or was cancelled) makes the record; one found
 *   there already (the attempt was made before) is updated instead;
 * - `update`: a later attempt updates it (made afresh if it is gone);
 * - `finish`: a first attempt that succeeded but may have been made before updates the record
 *   that earlier try left, if there is one, and makes none;
 * - `none`: a first attempt that succeeded and surely was the first needs no record.
 */
export type RecordWrite = 'insert' | 'update' | 'finish' | 'none';

/** The write that stands for two of one delivery in a batch, `later` after `earlier`. */
function combined(earlier: RecordWrite, later: RecordWrite): RecordWrite {
  if (later === 'finish' || later === 'none') return earlier === 'none' ? later : earlier;
  if (earlier === 'insert' && later === 'insert') return 'insert';
  return earlier === 'finish' || earlier === 'none' ? later : 'update';
}

/**
 * Attempt logs and delivery records, written in batches (`groupCommit` of @handoff/store): per
 * batch one `insertMany` of attempts and one of new delivery records, and one `bulkWrite` for the
 * records of deliveries that had one already (retries). A caller awaits its own records before it
 * acknowledges its job, so a job is never finished without them.
 */
export function recorder(store: Store) {
  const c = deliveryCollections(store);
  const batch = groupCommit<{
    attempt: AttemptDoc | null;
    delivery: DeliveryRecord;
    write: RecordWrite;
  }>(async (items, signal) => {
    const attempts = items.flatMap((item) => (item.attempt ? [item.attempt] : []));
    // The last word on each delivery in this batch.
    const latest = new Map<string, { delivery: DeliveryRecord; write: RecordWrite }>();
    for (const item of items) {
      const before = latest.get(item.delivery._id);
      latest.set(item.delivery._id, {
        delivery: item.delivery,
        write: before ? combined(before.write, item.write) : item.write,
      });
    }
    const entries = [...latest.values()];
    const writing = (write: RecordWrite) =>
      entries.filter((entry) => entry.write === write).map((entry) => entry.delivery);
    // A delivery that needed more than its first attempt gets its record at that attempt: an
    // insert, which needs no lookup. Those found already there, and later attempts, update theirs.
    const [, existing] = await Promise.all([
      // Attempts of a batch written again are refused as duplicates, which is what they are.
      insertNew(c.attempts, attempts, signal),
      insertNew(c.deliveries, writing('insert'), signal),
    ]);
    const operations: AnyBulkWriteOperation<DeliveryDoc>[] = [
      ...[...existing, ...writing('update')].map(({ _id, created_at, ...change }) => ({
        updateOne: {
          filter: { _id },
          update: { $set: change, $setOnInsert: { created_at } },
          upsert: true,
        },
      })),
      ...writing('finish').map(({ _id, created_at: _created, ...change }) => ({
        updateOne: { filter: { _id }, update: { $set: change } },
      })),
    ];
    if (operations.length === 0) return;
    await bulkWriteInChunks(c.deliveries, operations, { ordered: false, signal });
  });
  return {
    /** Resolves once this attempt's log entry and its delivery's record are stored. */
    record(
      attempt: AttemptDoc | null,
      delivery: DeliveryRecord,
      write: RecordWrite,
    ): Promise<void> {
      return batch.add({ attempt, delivery, write });
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
