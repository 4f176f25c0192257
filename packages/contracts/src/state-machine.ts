import type { AccessEventType } from './access.ts';
import type { EventType } from './events.ts';

// What a state machine is, and the questions asked of one. The machines themselves are data in
// lifecycle.ts.

/**
 * Who takes an action. `customer` is the agent acting for its customer with the request token;
 * `applicant` whoever holds an access application's secret.
 */
export type Actor = 'customer' | 'provider' | 'staff' | 'system' | 'applicant';

/** What a move announces: a domain event (HANDOFF_EVENTS) or an access event (HANDOFF_ACCESS). */
export type MachineEvent = EventType | AccessEventType;

export interface WaitingState<A extends string> {
  /** Whose move it is while the resource sits in this state. */
  waiting_on: string;
  /** How long after entering the state `deadline_at` falls. */
  days: number;
  /** The action the service takes by itself when the deadline passes (`null`: none). */
  on_deadline: A | null;
  /** What happens when `deadline_at` passes, in words. */
  consequence: string;
}

export interface StateMachine<
  S extends string = string,
  A extends string = string,
  E extends MachineEvent = MachineEvent,
> {
  resource: string;
  /** The service whose domain layer enforces the machine. */
  owner: 'intake' | 'milestones' | 'payments';
  states: readonly S[];
  /** The state a new resource starts in, and the event its creation publishes. */
  initial: NoInfer<S>;
  created_event: E | null;
  /** The event each action publishes (`null`: none; the spec has no kind for it). */
  events: { readonly [K in A]: E | null };
  /** `moves[state][action]` is the state the action leads to; a missing pair is illegal. */
  moves: { readonly [K in NoInfer<S>]: Partial<Record<NoInfer<A>, NoInfer<S>>> };
  actors: { readonly [K in NoInfer<A>]: readonly Actor[] };
  /**
   * An actor of `actors` who may take the action from some of its states only (the customer
   * cancels a request only before a provider is engaged). Without an entry, every actor of the
   * action takes it from every state that has it.
   */
  only_from?: { readonly [K in NoInfer<A>]?: Partial<Record<Actor, readonly NoInfer<S>[]>> };
  describe: { readonly [K in NoInfer<A>]: string };
  waiting: Partial<{ readonly [K in NoInfer<S>]: WaitingState<NoInfer<A>> }>;
}

/** Declares a machine; its states, actions and events are inferred from the declaration. */
export const defineMachine = <const S extends string, A extends string, E extends MachineEvent>(
  m: StateMachine<S, A, E>,
) => m;

/** The action that leads into `state` from another state (the one a `PATCH` of `status` takes). */
export function actionInto<S extends string, A extends string>(
  m: StateMachine<S, A>,
  state: S,
): A | undefined {
  for (const from of m.states) {
    if (from === state) continue;
    for (const action of allowedActions(m, from)) {
      if (m.moves[from][action] === state) return action;
    }
  }
  return undefined;
}

/** The state an action leads to, or `undefined` when the pair is illegal. */
export function nextState<S extends string, A extends string>(
  m: StateMachine<S, A>,
  state: S,
  action: A,
): S | undefined {
  return m.moves[state][action];
}

/** The actions allowed in a state, in the machine's order. */
export function allowedActions<S extends string, A extends string>(
  m: StateMachine<S, A>,
  state: S,
): A[] {
  return Object.keys(m.moves[state]) as A[];
}

/** Whether `actor` is one that `only_from` keeps from taking `action` in `state`. */
export function barredFrom<S extends string, A extends string>(
  m: StateMachine<S, A>,
  state: S,
  action: A,
  actor: Actor,
): boolean {
  const states = m.only_from?.[action]?.[actor];
  return states !== undefined && !states.includes(state);
}

/** Who may take `action` from `state`: its actors, less those `only_from` keeps out of it. */
export function actorsIn<S extends string, A extends string>(
  m: StateMachine<S, A>,
  state: S,
  action: A,
): Actor[] {
  return m.actors[action].filter((actor) => !barredFrom(m, state, action, actor));
}

/** When a resource entering `state` at `enteredAt` runs out of time (`null`: not a waiting state). */
export function deadlineFor<S extends string, A extends string>(
  m: StateMachine<S, A>,
  state: S,
  enteredAt: Date,
): Date | null {
  const waiting = m.waiting[state];
  if (!waiting) return null;
  return new Date(enteredAt.getTime() + waiting.days * 24 * 60 * 60 * 1000);
}
