import {
  nextState,
  REQUEST_MACHINE,
  type RequestAction,
  type RequestStatus,
} from '@handoff/contracts';

/** What these rules read of a request: its state and the provider it is engaged with. */
export interface EngagedRequest {
  status: RequestStatus;
  /** Absent on requests stored before the engagement existed: none. */
  engaged_provider_id?: string | null;
}

/**
 * What the engagement does to a request, decided from the request alone:
 * - `move`: a move of the request machine (with `request.updated`), recording the provider;
 * - `record`: only the engaged provider is written down (a request that staff had already put in
 *   progress by hand); the request's view does not change, so there is no event;
 * - `done`: the request is already there (a redelivered or late event);
 * - `stuck`: the request cannot take the move (e.g. cancelled); the event is dropped and logged.
 */
export type EngagementStep =
  | { kind: 'move'; action: RequestAction; engaged_provider_id: string }
  | { kind: 'record'; engaged_provider_id: string }
  | { kind: 'done' }
  | { kind: 'stuck'; reason: string };

const canTake = (doc: EngagedRequest, action: RequestAction) =>
  nextState(REQUEST_MACHINE, doc.status, action) !== undefined;

function otherProvider(doc: EngagedRequest, providerId: string): EngagementStep | undefined {
  const engaged = doc.engaged_provider_id ?? null;
  if (engaged !== null && engaged !== providerId) {
    return {
      kind: 'stuck',
      reason: `the request is already engaged with ${engaged}, not ${providerId}`,
    };
  }
  return undefined;
}

/** `proposal.accepted`: the request is in progress with the proposal's provider. */
export function startWork(doc: EngagedRequest, providerId: string): EngagementStep {
  const conflict = otherProvider(doc, providerId);
  if (conflict) return conflict;
  if (doc.status === 'in_progress' || doc.status === 'completed') {
    return doc.engaged_provider_id
      ? { kind: 'done' }
      : { kind: 'record', engaged_provider_id: providerId };
  }
  if (!canTake(doc, 'start')) {
    return { kind: 'stuck', reason: `a ${doc.status} request cannot move to in_progress` };
  }
  return { kind: 'move', action: 'start', engaged_provider_id: providerId };
}

/** `job.completed`: the request is completed (after `startWork`, which the consumer runs first). */
export function completeWork(doc: EngagedRequest, providerId: string): EngagementStep {
  const conflict = otherProvider(doc, providerId);
  if (conflict) return conflict;
  if (doc.status === 'completed') return { kind: 'done' };
  if (!canTake(doc, 'complete')) {
    return { kind: 'stuck', reason: `a ${doc.status} request cannot move to completed` };
  }
  return { kind: 'move', action: 'complete', engaged_provider_id: providerId };
}
