// A test clock's part in intake (test mode): which requests are on a clock, and the response
// windows of their offers, moved as the clock advances and lapsed as the lapse queue would.
import { BusError, implement, type Endpoint } from '@handoff/bus';
import { intakeClockOps, TEST_CLOCK_LIMITS, type ClockDeadline } from '@handoff/contracts';
import type { Filter } from 'mongodb';
import { lapseOffer } from '../../routing/answers.ts';
import type { RequestDoc } from '../../store/requests.ts';
import { autoRoutingOf, pendingOffer } from '../../store/routing.ts';
import type { IntakeContext } from '../context.ts';
import type { MoveRequest } from './mover.ts';

/** Tries of one request's shift that another writer beat (then it is read again). */
const SHIFT_ATTEMPTS = 3;

/** The requests among `ids` whose offer waits for an answer (with `respondBy`, by when). */
const offered = (ids: readonly string[], respondBy?: Record<string, Date>): Filter<RequestDoc> => ({
  _id: { $in: [...ids] },
  'auto_routing.state': 'offered',
  ...(respondBy ? { 'auto_routing.respond_by': respondBy } : {}),
});

/**
 * Moves the pending offer's window `byMs` earlier, in the request's turn: a compare-and-set on
 * `updated_at` (which it advances, so a move that read the request before reads it again).
 */
async function shiftOffer(ctx: IntakeContext, id: string, byMs: number): Promise<boolean> {
  const { requests } = ctx.collections;
  return ctx.store.serialize(requests, id, async () => {
    for (let attempt = 0; attempt < SHIFT_ATTEMPTS; attempt += 1) {
      const doc = await requests.findOne({ _id: id });
      if (!doc) return false;
      const auto = autoRoutingOf(doc);
      const offer = auto.state === 'offered' ? pendingOffer(auto) : undefined;
      if (!offer) return false;
      const respondBy = new Date(offer.respond_by.getTime() - byMs);
      const written = await requests.updateOne(
        { _id: id, updated_at: doc.updated_at },
        {
          $set: {
            'auto_routing.offers': auto.offers.map((o) =>
              o.id === offer.id ? { ...o, respond_by: respondBy } : o,
            ),
            'auto_routing.respond_by': respondBy,
            updated_at: new Date(Math.max(Date.now(), doc.updated_at.getTime() + 1)),
          },
        },
      );
      if (written.matchedCount === 1) return true;
    }
    return false;
  });
}

export function testClockEndpoints(
  ctx: IntakeContext,
  move: MoveRequest,
): Record<string, Endpoint> {
  const { requests } = ctx.collections;
  return {
    ...implement(intakeClockOps.requests, async ({ integration_id, test_clock }) => {
      const rows = await requests
        .find({ test_clock, integration_id, livemode: false }, { projection: { _id: 1 } })
        .sort({ _id: 1 })
        .limit(TEST_CLOCK_LIMITS.requestsPerClock)
        .toArray();
      return { request_ids: rows.map((row) => row._id) };
    }),

    ...implement(intakeClockOps.next, async ({ request_ids }) => {
      const now = new Date();
      const [row] = await requests
        .find(offered(request_ids, { $gt: now }))
        .sort({ 'auto_routing.respond_by': 1, _id: 1 })
        .limit(1)
        .toArray();
      const offer = row && pendingOffer(autoRoutingOf(row));
      if (!row || !offer) return { next: null };
      const next: ClockDeadline = {
        resource: 'routing_offer',
        id: offer.id,
        request_id: row._id,
        in_ms: Math.max(1, offer.respond_by.getTime() - now.getTime()),
      };
      return { next };
    }),

    ...implement(intakeClockOps.shift, async ({ request_ids, by_ms }) => {
      const rows = await requests.find(offered(request_ids), { projection: { _id: 1 } }).toArray();
      let shifted = 0;
      for (const { _id } of rows) if (await shiftOffer(ctx, _id, by_ms)) shifted += 1;
      return { shifted };
    }),

    // What the lapse queue does when an offer's window ends; its own message, due later, then
    // finds the offer answered and does nothing.
    ...implement(intakeClockOps.fire, async ({ request_ids }) => {
      const rows = await requests.find(offered(request_ids, { $lte: new Date() })).toArray();
      let fired = 0;
      for (const row of rows) {
        const offer = pendingOffer(autoRoutingOf(row));
        if (!offer) continue;
        try {
          await lapseOffer(move, {
            request_id: row._id,
            offer_id: offer.id,
            due_at: offer.respond_by.getTime(),
          });
          fired += 1;
        } catch (error) {
          // Answered or moved meanwhile: nothing left to lapse.
          if (!(error instanceof BusError && error.status === 409)) throw error;
        }
      }
      return { fired };
    }),
  };
}
