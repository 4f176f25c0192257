import { operationsOf } from './operation.ts';

/**
 * Each backend service's declarer of operations, for the `*-ops.ts` files:
 * `intakeOp('requests.get', input, output)` is intake's `handoff.intake.requests.get`.
 */
export const conversationOp = operationsOf('conversation');
export const intakeOp = operationsOf('intake');
export const milestonesOp = operationsOf('milestones');
export const paymentsOp = operationsOf('payments');
export const dispatcherOp = operationsOf('webhook-dispatcher');
export const notificationsOp = operationsOf('notifications');
export const testmodeOp = operationsOf('testmode');
