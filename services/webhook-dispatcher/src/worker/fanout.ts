import type { Store } from '@handoff/store';
import { collectionsOf, type DeliveryDoc, type EventDoc } from '../store/documents.ts';

/**
 * Makes one delivery per enabled endpoint of the event's integration that subscribes to its type
 * and existed when it happened. Delivery ids derive from endpoint and event, so doing this again
 * (a redelivered bus message) stores nothing twice.
 */
export function deliveryMaker(store: Store, wake: () => void) {
  const c = collectionsOf(store);
  const insert = async (delivery: DeliveryDoc) => {
    try {
      await c.deliveries.insertOne(delivery);
      return 1;
    } catch (error) {
      if ((error as { code?: number }).code === 11000) return 0;
      throw error;
    }
  };
  const endpointsFor = (event: EventDoc, since?: Date) =>
    c.endpoints
      .find({
        integration_id: event.integration_id,
        enabled: true,
        event_types: event.type,
        ...(since ? { created_at: { $lte: since } } : {}),
      })
      .project<{ _id: string }>({ _id: 1 })
      .toArray();
  const make = (endpointId: string, event: EventDoc, suffix: string): DeliveryDoc => {
    const now = new Date();
    return {
      _id: `${endpointId}.${event._id}${suffix}`,
      endpoint_id: endpointId,
      event_id: event._id,
      status: 'pending',
      attempts: 0,
      next_attempt_at: now,
      created_at: now,
      updated_at: now,
    };
  };
  return {
    async fanOut(event: EventDoc): Promise<number> {
      let made = 0;
      for (const endpoint of await endpointsFor(event, event.created_at)) {
        made += await insert(make(endpoint._id, event, ''));
      }
      if (made > 0) wake();
      return made;
    },
    async redeliver(event: EventDoc): Promise<number> {
      const endpoints = await endpointsFor(event);
      const suffix = `.r${Date.now().toString(36)}`;
      for (const endpoint of endpoints) await insert(make(endpoint._id, event, suffix));
      if (endpoints.length > 0) wake();
      return endpoints.length;
    },
  };
}
