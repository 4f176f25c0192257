import { BusError } from '@handoff/bus';
import { allowedActions, nextState, type StateMachine } from '@handoff/contracts';

/**
 * The state `action` leads to from `state`, or a 409 `invalid_state_transition` that names the
 * resource, its state and the actions it allows. Every domain layer moves its resources through
 * this, so the documented table (`@handoff/contracts`' machines) is the only source of moves.
 */
export function applyMove<S extends string, A extends string>(
  machine: StateMachine<S, A>,
  state: S,
  action: A,
): S {
  const next = nextState(machine, state, action);
  if (next !== undefined) return next;
  const allowed = allowedActions(machine, state);
  throw new BusError(
    'invalid_state_transition',
    `cannot ${action.replaceAll('_', ' ')} a ${machine.resource.replaceAll('_', ' ')} that is ${state}` +
      (allowed.length > 0 ? `; allowed: ${allowed.join(', ')}.` : '; it allows no further moves.'),
    {
      details: {
        resource: machine.resource,
        current_state: state,
        action,
        allowed_actions: allowed,
      },
    },
  );
}

/**
 * The answer when a compare-and-set move finds the resource no longer in the state it read
 * (another replica moved it in between): `invalid_state_transition` when the action is illegal
 * from the state it is in now, else 409 `concurrent_change`, which a retry may clear.
 */
export function changedMeanwhile<S extends string, A extends string>(
  machine: StateMachine<S, A>,
  current: S | undefined,
  action: A,
): BusError {
  if (current !== undefined) applyMove(machine, current, action);
  return new BusError(
    'conflict',
    `The ${machine.resource.replaceAll('_', ' ')} changed meanwhile; try again.`,
    { details: { code: 'concurrent_change' } },
  );
}
