// What each event of a request settles for routing: the rules' turn when it waits for them, a
// pending offer's lapse queued, a closed request's offer withdrawn, its provider's outcome
// counted, and the capacity held by exactly the provider who holds the request now.
import type { IntakeContext } from '../handlers/context.ts';
import type { RequestDoc } from '../store/requests.ts';
import { autoRoutingOf, closePending, pendingOffer } from '../store/routing.ts';
import { decide, type RoutingDeps } from './decide.ts';
import { hold, holdersOf, recordOutcome, release } from './holds.ts';
import type { LapseQueue } from './lapse-queue.ts';
import { ROUTABLE } from './moves.ts';
import { isTestRequest } from './test-mode.ts';

/** Decided offers whose outcome each settle counts again (the count keeps each once). */
const RECENT_OUTCOMES = 2;

/**
 * Who holds the request's capacity now: the engaged provider once work started, the provider of
 * its pending or accepted offer while it is routed so, nobody once it closed or otherwise.
 */
export function holderOf(doc: RequestDoc): string | null {
  if (doc.status === 'completed' || doc.status === 'cancelled') return null;
  if (doc.status === 'in_progress') return doc.engaged_provider_id ?? null;
  const auto = autoRoutingOf(doc);
  if (auto.state !== 'offered' && auto.state !== 'accepted') return null;
  const offer = auto.offers.findLast((o) => o.status === 'pending' || o.status === 'accepted');
  return offer && doc.routing.provider_ids.includes(offer.provider_id) ? offer.provider_id : null;
}

/** A request that left the routable states keeps no pending offer (no event: not the agent's). */
async function withdrawOnClose(ctx: IntakeContext, doc: RequestDoc): Promise<void> {
  const auto = autoRoutingOf(doc);
  if (ROUTABLE.includes(doc.status) || !pendingOffer(auto)) return;
  const requests = ctx.collections.requests;
  await ctx.store.serialize(requests, doc._id, () =>
    requests.updateOne(
      { _id: doc._id, status: doc.status, updated_at: doc.updated_at },
      {
        $set: {
          'auto_routing.offers': closePending(
            auto.offers,
            'withdrawn',
            new Date(),
            `The request is ${doc.status}.`,
          ),
          'auto_routing.state': 'manual',
        },
      },
    ),
  );
}

async function countOutcomes(ctx: IntakeContext, doc: RequestDoc): Promise<void> {
  const decided = autoRoutingOf(doc).offers.filter(
    (o) => o.status === 'accepted' || o.status === 'declined' || o.status === 'lapsed',
  );
  for (const offer of decided.slice(-RECENT_OUTCOMES)) {
    const kind = offer.status as 'accepted' | 'declined' | 'lapsed';
    const decidedAt = offer.decided_at ?? offer.respond_by;
    await recordOutcome(ctx, offer.provider_id, {
      key: `offer:${offer.id}`,
      kind,
      response_ms: kind === 'lapsed' ? null : decidedAt.getTime() - offer.offered_at.getTime(),
      at: decidedAt,
    });
  }
  const engaged = doc.engaged_provider_id;
  if (engaged && (doc.status === 'completed' || doc.status === 'cancelled')) {
    await recordOutcome(ctx, engaged, {
      key: `job:${doc._id}`,
      kind: doc.status,
      response_ms: null,
      at: doc.updated_at,
    });
  }
}

/**
 * The holds of the request: its holder's kept (whatever its capacity), every other let go. The
 * holders are read first, so that a holder already holding it costs no read of its own.
 */
async function settleHolds(ctx: IntakeContext, doc: RequestDoc): Promise<void> {
  const holder = holderOf(doc);
  const holders = await holdersOf(ctx, doc._id);
  if (holder && !holders.includes(holder)) await hold(ctx, holder, doc._id, { unbounded: true });
  for (const providerId of holders) {
    if (providerId !== holder) await release(ctx, providerId, doc._id);
  }
}

/**
 * Settles a request's routing after one of its events. `fresh`: the event is the request's
 * `request.created`, handled for the first time. Nothing can have happened to such a request but
 * the rules' turn (a staff move meanwhile is an event with a settle of its own, and a crashed
 * earlier try would make this a redelivery): no offer was made, no hold taken, no outcome is due.
 * So once the rules have had their turn (or it needs none) there is nothing to read again.
 */
export async function settle(
  deps: RoutingDeps & { lapses: LapseQueue },
  requestId: string,
  fresh = false,
): Promise<void> {
  const { ctx } = deps;
  const read = () =>
    ctx.collections.requests.findOne({ _id: requestId }, { projection: { outbox: 0 } });
  let doc = await read();
  if (!doc) return;
  if (autoRoutingOf(doc).state === 'routing' && ROUTABLE.includes(doc.status)) {
    // An offer is an event of its own, which settles the rest; the staff queue is not.
    if (!(await decide(deps, doc)) || fresh) return;
    doc = await read();
    if (!doc) return;
  } else if (fresh) {
    return;
  }
  await withdrawOnClose(ctx, doc);
  // The simulated provider keeps no score and holds no capacity: test requests touch no real
  // provider's routing.
  if (!isTestRequest(doc)) {
    await countOutcomes(ctx, doc);
    await settleHolds(ctx, doc);
  }
  const pending = pendingOffer(autoRoutingOf(doc));
  if (pending && ROUTABLE.includes(doc.status)) {
    await deps.lapses.publish({
      request_id: doc._id,
      offer_id: pending.id,
      due_at: pending.respond_by.getTime(),
    });
  }
}
