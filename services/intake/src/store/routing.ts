// Automatic routing as intake stores it: where a request stands (`auto_routing` in its document,
// so that an offer and the request's routing change in one write), a category's settings, and
// the views staff and providers read.
import {
  ROUTING_LIMITS,
  type AutoRouting,
  type CategoryRouting,
  type OfferStatus,
  type QueueReason,
  type RoutingOffer,
  type StaffRequest,
} from '@handoff/contracts';
import type { Store } from '@handoff/store';
import type { AutoRoutingDoc, OfferDoc } from './auto-routing.ts';
import type { Collection } from 'mongodb';
import { requestView, type RequestDoc } from './requests.ts';

export type { AutoRoutingDoc, DecisionDoc, OfferDoc } from './auto-routing.ts';

export const QUEUE_DETAILS: Record<QueueReason, string> = {
  no_category: 'The request names no category, so the rules cannot choose providers.',
  paused: 'Automatic routing is paused for its category.',
  no_eligible_provider:
    'No provider of its category is active, available, under capacity and speaks its language.',
  offers_exhausted: 'Every offer allowed was declined or lapsed.',
};

/** Requests stored before automatic routing were routed by hand. */
const BY_HAND: AutoRoutingDoc = {
  state: 'manual',
  queue_reason: null,
  offers_made: 0,
  max_offers: 1,
  tried: [],
  offers: [],
  decision: null,
};

export const autoRoutingOf = (doc: RequestDoc): AutoRoutingDoc => doc.auto_routing ?? BY_HAND;

export function offerView(offer: OfferDoc): RoutingOffer {
  return {
    object: 'routing_offer',
    id: offer.id,
    provider_id: offer.provider_id,
    status: offer.status,
    by: offer.by,
    offered_at: offer.offered_at.toISOString(),
    respond_by: offer.respond_by.toISOString(),
    decided_at: offer.decided_at?.toISOString() ?? null,
    reason: offer.reason,
  };
}

export function autoRoutingView(doc: RequestDoc): AutoRouting {
  const routing = autoRoutingOf(doc);
  return {
    state: routing.state,
    queue_reason: routing.queue_reason,
    queue_detail: routing.queue_reason ? QUEUE_DETAILS[routing.queue_reason] : null,
    offers_made: routing.offers_made,
    max_offers: routing.max_offers,
    offers: routing.offers.map(offerView),
    decision: routing.decision && {
      ...routing.decision,
      decided_at: routing.decision.decided_at.toISOString(),
    },
  };
}

export const staffRequestView = (doc: RequestDoc): StaffRequest => ({
  ...requestView(doc),
  automatic_routing: autoRoutingView(doc),
  ...(doc.cancellation
    ? { cancellation: { ...doc.cancellation, at: doc.cancellation.at.toISOString() } }
    : {}),
});

/** The request's pending offer, if one waits. */
export const pendingOffer = (routing: AutoRoutingDoc): OfferDoc | undefined =>
  routing.offers.find((offer) => offer.status === 'pending');

/** The latest offer of the request to one provider. */
export const offerTo = (doc: RequestDoc, providerId: string): OfferDoc | undefined =>
  autoRoutingOf(doc).offers.findLast((offer) => offer.provider_id === providerId);

/** The offers with one more (the oldest drop off beyond the record's bound). */
export const withOffer = (offers: OfferDoc[], offer: OfferDoc): OfferDoc[] =>
  [...offers, offer].slice(-ROUTING_LIMITS.offers);

/** Closes the pending offer, if any, as `status`. */
export function closePending(
  offers: OfferDoc[],
  status: Exclude<OfferStatus, 'pending'>,
  now: Date,
  reason: string | null,
): OfferDoc[] {
  return offers.map((offer) =>
    offer.status === 'pending' ? { ...offer, status, decided_at: now, reason } : offer,
  );
}

// --- Category settings ---------------------------------------------------------------------

export interface CategoryDoc {
  _id: string;
  paused: boolean;
  pause_reason: string | null;
  paused_by: string | null;
  paused_at: Date | null;
  max_offers: number | null;
  response_seconds: number | null;
  updated_at: Date;
}

/** What a category without settings of its own takes. */
export interface RoutingDefaults {
  maxOffers: number;
  responseSeconds: number;
}

export function categoryView(
  category: string,
  doc: CategoryDoc | null,
  defaults: RoutingDefaults,
): CategoryRouting {
  return {
    object: 'category_routing',
    category,
    paused: doc?.paused ?? false,
    pause_reason: doc?.pause_reason ?? null,
    paused_by: doc?.paused_by ?? null,
    paused_at: doc?.paused_at?.toISOString() ?? null,
    max_offers: doc?.max_offers ?? defaults.maxOffers,
    response_seconds: doc?.response_seconds ?? defaults.responseSeconds,
    updated_at: doc?.updated_at.toISOString() ?? null,
  };
}

export function categoryCollection(store: Store): Collection<CategoryDoc> {
  return store.db.collection<CategoryDoc>('routing_categories');
}
