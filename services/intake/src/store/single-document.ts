import { BusError } from '@handoff/bus';
import type { NotFoundCode } from '@handoff/contracts';
import { withOutbox, type Outbox, type OutboxMessage } from '@handoff/runtime';
import type { Collection, Filter, OptionalUnlessRequiredId, WithId } from 'mongodb';

// Reads and writes of one document that every kind of this service's documents does alike.

/** The document `id`, or the 404 `code` with `message`. */
export async function findOr404<D extends { _id: string }>(
  collection: Collection<D>,
  id: string,
  code: NotFoundCode,
  message: string,
): Promise<WithId<D>> {
  const doc = await collection.findOne({ _id: id } as Filter<D>);
  if (!doc) throw new BusError(code, message);
  return doc;
}

/**
 * Writes a new document with `message` in its outbox, then publishes it: the caller's change is
 * durable by then, so a failed publish is left to the sweep.
 */
export async function insertAnnounced<D extends { _id: string }>(
  deps: { outbox: Outbox },
  collection: Collection<D>,
  doc: D,
  message: OutboxMessage,
): Promise<void> {
  await collection.insertOne(withOutbox(doc, [message]) as OptionalUnlessRequiredId<D>);
  await deps.outbox.publishOrLeave(collection, doc._id, [message]);
}
