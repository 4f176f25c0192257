import type { Db } from 'mongodb';
import { isDuplicateKey } from './duplicates.ts';

/**
 * Claims of one version of a document, for a compare-and-set that holds across processes on a
 * server whose conditional updates are not atomic.
 *
 * Why: FerretDB 1.24 reads a conditional update's filter and writes its change as two steps, so
 * two replicas that read the same version can both "win" `findOneAndUpdate({_id, status,
 * updated_at})` (see serialize.ts; `npm run chaos` found staff's two concurrent confirmations of
 * one payment both completing it, two `payment.completed` events, with two payments replicas).
 * An insert with a taken `_id` fails atomically there too (PostgreSQL's unique index), so the
 * writer that inserts `<collection>/<id>/<version>` first is the only one to write from that
 * version. The claim is deleted once the write is done: a writer that reads the version later
 * finds the document changed. A claim left by a process that died holding it counts for
 * {@link CLAIM_TTL_MS} only. MongoDB applies the filter atomically: no claims there.
 */
export interface Claims {
  /** The claim's release, or undefined when another writer holds this version. */
  take(collection: string, id: string, version: string): Promise<(() => Promise<void>) | undefined>;
}

/** How long a claim whose holder never released it keeps others from that version. */
export const CLAIM_TTL_MS = 30_000;
/** The collection of the claims, in each service's own database. */
export const CLAIMS_COLLECTION = '_version_claims';

interface ClaimDoc {
  _id: string;
  at: Date;
}

export function versionClaims(db: Db): Claims {
  const claims = db.collection<ClaimDoc>(CLAIMS_COLLECTION);
  const insert = async (key: string): Promise<boolean> => {
    try {
      await claims.insertOne({ _id: key, at: new Date() });
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  };
  return {
    async take(collection, id, version) {
      const key = `${collection}/${id}/${version}`;
      let taken = await insert(key);
      if (!taken) {
        // A holder that died: its claim is dropped once old enough, and the version claimed anew.
        const held = await claims.findOne({ _id: key });
        if (held && Date.now() - held.at.getTime() > CLAIM_TTL_MS) {
          await claims.deleteOne({ _id: key, at: held.at });
          taken = await insert(key);
        }
      }
      if (!taken) return undefined;
      return async () => {
        await claims.deleteOne({ _id: key });
      };
    },
  };
}

/** Whether the server is FerretDB, whose conditional updates are not atomic (buildInfo says). */
export async function needsClaims(db: Db): Promise<boolean> {
  const info = await db.admin().command({ buildInfo: 1 });
  return typeof info.ferretdbVersion === 'string';
}
