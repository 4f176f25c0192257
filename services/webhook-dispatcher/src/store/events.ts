import type { EventType } from '@handoff/contracts';
import { groupCommit, type Store } from '@handoff/store';
import { insertNew } from './deliveries.ts';

export interface EventDoc {
  _id: string;
  integration_id: string;
  request_id: string;
  type: EventType;
  created_at: Date;
  /** The envelope exactly as published: the delivered body. */
  body: string;
}

/** This resource's collection (`collectionsOf` in collections.ts gathers every resource's). */
export const eventCollections = (store: Store) => ({
  events: store.db.collection<EventDoc>('webhook_events'),
});

/** Stores events for the feed in batches; an event stored before is left as it is. */
export function eventLog(store: Store) {
  const c = eventCollections(store);
  const batch = groupCommit<EventDoc>(async (docs, signal) => {
    await insertNew(c.events, docs, signal);
  });
  return { store: (doc: EventDoc) => batch.add(doc), close: () => batch.close() };
}
