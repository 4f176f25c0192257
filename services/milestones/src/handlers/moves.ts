import { BusError } from '@handoff/bus';
import type { StateMachine } from '@handoff/contracts';
import { announceToRequest, moveDocument } from '@handoff/runtime';
import type { Collection, Filter } from 'mongodb';
import type { MoveSpec, Moving } from '../domain/moving.ts';
import type { MilestonesDeps } from './deps.ts';

/**
 * Moves one document along its machine through `moveDocument`: the event goes to the document's
 * request, a staff move is audited, and a follow-up that fails is logged and left for the sweep
 * (the move itself is durable by then).
 */
export function move<D extends Moving<S>, S extends string, A extends string>(
  deps: MilestonesDeps,
  spec: MoveSpec<D, S, A>,
): Promise<D> {
  const { actor, call_id, then, ...rest } = spec;
  return moveDocument(
    { store: deps.store, publish: deps.outbox.publishOrLeave, outbox: deps.outbox },
    {
      ...rest,
      announce: announceToRequest,
      ...(actor ? { audit: { service: 'milestones', actor, call_id: call_id ?? null } } : {}),
      ...(then
        ? {
            then: (doc: D, now: Date) =>
              then(doc, now).catch((error: unknown) => {
                deps.logger.warn(
                  { err: error, resource: spec.machine.resource, id: spec.id, action: spec.action },
                  'follow-up of a move failed; left for the sweep',
                );
              }),
          }
        : {}),
    },
  );
}

const SWEEP_BATCH = 100;

/**
 * Applies the machine's `on_deadline` actions to the documents whose deadline has passed by
 * `now`, through `act` (the same domain code as the API, actor `system`). A document somebody
 * moved meanwhile is skipped; other failures are logged and left for the next sweep. With
 * `requestIds`, only those requests' documents (a test clock's).
 */
export async function sweepDeadlines<D extends Moving<S>, S extends string, A extends string>(
  deps: MilestonesDeps,
  collection: Collection<D>,
  machine: StateMachine<S, A>,
  now: Date,
  act: (id: string, action: A) => Promise<unknown>,
  requestIds?: readonly string[],
): Promise<number> {
  let moved = 0;
  for (const state of machine.states) {
    const action = machine.waiting[state]?.on_deadline;
    if (!action) continue;
    const failed = new Set<string>();
    for (;;) {
      const due = (await collection
        .find({
          status: state,
          deadline_at: { $lte: now },
          _id: { $nin: [...failed] },
          ...(requestIds ? { request_id: { $in: [...requestIds] } } : {}),
        } as Filter<D>)
        .sort({ deadline_at: 1, _id: 1 })
        .limit(SWEEP_BATCH)
        .project<{ _id: string }>({ _id: 1 })
        .toArray()) as { _id: string }[];
      for (const { _id } of due) {
        try {
          await act(_id, action);
          moved += 1;
        } catch (error) {
          failed.add(_id);
          // A 409 (an illegal move, a guard, a concurrent change): somebody moved it meanwhile.
          if (!(error instanceof BusError && error.status === 409)) {
            deps.logger.error(
              { err: error, resource: machine.resource, id: _id, action },
              'deadline action failed; left for the next sweep',
            );
          }
        }
      }
      if (due.length < SWEEP_BATCH) break;
    }
  }
  return moved;
}
