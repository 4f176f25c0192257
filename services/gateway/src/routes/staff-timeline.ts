import {
  deliverableOps,
  disputeOps,
  jobOps,
  messageOps,
  milestoneOps,
  paymentOps,
  paymentRecordOps,
  proposalOps,
  requestOps,
  Timeline,
  webhookOps,
  type TimelineItem,
  type TimelineKind,
} from '@handoff/contracts';
import { defineRoute, type RouteDefinition } from '../http/route.ts';
import { IdParams } from './ids.ts';
import { customerParty } from './parties.ts';

/**
 * Staff's read of everything that happened on one request, in one list: thin reads of the
 * owning services (the same operations the customer's reads use, for that request only) and of
 * the owning integration's event feed, merged oldest first.
 */

/** The newest entries read of each kind; `has_more` says when a kind had more. */
const PER_KIND = 100;
const SUMMARY_MAX = 200;

const clip = (text: string) =>
  text.length > SUMMARY_MAX ? `${text.slice(0, SUMMARY_MAX - 1)}…` : text;
const money = (amount: number | null, currency: string | null) =>
  amount === null ? '' : `${amount} ${currency ?? ''}`.trim();

const item = (
  kind: TimelineKind,
  id: string,
  at: string,
  status: string | null,
  summary: string,
  sequence: number | null = null,
): TimelineItem => ({
  object: 'timeline_item',
  kind,
  id,
  at,
  sequence,
  status,
  summary: clip(summary),
});

/** Oldest first, then by id, so the order is stable. */
function byTime(a: TimelineItem, b: TimelineItem): number {
  const time = Date.parse(a.at) - Date.parse(b.at);
  if (time !== 0) return time;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * Resources oldest first, with the events merged in by time while keeping their sequence
 * order (an event's timestamp comes from the service that published it, its sequence from
 * the request's one counter: the sequence is the truth of their order).
 */
export function merged(resources: TimelineItem[], events: TimelineItem[]): TimelineItem[] {
  const things = [...resources].sort(byTime);
  const feed = [...events].sort((a, b) => (a.sequence ?? 0) - (b.sequence ?? 0));
  const out: TimelineItem[] = [];
  let i = 0;
  let j = 0;
  while (i < things.length || j < feed.length) {
    const thing = things[i];
    const event = feed[j];
    if (event && (!thing || Date.parse(event.at) < Date.parse(thing.at))) {
      out.push(event);
      j += 1;
    } else if (thing) {
      out.push(thing);
      i += 1;
    }
  }
  return out;
}

export const staffTimelineRoutes: RouteDefinition[] = [
  defineRoute({
    method: 'get',
    path: '/v1/staff/requests/{id}/timeline',
    operationId: 'getRequestTimeline',
    summary:
      "One request's timeline, oldest first: messages, proposals, jobs, milestones, " +
      'deliverables, payment requests, payments, disputes and events with their sequence (the ' +
      'newest 100 of each kind; `has_more` when some were left out)',
    tags: ['staff'],
    access: { kind: 'staff' },
    params: IdParams,
    status: 200,
    response: Timeline,
    notFound: ['request_not_found'],
    handle: async ({ params, call }) => {
      const requestId = params.id;
      // Unknown request: 404 before anything else is read.
      await call(requestOps.getAsStaff, { id: requestId });
      const party = customerParty(requestId);
      const page = { limit: PER_KIND };
      const { integration_id: integrationId } = await call(requestOps.owner, {
        request_id: requestId,
      });
      const lists = await Promise.all([
        call(messageOps.list, { request_id: requestId, ...page }),
        call(proposalOps.list, { party, ...page }),
        call(jobOps.list, { party, ...page }),
        call(milestoneOps.list, { party, ...page }),
        call(deliverableOps.list, { party, ...page }),
        call(paymentOps.list, { request_id: requestId, ...page }),
        call(paymentRecordOps.list, { request_id: requestId, ...page }),
        call(disputeOps.list, { party, ...page }),
        call(webhookOps.listEvents, {
          integration_id: integrationId,
          query: { request_id: requestId, ...page },
        }),
      ]);
      const [
        messages,
        proposals,
        jobs,
        milestones,
        deliverables,
        paymentRequests,
        payments,
        disputes,
        events,
      ] = lists;
      const resources: TimelineItem[] = [
        ...messages.data.map((m) =>
          item('message', m.id, m.created_at, null, `${m.author_role}: ${m.message}`),
        ),
        ...proposals.data.map((p) =>
          item(
            'proposal',
            p.id,
            p.created_at,
            p.status,
            `${p.provider_name}: ${money(p.amount, p.currency)}`,
          ),
        ),
        ...jobs.data.map((j) =>
          item('job', j.id, j.created_at, j.status, `Job for ${money(j.amount, j.currency)}`),
        ),
        ...milestones.data.map((m) =>
          item(
            'milestone',
            m.id,
            m.created_at,
            m.status,
            [m.title, money(m.amount, m.currency)].filter(Boolean).join(': '),
          ),
        ),
        ...deliverables.data.map((d) => item('deliverable', d.id, d.created_at, d.status, d.title)),
        ...paymentRequests.data.map((r) =>
          item(
            'payment_request',
            r.id,
            r.created_at,
            r.status,
            `${money(r.amount, r.currency)}: ${r.description}`,
          ),
        ),
        ...payments.data.map((p) =>
          item(
            'payment',
            p.id,
            p.created_at,
            p.status,
            `Payment of ${money(p.amount, p.currency)}`,
          ),
        ),
        ...disputes.data.map((d) =>
          item('dispute', d.id, d.created_at, d.status, `${d.kind}: ${d.reason}`),
        ),
      ];
      const feed = events.data.map((e) =>
        item('event', e.id, e.timestamp, e.type, e.type, e.data.sequence),
      );
      return {
        object: 'list' as const,
        data: merged(resources, feed),
        has_more: lists.some((list) => list.has_more),
      };
    },
  }),
];
