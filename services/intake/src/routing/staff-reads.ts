// Staff's reads of requests with where automatic routing stands: the list by status, category,
// routing state and age, its counts, one request, and the rules' suggestions for it now.
import { BusError } from '@handoff/bus';
import {
  AUTO_ROUTING_STATES,
  REQUEST_STATUSES,
  type routingOps,
  type StaffRequestFilters,
} from '@handoff/contracts';
import { paginate } from '@handoff/store';
import type { Filter } from 'mongodb';
import type { z } from 'zod';
import type { InputOf, IntakeContext } from '../handlers/context.ts';
import type { RequestDoc } from '../store/requests.ts';
import { staffRequestView } from '../store/routing.ts';
import { decisionOf, weighRequest } from './decide.ts';
import type { CategorySettingsStore } from './settings.ts';

type Filters = z.output<typeof StaffRequestFilters>;

function timestamp(value: string, pointer: string): Date {
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) {
    throw new BusError('validation_failed', 'Not an RFC 3339 timestamp.', {
      details: {
        errors: [{ pointer, code: 'invalid_timestamp', detail: 'not an RFC 3339 timestamp.' }],
      },
    });
  }
  return at;
}

/** The database filter of staff's filters; requests from before automatic routing are `manual`. */
export function requestFilter(filters: Filters): Filter<RequestDoc> {
  const filter: Filter<RequestDoc> = {};
  if (filters.status) filter.status = filters.status;
  if (filters.routing) filter['routing.mode'] = filters.routing;
  if (filters.marketplace_review) filter['marketplace.review'] = filters.marketplace_review;
  if (filters.integration_id) filter.integration_id = filters.integration_id;
  if (filters.category) filter.category = filters.category;
  if (filters.routing_state) {
    filter['auto_routing.state'] =
      filters.routing_state === 'manual' ? { $in: ['manual', null] } : filters.routing_state;
  }
  const created: { $gt?: Date; $lt?: Date } = {};
  if (filters.created_after) created.$gt = timestamp(filters.created_after, '/created_after');
  if (filters.created_before) created.$lt = timestamp(filters.created_before, '/created_before');
  if (Object.keys(created).length > 0) filter.created_at = created;
  return filter;
}

export async function listForStaff(ctx: IntakeContext, input: InputOf<typeof routingOps.list>) {
  const { limit, starting_after, ending_before, ...filters } = input;
  const page = { limit, starting_after, ending_before };
  const result = await paginate(ctx.collections.requests, requestFilter(filters), page);
  return {
    object: 'list' as const,
    data: result.data.map(staffRequestView),
    has_more: result.has_more,
  };
}

/** How many requests of the filter are in each status and in each routing state. */
export async function countForStaff(ctx: IntakeContext, filters: Filters) {
  const { requests } = ctx.collections;
  const count = (filter: Filters) => requests.countDocuments(requestFilter(filter));
  const byStatus = await Promise.all(
    REQUEST_STATUSES.map(async (status) => [status, await count({ ...filters, status })] as const),
  );
  const byState = await Promise.all(
    AUTO_ROUTING_STATES.map(
      async (state) => [state, await count({ ...filters, routing_state: state })] as const,
    ),
  );
  return {
    object: 'request_counts' as const,
    total: await requests.countDocuments(requestFilter(filters)),
    by_status: Object.fromEntries(byStatus) as Record<(typeof byStatus)[number][0], number>,
    by_routing_state: Object.fromEntries(byState) as Record<(typeof byState)[number][0], number>,
  };
}

export async function requestForStaff(ctx: IntakeContext, id: string): Promise<RequestDoc> {
  const doc = await ctx.collections.requests.findOne({ _id: id }, { projection: { outbox: 0 } });
  if (!doc) throw new BusError('request_not_found', 'No such request.');
  return doc;
}

/** What the rules would choose now, and why; nothing is offered or held. */
export async function suggestionsFor(
  ctx: IntakeContext,
  settings: CategorySettingsStore,
  id: string,
) {
  const doc = await requestForStaff(ctx, id);
  const evaluation = await weighRequest(ctx, doc);
  const first = evaluation?.eligible[0];
  const paused = doc.category === null ? false : (await settings.of(doc.category)).paused;
  const summary = !evaluation
    ? 'The request names no category, so the rules cannot choose providers.'
    : first
      ? `The rules would offer it to ${first.provider.name}${paused ? ' once its category is resumed' : ''}.`
      : 'No provider of its category can take it now.';
  const decision = decisionOf(
    evaluation,
    first ? { id: first.provider._id, name: first.provider.name } : null,
    { by: 'rules', actor: 'system', summary },
    new Date(),
  );
  return {
    object: 'routing_suggestions' as const,
    request_id: doc._id,
    category: doc.category,
    paused,
    summary,
    candidates: decision.candidates,
    excluded: decision.excluded,
  };
}
