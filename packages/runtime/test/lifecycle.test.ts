import { describe, expect, it } from '@jest/globals';
import { actorsIn, REQUEST_MACHINE } from '@handoff/contracts';
import { applyMove, callerActions } from '../src/lifecycle.ts';

// A machine's `only_from`: an actor of an action who may take it from some of its states only
// (the customer cancels a request before a provider is engaged; staff in any open state).
describe('only_from', () => {
  it('lets the customer cancel a request only while no provider is engaged', () => {
    expect(applyMove(REQUEST_MACHINE, 'submitted', 'cancel', 'customer')).toBe('cancelled');
    expect(applyMove(REQUEST_MACHINE, 'routed', 'cancel', 'customer')).toBe('cancelled');
    expect(() => applyMove(REQUEST_MACHINE, 'in_progress', 'cancel', 'customer')).toThrow(
      expect.objectContaining({
        code: 'invalid_state_transition',
        message:
          'cannot cancel a request that is in_progress (the customer may only from submitted or routed); no move of yours is allowed in that state.',
        details: {
          resource: 'request',
          current_state: 'in_progress',
          action: 'cancel',
          allowed_actions: [],
        },
      }),
    );
  });

  it('leaves the other actors, and a move without a named actor, as the table has them', () => {
    expect(applyMove(REQUEST_MACHINE, 'in_progress', 'cancel', 'staff')).toBe('cancelled');
    expect(applyMove(REQUEST_MACHINE, 'in_progress', 'cancel')).toBe('cancelled');
    expect(callerActions(REQUEST_MACHINE, 'in_progress', 'route', 'staff')).toContain('cancel');
  });

  it('lists who may take an action from each state, and the caller’s actions in it', () => {
    expect(actorsIn(REQUEST_MACHINE, 'routed', 'cancel')).toEqual(['staff', 'customer']);
    expect(actorsIn(REQUEST_MACHINE, 'in_progress', 'cancel')).toEqual(['staff']);
    expect(callerActions(REQUEST_MACHINE, 'submitted', 'cancel', 'customer')).toEqual(['cancel']);
    expect(callerActions(REQUEST_MACHINE, 'in_progress', 'cancel', 'customer')).toEqual([]);
  });
});
