import type { AutoRouting, RequestCounts, RoutingCandidate, RoutingOffer } from './api.ts';

// The API's codes of requests and routing in the words staff read on screen.

type RequestStatus = keyof RequestCounts['by_status'];
type RoutingState = AutoRouting['state'];
type QueueReason = NonNullable<AutoRouting['queue_reason']>;

export const REQUEST_STATUS_WORDS: Record<RequestStatus, string> = {
  submitted: 'New',
  routed: 'Routed',
  in_progress: 'In progress',
  completed: 'Completed',
  cancelled: 'Cancelled',
};

export const ROUTING_STATE_WORDS: Record<RoutingState, string> = {
  routing: 'Choosing a provider',
  offered: 'Offered',
  accepted: 'Accepted',
  queued: 'Waiting for staff',
  manual: 'Routed by staff',
};

export const QUEUE_REASON_WORDS: Record<QueueReason, string> = {
  no_category: 'it has no category',
  paused: 'automatic routing of its category is paused',
  no_eligible_provider: 'no provider of its category can take it now',
  offers_exhausted: 'every provider offered it declined or let the offer lapse',
};

export const OFFER_STATUS_WORDS: Record<RoutingOffer['status'], string> = {
  pending: 'Waiting for an answer',
  accepted: 'Accepted',
  declined: 'Declined',
  lapsed: 'Lapsed (no answer in time)',
  withdrawn: 'Withdrawn',
};

export const OUTCOME_WORDS: Record<RoutingCandidate['outcome'], string> = {
  chosen: 'Chosen',
  eligible: 'Could take it',
  excluded: 'Passed over',
};

export const BY_WORDS: Record<RoutingOffer['by'], string> = {
  rules: 'The rules',
  staff: 'Staff',
};

/** Why providers of a category were passed over, by the decision's reason code. */
const EXCLUDED_WORDS: Record<string, string> = {
  suspended: 'suspended',
  away: 'away',
  at_capacity: 'at capacity',
  language: 'another language',
  already_offered: 'already offered it',
};

/** A decision's excluded counts as a sentence: `2 away, 1 at capacity`; null when none. */
export function excludedText(excluded: Record<string, number>): string | null {
  const parts = Object.entries(excluded)
    .filter(([, n]) => n > 0)
    .map(([reason, n]) => `${n} ${EXCLUDED_WORDS[reason] ?? reason.replaceAll('_', ' ')}`);
  return parts.length > 0 ? parts.join(', ') : null;
}

/** Where automatic routing of a request stands, with the queue reason in words when queued. */
export function routingStateText(routing: AutoRouting): string {
  const state = ROUTING_STATE_WORDS[routing.state];
  if (routing.state !== 'queued') return state;
  const reason =
    routing.queue_detail ?? (routing.queue_reason ? QUEUE_REASON_WORDS[routing.queue_reason] : '');
  return reason ? `${state}: ${reason}` : state;
}

/** The offer waiting for its provider's answer, if one does. */
export const pendingOffer = (routing: AutoRouting): RoutingOffer | undefined =>
  routing.offers.findLast((offer) => offer.status === 'pending');
