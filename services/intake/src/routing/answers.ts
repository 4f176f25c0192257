// A provider's answer to its offer, and the offer that runs out unanswered.
import { BusError } from '@handoff/bus';
import type { RequestDoc } from '../store/requests.ts';
import { autoRoutingOf, offerTo, type OfferDoc } from '../store/routing.ts';
import type { MoveRequest } from '../handlers/requests/mover.ts';
import { asMove, endOfferChange, ROUTABLE } from './moves.ts';
import type { LapseJob } from './lapse-queue.ts';
import { countOffer } from './offer-metrics.ts';

const SYSTEM = { actor: 'system', call_id: null };

/** The provider's pending offer of the request, or the refusal its answer gets. */
function pendingTo(doc: RequestDoc, providerId: string, now: Date): OfferDoc {
  const offer = offerTo(doc, providerId);
  if (!offer) throw new BusError('offer_not_found', 'You have no offer of this request.');
  const lapsedMeanwhile = offer.status === 'pending' && offer.respond_by <= now;
  if (offer.status !== 'pending' || lapsedMeanwhile || !ROUTABLE.includes(doc.status)) {
    const state = lapsedMeanwhile ? 'lapsed' : offer.status;
    throw new BusError(
      'offer_not_pending',
      `The offer is ${state}; it can no longer be answered.`,
      {
        details: { resource: 'routing_offer', current_state: state },
      },
    );
  }
  return offer;
}

/** The provider accepts: the request stays routed to it, and the rules are done with it. */
export async function acceptOffer(move: MoveRequest, requestId: string, providerId: string) {
  const now = new Date();
  const { move: accepting } = asMove('request.offer_accepted', (doc) => {
    const offer = pendingTo(doc, providerId, now);
    const auto = autoRoutingOf(doc);
    return {
      action: 'update' as const,
      change: {
        auto_routing: {
          ...auto,
          state: 'accepted' as const,
          offers: auto.offers.map((o) =>
            o.id === offer.id ? { ...o, status: 'accepted' as const, decided_at: now } : o,
          ),
        },
      },
    };
  });
  const after = await move(
    requestId,
    { actor: `provider:${providerId}`, call_id: null },
    accepting,
  );
  countOffer('accepted');
  return after;
}

/** The provider declines: the rules offer the request to the next provider. */
export async function declineOffer(
  move: MoveRequest,
  requestId: string,
  providerId: string,
  reason: string | null,
) {
  const now = new Date();
  const { move: declining } = asMove('request.offer_declined', (doc) => {
    pendingTo(doc, providerId, now);
    return endOfferChange(doc, { status: 'declined', reason }, { state: 'routing' }, now);
  });
  const after = await move(
    requestId,
    { actor: `provider:${providerId}`, call_id: null },
    declining,
  );
  countOffer('declined');
  return after;
}

/**
 * The response window of an offer ended: when the offer still waits, it lapses and the rules
 * offer the request to the next provider. Anything else (answered, withdrawn, closed) is done.
 */
export async function lapseOffer(move: MoveRequest, job: LapseJob): Promise<void> {
  const now = new Date();
  const { move: lapsing, changed } = asMove('request.offer_lapsed', (doc) => {
    const pending = autoRoutingOf(doc).offers.find((o) => o.status === 'pending');
    if (!pending || pending.id !== job.offer_id || !ROUTABLE.includes(doc.status)) return null;
    // A second of slack for the clocks of two replicas (the job is held until its time).
    if (pending.respond_by.getTime() > now.getTime() + 1_000) return null;
    return endOfferChange(
      doc,
      { status: 'lapsed', reason: 'No answer before the response deadline.' },
      { state: 'routing' },
      now,
    );
  });
  try {
    await move(job.request_id, SYSTEM, lapsing);
    if (changed()) countOffer('lapsed');
  } catch (error) {
    // A request that is gone has nothing left to lapse.
    if (error instanceof BusError && error.code === 'request_not_found') return;
    throw error;
  }
}
