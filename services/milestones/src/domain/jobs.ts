import { allowedActions, DISPUTE_MACHINE, MILESTONE_MACHINE } from '@handoff/contracts';

/** Milestone states that count as finished work: the machine's final states. */
export const FINISHED_MILESTONE_STATES = MILESTONE_MACHINE.states.filter(
  (state) => allowedActions(MILESTONE_MACHINE, state).length === 0,
);
/** Dispute states in which a case is still being argued. */
export const OPEN_DISPUTE_STATES = DISPUTE_MACHINE.states.filter(
  (state) => allowedActions(DISPUTE_MACHINE, state).length > 0,
);

export const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
