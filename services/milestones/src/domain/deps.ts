import type { Logger } from '@handoff/observability';
import type { Outbox, OutboxDocument, OutboxMessage } from '@handoff/runtime';
import type { Store } from '@handoff/store';
import type { Collection, Document } from 'mongodb';
import { COLLECTIONS } from '../store/collections.ts';

export interface MilestonesDeps {
  store: Store;
  logger: Logger;
  outbox: Outbox;
}

/** Collections whose documents carry outbox messages, for the outbox sweep. */
export function milestonesOutboxCollections(store: Store): Collection<OutboxDocument>[] {
  return Object.values(COLLECTIONS).map((name) => store.db.collection<OutboxDocument>(name));
}

/**
 * Publishes the outbox messages a write stored with its document. A failed publish is left for
 * the sweep: the caller's change is already durable.
 */
export function publisher(deps: MilestonesDeps) {
  return <T extends Document>(collection: Collection<T>, id: string, messages: OutboxMessage[]) =>
    deps.outbox
      .publish(collection as unknown as Collection<OutboxDocument>, id, messages)
      .catch((error: unknown) => {
        deps.logger.warn(
          { err: error, document_id: id },
          'outbox publish failed; left for the sweep',
        );
      });
}
