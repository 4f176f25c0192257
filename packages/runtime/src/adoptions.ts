import { isDuplicateKey, type Store } from '@handoff/store';

/** The collection, in each service's database, of the one-time adoptions finished there. */
export const ADOPTIONS = 'adoptions';

interface AdoptionDoc {
  _id: string;
  done_at: Date;
}

/**
 * Runs `adopt` at a service's start until one of its passes finds nothing to change, then records
 * `name` in {@link ADOPTIONS}, so that later starts skip it. An adoption brings documents stored in
 * an older form to the current one, and returns how many it changed. It looks for them with a
 * query no index serves (`$exists`), which on FerretDB decodes the whole collection.
 *
 * The record is written only after a pass that changed nothing. So the start after a rollout's
 * first one still adopts what a replica of the previous version wrote in the meantime.
 */
export async function adoptOnce(
  store: Store,
  name: string,
  adopt: () => Promise<number>,
): Promise<number> {
  const done = store.db.collection<AdoptionDoc>(ADOPTIONS);
  if (await done.findOne({ _id: name }, { projection: { _id: 1 } })) return 0;
  const adopted = await adopt();
  if (adopted === 0) {
    try {
      await done.updateOne(
        { _id: name },
        { $setOnInsert: { done_at: new Date() } },
        { upsert: true },
      );
    } catch (error) {
      // Another replica starting at the same moment recorded it first (two upserts of one new
      // _id: one inserts, the other may fail on the key). A second milestones replica crashed on
      // this at start in a 2-replica stack.
      if (!isDuplicateKey(error)) throw error;
    }
  }
  return adopted;
}
