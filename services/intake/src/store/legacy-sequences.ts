import type { Bus } from '@handoff/bus';
import { adoptSequence } from '@handoff/runtime';
import type { Store } from '@handoff/store';
import { requestCollection, type RequestDoc } from './requests.ts';

/** The counter a request document carried before sequences moved to `HANDOFF_SEQUENCES`. */
interface LegacySequence {
  event_sequence?: number;
  sequences?: Record<string, number>;
}

/**
 * Moves the sequence counters of requests stored before `HANDOFF_SEQUENCES` into the bucket,
 * then removes them from the documents, so those requests' events continue after the numbers
 * already handed out instead of starting again at 1. Runs at intake's start until a pass finds
 * nothing (`adoptOnce`). Until it has run, another service publishing for such a request
 * would start at 1: roll intake out first.
 */
export async function adoptLegacySequences(deps: { store: Store; bus: Bus }): Promise<number> {
  const requests = deps.store.db.collection<RequestDoc & LegacySequence>(
    requestCollection(deps.store).collectionName,
  );
  const legacy = await requests
    .find(
      { event_sequence: { $exists: true } },
      { projection: { event_sequence: 1, sequences: 1 } },
    )
    .toArray();
  for (const doc of legacy) {
    const given = Object.entries(doc.sequences ?? {});
    await adoptSequence(deps.bus.js, doc._id, doc.event_sequence ?? 0, given);
    await deps.store.serialize(requests, doc._id, () =>
      requests.updateOne({ _id: doc._id }, { $unset: { event_sequence: '', sequences: '' } }),
    );
  }
  return legacy.length;
}
