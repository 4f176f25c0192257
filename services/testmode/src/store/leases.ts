// Who acts on a test request now: a lease per request, held by one replica while it handles
// one of the request's events. The acts read the state first and do what is still to do, which
// is safe one at a time; two replicas acting on one request at once could both find a step
// undone (the duplicate greeting the lease prevents).
import { isDuplicateKey, type Store } from '@handoff/store';
import type { Collection } from 'mongodb';
import { SIMULATION_LEASES } from './collections.ts';

export interface LeaseDoc {
  /** The request's id. */
  _id: string;
  /** The replica that holds it. */
  holder: string;
  /** When it lapses: a replica that died holding it stops blocking the request then. */
  until: Date;
}

export interface Leases {
  /** Takes the request's lease for `holder`; false while another replica holds it. */
  take(requestId: string, holder: string, forMs: number): Promise<boolean>;
  /** Gives it back (deleted: the collection holds only the requests being acted on now). */
  release(requestId: string, holder: string): Promise<void>;
}

export function leases(store: Store): Leases {
  const collection: Collection<LeaseDoc> = store.db.collection<LeaseDoc>(SIMULATION_LEASES);
  return {
    take: (requestId, holder, forMs) =>
      store.serialize(collection, requestId, async () => {
        const now = new Date();
        try {
          // Matches a lapsed lease or one of ours; none at all is inserted. A live lease of
          // another replica matches nothing, and the insert then meets its `_id`.
          await collection.updateOne(
            { _id: requestId, $or: [{ until: { $lte: now } }, { holder }] },
            { $set: { holder, until: new Date(now.getTime() + forMs) } },
            { upsert: true },
          );
          return true;
        } catch (error) {
          if (isDuplicateKey(error)) return false;
          throw error;
        }
      }),
    release: async (requestId, holder) => {
      await store.serialize(collection, requestId, () =>
        collection.deleteOne({ _id: requestId, holder }),
      );
    },
  };
}
