import { BusError } from '@handoff/bus';
import type { ApplicationStatus } from '@handoff/contracts';

/**
 * The access application's state machine.
 *
 * | state     | approve  | reject   | claim_key (once)   |
 * |-----------|----------|----------|--------------------|
 * | submitted | approved | rejected | -                  |
 * | approved  | -        | -        | approved + key     |
 * | rejected  | -        | -        | -                  |
 */
export const APPLICATION_MOVES: Record<ApplicationStatus, readonly string[]> = {
  submitted: ['approve', 'reject'],
  approved: ['claim_key'],
  rejected: [],
};

export function illegalMove(
  current: ApplicationStatus,
  action: string,
  options: { keyClaimed?: boolean } = {},
): BusError {
  const allowed = APPLICATION_MOVES[current].filter(
    (move) => !(move === 'claim_key' && options.keyClaimed),
  );
  const why =
    options.keyClaimed && action === 'claim_key' ? ' and its key was already claimed' : '';
  return new BusError(
    'invalid_state_transition',
    `cannot ${action}: the application is ${current}${why}.`,
    {
      details: { current_state: current, allowed_transitions: allowed },
    },
  );
}
