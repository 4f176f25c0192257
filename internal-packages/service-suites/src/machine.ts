// The every-(state, action) test of a state machine, generated from its data.
import { describe, expect, it } from '@jest/globals';
import {
  deadlineFor,
  nextState,
  type Actor,
  type MachineEvent,
  type StateMachine,
} from '@handoff/contracts';
import { callerActions } from '@handoff/runtime';

/** An event as the generated test checks it. */
export interface SeenEvent {
  type: string;
  data: { request_id?: string; object: Record<string, unknown> };
}

/** What the generated test reads of a stored document. */
export interface MachineDocument<S extends string> {
  status: S;
  deadline_at?: Date | null;
  updated_at?: Date;
}

/** A legal move as it happened, for a driver's further checks. */
export interface LegalMove<S extends string, A extends string, H, D, R> {
  handle: H;
  state: S;
  action: A;
  next: S;
  before: D;
  after: D;
  /** What `act` resolved to. */
  answer: R;
  /** The events about the resource, the move's last. */
  events: readonly SeenEvent[];
}

/** How the generated test drives one machine's resources in a running service. */
export interface MachineDriver<
  S extends string,
  A extends string,
  H,
  D extends MachineDocument<S>,
  R = unknown,
> {
  /** A new resource, in the machine's initial state. */
  create(): Promise<H>;
  /** Takes `action` as its actor does (over the bus, or as a sweep or consumer does). */
  act(handle: H, action: A): Promise<R>;
  /**
   * How an illegal `action` is attempted, where that differs from `act` (a system move whose
   * usual trigger would be refused first, such as a milestone review for its deliverables).
   */
  attempt?(handle: H, action: A): Promise<unknown>;
  /** The stored document, settled: published messages have left its outbox. */
  read(handle: H): Promise<D | null>;
  /** The events about the resource so far, in stream order, once the feed has caught up. */
  events(handle: H): Promise<readonly SeenEvent[]>;
  /** Waits until `count` events about the resource have arrived, and returns them all. */
  awaitEvents(handle: H, count: number): Promise<readonly SeenEvent[]>;
  /** The resource's id, and the request its events name (none for access events). */
  subject(handle: H): { id: string; request_id?: string };
  /** The party that takes `action`, where the action is open to several (see callerActions). */
  by?(action: A): Actor | undefined;
  /** When the stored document last moved, which its deadline counts from (`updated_at`). */
  movedAt?(doc: D): Date;
  /** What else a refused move must leave as it was (the deliverables of a milestone, say). */
  sideEffects?(handle: H): Promise<unknown>;
  /** Further checks of a legal move: the fields the action sets, its answer, its audit entry. */
  moved?(move: LegalMove<S, A, H, D, R>): void | Promise<void>;
}

/** For each state of `machine`, the shortest list of actions that leads there from `initial`. */
export function pathsTo<S extends string, A extends string>(
  machine: StateMachine<S, A>,
): Record<S, A[]> {
  const paths = new Map<S, A[]>([[machine.initial, []]]);
  const queue: S[] = [machine.initial];
  for (let state = queue.shift(); state !== undefined; state = queue.shift()) {
    const here = paths.get(state) ?? [];
    for (const [action, next] of Object.entries(machine.moves[state]) as [A, S][]) {
      if (!paths.has(next)) {
        paths.set(next, [...here, action]);
        queue.push(next);
      }
    }
  }
  return Object.fromEntries(
    machine.states.map((state) => {
      const path = paths.get(state);
      if (!path) throw new Error(`${machine.resource} state ${state} is unreachable`);
      return [state, path];
    }),
  ) as Record<S, A[]>;
}

/** Every (state, action) pair of `machine`: states × actions, legal or not. */
export function allPairs<S extends string, A extends string>(
  machine: StateMachine<S, A>,
): [S, A][] {
  const actions = Object.keys(machine.events) as A[];
  return machine.states.flatMap((state) => actions.map((action): [S, A] => [state, action]));
}

/**
 * Generates one test per (state, action) pair of `machine`, each on a new resource brought into
 * the state along the machine's own moves. A legal pair must give the documented next state, the
 * deadline of a waiting state (a move that keeps the state keeps it) and the action's event, or
 * no event where it has none. An illegal pair must answer 409 `invalid_state_transition` naming
 * the resource, the state, the action and the caller's allowed actions, and change neither the
 * document nor the events (nor the driver's `sideEffects`).
 */
export function describeMachine<
  S extends string,
  A extends string,
  E extends MachineEvent,
  H,
  D extends MachineDocument<S>,
  R,
>(machine: StateMachine<S, A, E>, driver: MachineDriver<S, A, H, D, R>): void {
  const paths = pathsTo(machine);
  const waits = Object.keys(machine.waiting).length > 0;
  const stored = async (handle: H): Promise<D> => {
    const doc = await driver.read(handle);
    if (!doc) throw new Error(`${machine.resource} vanished`);
    return doc;
  };
  const movedAt = (doc: D): Date => {
    const at = driver.movedAt?.(doc) ?? doc.updated_at;
    if (!at) throw new Error(`${machine.resource}: give the driver a movedAt`);
    return at;
  };

  describe(`every (state, action) pair of the ${machine.resource.replaceAll('_', ' ')} machine`, () => {
    it.each(allPairs(machine))('%s + %s', async (state, action) => {
      const handle = await driver.create();
      for (const step of paths[state]) await driver.act(handle, step);
      const before = await stored(handle);
      expect(before.status).toBe(state);
      const eventsBefore = (await driver.events(handle)).length;
      const sideEffects = await driver.sideEffects?.(handle);
      const { id, request_id } = driver.subject(handle);
      const next = nextState(machine, state, action);

      if (next === undefined) {
        const attempt = driver.attempt
          ? driver.attempt(handle, action)
          : driver.act(handle, action);
        await expect(attempt).rejects.toMatchObject({
          code: 'invalid_state_transition',
          details: {
            resource: machine.resource,
            current_state: state,
            action,
            allowed_actions: callerActions(machine, state, action, driver.by?.(action)),
          },
        });
        expect(await stored(handle)).toEqual(before);
        expect(await driver.events(handle)).toHaveLength(eventsBefore);
        if (driver.sideEffects) expect(await driver.sideEffects(handle)).toEqual(sideEffects);
        return;
      }

      const answer = await driver.act(handle, action);
      const after = await stored(handle);
      expect(after.status).toBe(next);
      if (waits) {
        // Entering a waiting state starts its clock; a move that keeps the state keeps it.
        expect(after.deadline_at).toEqual(
          next === state ? before.deadline_at : deadlineFor(machine, next, movedAt(after)),
        );
      }
      const event = machine.events[action];
      let events: readonly SeenEvent[];
      if (event) {
        events = await driver.awaitEvents(handle, eventsBefore + 1);
        expect(events).toHaveLength(eventsBefore + 1);
        expect(events.at(-1)).toMatchObject({
          type: event,
          data: {
            ...(request_id === undefined ? {} : { request_id }),
            object: { object: machine.resource, id, status: next },
          },
        });
      } else {
        events = await driver.events(handle);
        expect(events).toHaveLength(eventsBefore);
      }
      await driver.moved?.({ handle, state, action, next, before, after, answer, events });
    });
  });
}
