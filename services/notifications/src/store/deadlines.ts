// The latest known state of each milestone and dispute, from their events: a reminder that comes
// due is sent only when its object still waits on the provider by the same deadline.
import type { Store } from '@handoff/store';
import type { DeadlineState } from '../domain/deadlines.ts';
import { MAIL_COLLECTIONS } from './collections.ts';

export interface DeadlineDoc {
  /** The milestone's or dispute's id. */
  _id: string;
  resource: DeadlineState['resource'];
  request_id: string;
  provider_id: string | null;
  status: string;
  deadline_at: Date | null;
  title: string | null;
  sequence: number;
  event_id: string;
  updated_at: Date;
}

const docOf = (state: DeadlineState): DeadlineDoc => ({
  _id: state.objectId,
  resource: state.resource,
  request_id: state.requestId,
  provider_id: state.providerId,
  status: state.status,
  deadline_at: state.deadlineAt,
  title: state.title,
  sequence: state.sequence,
  event_id: state.eventId,
  updated_at: new Date(),
});

export const stateOf = (doc: DeadlineDoc): DeadlineState => ({
  objectId: doc._id,
  resource: doc.resource,
  requestId: doc.request_id,
  providerId: doc.provider_id,
  status: doc.status,
  deadlineAt: doc.deadline_at,
  title: doc.title,
  sequence: doc.sequence,
  eventId: doc.event_id,
});

export function deadlineStates(store: Store) {
  const collection = store.db.collection<DeadlineDoc>(MAIL_COLLECTIONS.deadlines);
  return {
    collection,
    /**
     * Keeps `state` unless a newer event of the object was kept already (events arrive out of
     * order when handled side by side, and again when redelivered). Answers whether it is the
     * state kept now (so a redelivered event schedules its reminder again, which the queue drops
     * as a duplicate or the reminder finds sent).
     */
    keep(state: DeadlineState): Promise<boolean> {
      return store.serialize(collection, state.objectId, async () => {
        const current = await collection.findOne(
          { _id: state.objectId },
          { projection: { sequence: 1 } },
        );
        if (current && current.sequence > state.sequence) return false;
        if (current && current.sequence === state.sequence) return true;
        await collection.replaceOne({ _id: state.objectId }, docOf(state), { upsert: true });
        return true;
      });
    },
    async find(objectId: string): Promise<DeadlineState | null> {
      const doc = await collection.findOne({ _id: objectId });
      return doc ? stateOf(doc) : null;
    },
  };
}
export type DeadlineStates = ReturnType<typeof deadlineStates>;
