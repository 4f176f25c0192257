import { BusError, type Bus } from '@handoff/bus';
import { isRequestClosed, RequestStatus, subjects } from '@handoff/contracts';
import type { Logger } from '@handoff/observability';
import type { Collection, Document, Filter } from 'mongodb';
import { z } from 'zod';
import { startEventConsumer } from './consumer.ts';

// Settling documents by state (a closed request's open work, a reviewed milestone's deliverables):
// which are still open, and moving each one that is still movable.

/**
 * The ids of the documents that match `filter` and are in one of `states`: one query per state,
 * as the storage rules want equalities only.
 */
export async function idsInStates<D extends Document>(
  collection: Collection<D>,
  filter: Filter<D>,
  states: readonly string[],
): Promise<string[]> {
  const ids: string[] = [];
  for (const status of states) {
    const found = await collection
      .find({ ...filter, status } as Filter<D>)
      .project<{ _id: string }>({ _id: 1 })
      .toArray();
    ids.push(...found.map(({ _id }) => _id));
  }
  return ids;
}

/**
 * Applies `move` to each id in turn. One that another call moved meanwhile (409
 * `invalid_state_transition`) is left as it is, so the settlement is idempotent by state; any
 * other failure stops it. Returns how many moved.
 */
export async function moveEach(
  ids: readonly string[],
  move: (id: string) => Promise<unknown>,
): Promise<number> {
  let moved = 0;
  for (const id of ids) {
    try {
      await move(id);
      moved += 1;
    } catch (error) {
      if (!(error instanceof BusError && error.code === 'invalid_state_transition')) throw error;
    }
  }
  return moved;
}

const StatusOnly = z.object({ status: RequestStatus });

/**
 * A durable consumer (`name`) of `request.updated` that calls `settle` with the request's id and
 * state once the request is closed (completed or cancelled): how a service settles the open
 * work of a request that intake closed. `settle` must be idempotent by state.
 */
export function consumeRequestClosures(def: {
  bus: Bus;
  logger: Logger;
  name: string;
  settle: (requestId: string, status: RequestStatus) => Promise<unknown>;
}): Promise<() => Promise<void>> {
  return startEventConsumer({
    bus: def.bus,
    logger: def.logger,
    name: def.name,
    subjects: [subjects.event('request.updated')],
    handle: async (event) => {
      const request = StatusOnly.safeParse(event.data.object);
      if (!request.success || !isRequestClosed(request.data.status)) return;
      await def.settle(event.data.request_id, request.data.status);
    },
  });
}
