import { BusError, implement, type Endpoint } from '@handoff/bus';
import { WEBHOOK_DEFAULTS, webhookOps, type EventEnvelope } from '@handoff/contracts';
import { byIdWhere, byKeyWhere, paginate, type Store } from '@handoff/store';
import type { Filter } from 'mongodb';
import { auditStaff } from '../store/audit.ts';
import { collectionsOf } from '../store/collections.ts';
import type { EventDoc } from '../store/events.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const retentionStart = () => new Date(Date.now() - WEBHOOK_DEFAULTS.eventRetentionDays * DAY_MS);

export interface FeedDeps {
  store: Store;
  /** Makes (or remakes) deliveries of an event to the integration's subscribed endpoints. */
  redeliver(event: EventDoc): Promise<number>;
}

/** The event feed: what a receiver missed, for 30 days, and redelivery on demand. */
export function feedEndpoints(deps: FeedDeps): Record<string, Endpoint> {
  const c = collectionsOf(deps.store);
  const find = async (integrationId: string, id: string) => {
    // By `_id` alone, then checked: never every event of the integration (byIdWhere).
    const doc = await c.events.findOne(
      byIdWhere<EventDoc>(id, {
        integration_id: integrationId,
        created_at: { $gte: retentionStart() },
      }),
    );
    if (!doc) throw new BusError('event_not_found', 'No such event in the last 30 days.');
    return doc;
  };
  return {
    ...implement(webhookOps.listEvents, async ({ integration_id, query }) => {
      const filter: Filter<EventDoc> = { integration_id, created_at: { $gte: retentionStart() } };
      if (query.type) filter.type = query.type;
      // One request's events are few: found by the request, the rest checked on them, never by
      // every event of the integration (byKeyWhere).
      const where = query.request_id
        ? byKeyWhere<EventDoc>({ request_id: query.request_id }, filter)
        : filter;
      const page = await paginate(c.events, where, query);
      return {
        object: 'list' as const,
        data: page.data.map((doc) => JSON.parse(doc.body) as EventEnvelope),
        has_more: page.has_more,
      };
    }),
    ...implement(
      webhookOps.getEvent,
      async ({ integration_id, id }) =>
        JSON.parse((await find(integration_id, id)).body) as EventEnvelope,
    ),
    ...implement(webhookOps.redeliver, async ({ integration_id, id, staff }, { callId }) => {
      const event = await find(integration_id, id);
      const endpoints = await deps.redeliver(event);
      await auditStaff(deps.store, staff, callId, {
        action: 'event.redeliver',
        target_type: 'event',
        target_id: id,
        before: null,
        after: { integration_id, endpoints },
      });
      return { object: 'redelivery' as const, event_id: id, endpoints };
    }),
  };
}

/** Drops events older than the feed keeps (deliveries and attempts of them stay for the log). */
export async function pruneEvents(store: Store): Promise<number> {
  const result = await collectionsOf(store).events.deleteMany({
    created_at: { $lt: retentionStart() },
  });
  return result.deletedCount;
}
