// Test clocks as the testmode service stores them (`test_clocks`), their view, and the reads and
// writes the endpoints and the walk share.
import { BusError } from '@handoff/bus';
import type { TestClock } from '@handoff/contracts';
import type { CollectionPlan, Store } from '@handoff/store';

export const TEST_CLOCKS = 'test_clocks';

/** The collection plan: an integration's clocks, newest first. */
export const CLOCK_COLLECTIONS: CollectionPlan = {
  [TEST_CLOCKS]: [{ key: { integration_id: 1, _id: -1 }, options: { name: 'integration_newest' } }],
};

export interface TestClockDoc {
  _id: string;
  /** The owner: an integration's test twin. */
  integration_id: string;
  name: string | null;
  frozen_time: Date;
  status: 'ready' | 'advancing';
  /**
   * While advancing: until when the advance holds the clock. Each step of the walk extends it; an
   * advance whose process stopped lets go when it passes, at the time it had reached.
   */
  advancing_until: Date | null;
  /** Requests made on the clock (reservations: one refused after its reservation still counts). */
  requests: number;
  created_at: Date;
  updated_at: Date;
}

export const clockCollection = (store: Store) => store.db.collection<TestClockDoc>(TEST_CLOCKS);
export type ClockCollection = ReturnType<typeof clockCollection>;

/** Whether an advance holds the clock now. */
export const isAdvancing = (doc: TestClockDoc, now: Date = new Date()): boolean =>
  doc.status === 'advancing' && doc.advancing_until !== null && doc.advancing_until > now;

export function clockView(doc: TestClockDoc): TestClock {
  return {
    object: 'test_clock',
    id: doc._id,
    name: doc.name,
    frozen_time: doc.frozen_time.toISOString(),
    status: isAdvancing(doc) ? 'advancing' : 'ready',
    requests: doc.requests,
    created_at: doc.created_at.toISOString(),
    livemode: false,
  };
}

const notFound = () => new BusError('test_clock_not_found', 'No such test clock.');

/** The integration's clock `id`; 404 for another's or an unknown one (no existence oracle). */
export async function ownedClock(
  clocks: ClockCollection,
  integrationId: string,
  id: string,
): Promise<TestClockDoc> {
  const doc = await clocks.findOne({ _id: id, integration_id: integrationId });
  if (!doc) throw notFound();
  return doc;
}

/** Refuses a change while an advance holds the clock. */
export function refuseWhileAdvancing(doc: TestClockDoc): void {
  if (isAdvancing(doc)) {
    throw new BusError(
      'test_clock_advancing',
      'The test clock is advancing; try again once its status is ready.',
    );
  }
}

/**
 * Writes `set` into the clock if it is still as read (`updated_at`), in the clock's turn; answers
 * the clock as written, or 409 `concurrent_change` when another write came first.
 */
export async function updateClock(
  clocks: ClockCollection,
  before: TestClockDoc,
  set: Partial<TestClockDoc>,
): Promise<TestClockDoc> {
  const updated_at = new Date(Math.max(Date.now(), before.updated_at.getTime() + 1));
  const after = await clocks.findOneAndUpdate(
    { _id: before._id, updated_at: before.updated_at },
    { $set: { ...set, updated_at } },
    { returnDocument: 'after' },
  );
  if (!after) {
    throw new BusError('concurrent_change', 'The test clock changed meanwhile; try again.', {
      details: { resource: 'test_clock' },
    });
  }
  return after;
}
