// What a test clock (test mode) needs of a service whose documents wait on deadlines: the soonest
// deadline ahead among some requests' documents, and every such deadline moved earlier, as if the
// time between had passed for those requests only.
import type { ClockDeadline, StateMachine } from '@handoff/contracts';
import type { Store } from '@handoff/store';
import type { Collection, Filter } from 'mongodb';

/** The part of a waiting document a clock reads and moves. */
export interface ClockWaiting {
  _id: string;
  request_id: string;
  status: string;
  deadline_at?: Date | null;
  updated_at?: Date;
}

/** A machine and the collection of its documents. */
export interface ClockTracked {
  machine: StateMachine;
  collection: Collection<ClockWaiting>;
}

/** Tries of one document's shift that another writer beat (then it is read again). */
const SHIFT_ATTEMPTS = 3;

const waitingStates = (machine: StateMachine) => Object.keys(machine.waiting);

/** The states whose deadline does something when it passes (`on_deadline`). */
const firingStates = (machine: StateMachine) =>
  Object.entries(machine.waiting)
    .filter(([, waiting]) => waiting?.on_deadline)
    .map(([state]) => state);

/**
 * The soonest deadline after `now` of the requests' documents in a state whose deadline does
 * something, or null. One that has passed already is not ahead: the service's sweep (or a
 * clock's `fire`) owns it.
 */
export async function nextClockDeadline(
  tracked: readonly ClockTracked[],
  requestIds: readonly string[],
  now: Date = new Date(),
): Promise<ClockDeadline | null> {
  let soonest: { at: Date; deadline: ClockDeadline } | null = null;
  for (const { machine, collection } of tracked) {
    const states = firingStates(machine);
    if (states.length === 0) continue;
    const [row] = await collection
      .find({
        request_id: { $in: [...requestIds] },
        status: { $in: states },
        deadline_at: { $gt: now },
      })
      .sort({ deadline_at: 1, _id: 1 })
      .limit(1)
      .project<ClockWaiting>({ _id: 1, request_id: 1, status: 1, deadline_at: 1 })
      .toArray();
    const at = row?.deadline_at;
    if (!row || !at || (soonest && soonest.at <= at)) continue;
    soonest = {
      at,
      deadline: {
        resource: machine.resource,
        id: row._id,
        request_id: row.request_id,
        in_ms: Math.max(1, at.getTime() - now.getTime()),
      },
    };
  }
  return soonest?.deadline ?? null;
}

/**
 * Moves the deadline of every document of the requests that waits on one `byMs` earlier; returns
 * how many moved. Each is a compare-and-set on its state, deadline and `updated_at` (which it
 * advances, so a move that read the document before loses its write and reads it again rather
 * than putting the old deadline back), in the document's turn.
 */
export async function shiftClockDeadlines(
  store: Store,
  tracked: readonly ClockTracked[],
  requestIds: readonly string[],
  byMs: number,
  now: Date = new Date(),
): Promise<number> {
  let shifted = 0;
  for (const { machine, collection } of tracked) {
    const states = waitingStates(machine);
    if (states.length === 0) continue;
    const rows = await collection
      .find({
        request_id: { $in: [...requestIds] },
        status: { $in: states },
        deadline_at: { $ne: null },
      })
      .project<ClockWaiting>({ _id: 1, request_id: 1, status: 1, deadline_at: 1, updated_at: 1 })
      .toArray();
    for (const row of rows) {
      const moved = await store.serialize(collection, row._id, () =>
        shiftOne(collection, row, states, byMs, now),
      );
      if (moved) shifted += 1;
    }
  }
  return shifted;
}

async function shiftOne(
  collection: Collection<ClockWaiting>,
  read: ClockWaiting,
  states: readonly string[],
  byMs: number,
  now: Date,
): Promise<boolean> {
  let doc: ClockWaiting | null = read;
  for (let attempt = 0; attempt < SHIFT_ATTEMPTS; attempt += 1) {
    if (!doc?.deadline_at || !states.includes(doc.status)) return false;
    const expect: Filter<ClockWaiting> = {
      _id: doc._id,
      status: doc.status,
      deadline_at: doc.deadline_at,
    };
    const set: Partial<ClockWaiting> = {
      deadline_at: new Date(doc.deadline_at.getTime() - byMs),
    };
    if (doc.updated_at) {
      expect.updated_at = doc.updated_at;
      set.updated_at = new Date(Math.max(now.getTime(), doc.updated_at.getTime() + 1));
    }
    const written = await collection.updateOne(expect, { $set: set });
    if (written.matchedCount === 1) return true;
    doc = await collection.findOne({ _id: read._id });
  }
  return false;
}
