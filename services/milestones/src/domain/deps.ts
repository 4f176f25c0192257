import type { Logger } from '@handoff/observability';
import type { Outbox, OutboxDocument } from '@handoff/runtime';
import type { Store } from '@handoff/store';
import type { Collection } from 'mongodb';
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
