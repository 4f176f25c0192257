import { BusError } from '@handoff/bus';
import {
  actorsIn,
  allowedActions,
  barredFrom,
  nextState,
  type Actor,
  type StateMachine,
} from '@handoff/contracts';

/** Actions whose name is not a plain verb taking the resource as its object. */
const ACTION_PHRASES: Readonly<Record<string, string>> = {
  request_changes: 'request changes on',
  request_revision: 'request a revision of',
  update_progress: 'update the progress of',
  add_deliverable: 'add a deliverable to',
  comment: 'comment on',
  claim_key: 'claim the key of',
  review_marketplace: 'review the marketplace publication of',
};

/** "cannot <action> a <resource> that is <state>", reading right for every action name. */
export function illegalMoveDetail(resource: string, state: string, action: string): string {
  const phrase = ACTION_PHRASES[action] ?? action.replaceAll('_', ' ');
  const noun = resource.replaceAll('_', ' ');
  const article = /^[aeiou]/.test(noun) ? 'an' : 'a';
  return `cannot ${phrase} ${article} ${noun} that is ${state}`;
}

/**
 * The actions of `state` that the caller may take. The caller is `by` when known, else whoever
 * may take the attempted `action` (its human actors; the system's own moves stand for
 * themselves), so a 409 never lists another party's moves (an agent is not offered `submit`).
 */
export function callerActions<S extends string, A extends string>(
  machine: StateMachine<S, A>,
  state: S,
  action: A,
  by?: Actor,
): A[] {
  const actors: readonly Actor[] = machine.actors[action];
  const humans = actors.filter((actor) => actor !== 'system');
  const roles: readonly Actor[] = by ? [by] : humans.length > 0 ? humans : actors;
  return allowedActions(machine, state).filter((allowed) =>
    actorsIn(machine, state, allowed).some((actor) => roles.includes(actor)),
  );
}

/** What a refused move names: the members of every 409 `invalid_state_transition` body. */
export interface RefusedMove {
  resource: string;
  current_state: string;
  action: string;
  /** The actions of `current_state` that the caller may take (see {@link callerActions}). */
  allowed_actions: readonly string[];
}

/**
 * The one answer to an illegal move: 409 `invalid_state_transition` with `resource`,
 * `current_state`, `action` and `allowed_actions`. `final`: the state allows nobody any move;
 * `reason`: why, when the refusal is not the machine's table alone (a key claimed already).
 */
export function invalidTransition(
  refusal: RefusedMove,
  options: { final?: boolean; reason?: string } = {},
): BusError {
  const { resource, current_state, action, allowed_actions } = refusal;
  return new BusError(
    'invalid_state_transition',
    illegalMoveDetail(resource, current_state, action) +
      (options.reason ? ` (${options.reason})` : '') +
      (allowed_actions.length > 0
        ? `; allowed: ${allowed_actions.join(', ')}.`
        : options.final
          ? '; it allows no further moves.'
          : '; no move of yours is allowed in that state.'),
    { details: { resource, current_state, action, allowed_actions: [...allowed_actions] } },
  );
}

/**
 * The state `action` leads to from `state`, or a 409 `invalid_state_transition` that names the
 * resource, its state and the actions the caller (`by`, see {@link callerActions}) may take in
 * it. Every move goes through this (in `moveDocument`), so the documented table
 * (`@handoff/contracts`' machines) is the only source of moves. A move the table has is refused
 * the same way when `by` may not take it from `state` (the machine's `only_from`).
 */
export function applyMove<S extends string, A extends string>(
  machine: StateMachine<S, A>,
  state: S,
  action: A,
  by?: Actor,
): S {
  const next = nextState(machine, state, action);
  const barred = next !== undefined && by !== undefined && barredFrom(machine, state, action, by);
  if (next !== undefined && !barred) return next;
  const from = by === undefined ? undefined : machine.only_from?.[action]?.[by];
  throw invalidTransition(
    {
      resource: machine.resource,
      current_state: state,
      action,
      allowed_actions: callerActions(machine, state, action, by),
    },
    {
      final: allowedActions(machine, state).length === 0,
      ...(barred && from ? { reason: `the ${by} may only from ${from.join(' or ')}` } : {}),
    },
  );
}

/**
 * The answer when a move keeps losing its compare-and-set to other writers (other replicas):
 * 409 `concurrent_change`, which a retry may clear.
 */
export function concurrentChange(resource: string): BusError {
  return new BusError(
    'concurrent_change',
    `The ${resource.replaceAll('_', ' ')} changed meanwhile; try again.`,
  );
}
