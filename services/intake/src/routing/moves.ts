// The moves of a request that routing makes, each through the request mover (one write, one
// `request.updated`, an audit entry): an offer, an answer to one, a lapse, the staff queue.
import { newId, type OfferStatus, type QueueReason, type Routing } from '@handoff/contracts';
import type { RequestDoc } from '../store/requests.ts';
import {
  autoRoutingOf,
  closePending,
  withOffer,
  type AutoRoutingDoc,
  type DecisionDoc,
  type OfferDoc,
} from '../store/routing.ts';
import type { RequestMove } from '../handlers/requests/mover.ts';

/** Requests the rules route: not yet started, completed or cancelled. */
export const ROUTABLE: readonly RequestDoc['status'][] = ['submitted', 'routed'];

const routingWithout = (doc: RequestDoc, providerId: string): Routing => {
  const provider_ids = doc.routing.provider_ids.filter((id) => id !== providerId);
  if (provider_ids.length > 0) return { ...doc.routing, provider_ids };
  return {
    mode: doc.marketplace.review === 'approved' ? 'marketplace' : 'unassigned',
    provider_ids: [],
  };
};

/** The action that leaves the request with `routing`: routed while it names providers. */
const actionFor = (doc: RequestDoc, routing: Routing) => {
  const routed = routing.provider_ids.length > 0;
  if (doc.status === 'submitted' && routed) return 'route' as const;
  if (doc.status === 'routed' && !routed) return 'unroute' as const;
  return 'update' as const;
};

/** A change of routing and of where automatic routing stands, with the action it takes. */
function routingChange(
  doc: RequestDoc,
  routing: Routing,
  auto: Partial<AutoRoutingDoc>,
): { action: ReturnType<typeof actionFor>; change: Partial<RequestDoc> } {
  return {
    action: actionFor(doc, routing),
    change: { routing, auto_routing: { ...autoRoutingOf(doc), ...auto } },
  };
}

export interface OfferPlan {
  providerId: string;
  by: 'rules' | 'staff';
  responseSeconds: number;
  maxOffers: number;
  decision: DecisionDoc;
  /** Why a pending offer is withdrawn for this one (staff's override). */
  withdrawReason?: string;
}

/** Offers the request to one provider (the only one it is routed to). */
export function offerChange(doc: RequestDoc, plan: OfferPlan, now: Date) {
  const auto = autoRoutingOf(doc);
  const offer: OfferDoc = {
    id: newId('off'),
    provider_id: plan.providerId,
    status: 'pending',
    by: plan.by,
    offered_at: now,
    respond_by: new Date(now.getTime() + plan.responseSeconds * 1000),
    decided_at: null,
    reason: null,
  };
  const offers = closePending(auto.offers, 'withdrawn', now, plan.withdrawReason ?? null);
  return routingChange(
    doc,
    { mode: 'direct', provider_ids: [plan.providerId] },
    {
      state: 'offered',
      queue_reason: null,
      offers_made: auto.offers_made + 1,
      max_offers: plan.maxOffers,
      tried: [...new Set([...auto.tried, plan.providerId])],
      offers: withOffer(offers, offer),
      decision: plan.decision,
      respond_by: offer.respond_by,
    },
  );
}

/** The rules found no one (or may not look): where automatic routing then stands. */
export function queueChange(
  doc: RequestDoc,
  reason: QueueReason,
  decision: DecisionDoc | null,
  maxOffers: number,
): AutoRoutingDoc {
  const auto = autoRoutingOf(doc);
  return {
    ...auto,
    state: 'queued',
    queue_reason: reason,
    max_offers: maxOffers,
    decision: decision ?? auto.decision,
  };
}

/**
 * The pending offer ends (`declined`, `lapsed`, or `withdrawn` by staff): its provider is no
 * longer routed to, and the request goes back to `next`.
 */
export function endOfferChange(
  doc: RequestDoc,
  ending: { status: Exclude<OfferStatus, 'pending' | 'accepted'>; reason: string | null },
  next: Partial<AutoRoutingDoc>,
  now: Date,
) {
  const auto = autoRoutingOf(doc);
  const pending = auto.offers.find((offer) => offer.status === 'pending');
  const routing = pending ? routingWithout(doc, pending.provider_id) : doc.routing;
  return routingChange(doc, routing, {
    offers: closePending(auto.offers, ending.status, now, ending.reason),
    ...next,
  });
}

/** A mover's move from a change decided on the request as the move reads it. */
export function asMove(
  audit: string,
  decideOn: (doc: RequestDoc) => ReturnType<typeof routingChange> | null,
): { move: RequestMove; changed: () => boolean } {
  let decided: ReturnType<typeof routingChange> | null = null;
  let changed = false;
  return {
    changed: () => changed,
    move: {
      audit,
      unchanged: (doc) => {
        decided = decideOn(doc);
        changed = decided !== null;
        return decided === null;
      },
      action: () => decided?.action ?? 'update',
      change: () => decided?.change ?? {},
    },
  };
}
