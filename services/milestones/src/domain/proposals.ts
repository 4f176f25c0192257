import { allowedActions, nextState, PROPOSAL_MACHINE } from '@handoff/contracts';

export const ANOTHER_ACCEPTED = 'another proposal was accepted';

/** States in which a proposal is still undecided: the request's open proposals. */
export const OPEN_STATES = PROPOSAL_MACHINE.states.filter(
  (state) => allowedActions(PROPOSAL_MACHINE, state).length > 0,
);
/** States that the system declines when another proposal of the request is accepted. */
export const DECLINABLE_STATES = PROPOSAL_MACHINE.states.filter(
  (state) => nextState(PROPOSAL_MACHINE, state, 'decline') !== undefined,
);
