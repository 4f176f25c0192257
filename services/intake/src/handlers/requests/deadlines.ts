// `deadlines.list`: what of intake waits on staff (an unrouted request, a marketplace review) or
// on a provider (an offer), each with the time it runs out.
import { implement, type Endpoint } from '@handoff/bus';
import { intakeDeadlineOps, REQUEST_WAITS, type DeadlineItem } from '@handoff/contracts';
import type { Filter } from 'mongodb';
import type { RequestDoc } from '../../store/requests.ts';
import { pendingOffer } from '../../store/routing.ts';
import type { InputOf, IntakeContext } from '../context.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

type DeadlineQuery = InputOf<typeof intakeDeadlineOps.list>;

/** One kind of waiting request: which requests wait, for how long, and what a delay means. */
interface RequestWait {
  resource: DeadlineItem['resource'];
  wait: { days: number; state: string; waiting_on: string };
  filter: Filter<RequestDoc>;
  consequence: string;
}

const WAITS: RequestWait[] = [
  {
    resource: 'request',
    wait: REQUEST_WAITS.routing,
    filter: { status: 'submitted', 'routing.mode': 'unassigned' },
    consequence:
      'Automatic routing could not place it (its `automatic_routing.queue_reason` says why), so ' +
      'it waits unrouted until staff offer it to a provider (`POST /v1/staff/requests/{id}/routing`) ' +
      'or route it by hand; it shows as overdue here meanwhile.',
  },
  {
    resource: 'marketplace_review',
    wait: REQUEST_WAITS.marketplace_review,
    filter: { 'marketplace.review': 'pending_review' },
    consequence:
      'Nothing happens by itself: the request stays off the marketplace until staff review ' +
      'it (`POST /v1/staff/requests/{id}/marketplace-review`); it shows as overdue here meanwhile.',
  },
];

/**
 * Each wait's deadline is `created_at` plus its days, so the query's filters become ranges on
 * `created_at`.
 */
function createdRange({ before, overdue }: DeadlineQuery, days: number, now: number) {
  const range: { $lt?: Date; $lte?: Date; $gt?: Date } = {};
  if (before !== undefined) range.$lt = new Date(Date.parse(before) - days * DAY_MS);
  if (overdue === true) range.$lte = new Date(now - days * DAY_MS);
  if (overdue === false) range.$gt = new Date(now - days * DAY_MS);
  return Object.keys(range).length > 0 ? { created_at: range } : {};
}

/** The first `limit` requests of one wait, soonest deadline first, and whether more wait. */
async function waiting(ctx: IntakeContext, kind: RequestWait, query: DeadlineQuery, now: number) {
  const { resource, wait, filter, consequence } = kind;
  const rows = await ctx.collections.requests
    .find({ $and: [filter, createdRange(query, wait.days, now)] } as Filter<RequestDoc>, {
      projection: { _id: 1, created_at: 1 },
    })
    .sort({ created_at: 1, _id: 1 })
    .limit(query.limit + 1)
    .toArray();
  return {
    more: rows.length > query.limit,
    items: rows.slice(0, query.limit).map((row): DeadlineItem => {
      const deadline = row.created_at.getTime() + wait.days * DAY_MS;
      return {
        object: 'deadline',
        resource,
        id: row._id,
        request_id: row._id,
        state: wait.state,
        waiting_on: wait.waiting_on,
        deadline_at: new Date(deadline).toISOString(),
        overdue: deadline <= now,
        consequence,
      };
    }),
  };
}

const OFFER_CONSEQUENCE =
  'The offer lapses and automatic routing offers the request to the next provider (after the ' +
  "category's last offer, it waits for staff).";

/** The offers waiting for their provider's answer, soonest first: their `respond_by`. */
async function waitingOffers(ctx: IntakeContext, query: DeadlineQuery, now: number) {
  const range: { $lt?: Date; $lte?: Date; $gt?: Date } = {};
  if (query.before !== undefined) range.$lt = new Date(query.before);
  if (query.overdue === true) range.$lte = new Date(now);
  if (query.overdue === false) range.$gt = new Date(now);
  const rows = await ctx.collections.requests
    .find(
      {
        'auto_routing.state': 'offered',
        ...(Object.keys(range).length > 0 ? { 'auto_routing.respond_by': range } : {}),
      },
      { projection: { _id: 1, 'auto_routing.offers': 1 } },
    )
    .sort({ 'auto_routing.respond_by': 1, _id: 1 })
    .limit(query.limit + 1)
    .toArray();
  return {
    more: rows.length > query.limit,
    items: rows.slice(0, query.limit).flatMap((row): DeadlineItem[] => {
      const offer = row.auto_routing && pendingOffer(row.auto_routing);
      if (!offer) return [];
      return [
        {
          object: 'deadline',
          resource: 'routing_offer',
          id: offer.id,
          request_id: row._id,
          state: 'pending',
          waiting_on: 'provider',
          deadline_at: offer.respond_by.toISOString(),
          overdue: offer.respond_by.getTime() <= now,
          consequence: OFFER_CONSEQUENCE,
        },
      ];
    }),
  };
}

export function requestDeadlineEndpoints(ctx: IntakeContext): Record<string, Endpoint> {
  return implement(intakeDeadlineOps.list, async (query) => {
    const now = Date.now();
    const lists = await Promise.all([
      ...WAITS.map((kind) => waiting(ctx, kind, query, now)),
      waitingOffers(ctx, query, now),
    ]);
    const merged = lists
      .flatMap((list) => list.items)
      .sort(
        (a, b) => Date.parse(a.deadline_at) - Date.parse(b.deadline_at) || (a.id < b.id ? -1 : 1),
      );
    return {
      object: 'list' as const,
      data: merged.slice(0, query.limit),
      has_more: lists.some((list) => list.more) || merged.length > query.limit,
    };
  });
}
