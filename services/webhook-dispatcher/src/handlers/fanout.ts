import type { DeliveryQueue } from '../store/delivery-queue.ts';
import type { EndpointDirectory } from '../store/endpoint-directory.ts';
import type { EventDoc } from '../store/events.ts';

/**
 * Queues one delivery per enabled endpoint of the event's integration that subscribes to its type
 * and existed when it happened. Delivery ids derive from endpoint and event and the queue drops a
 * job published again inside its duplicate window, so doing this again (a redelivered bus
 * message) queues nothing twice. All of an event's jobs are published at once; it resolves when
 * the stream has stored every one of them.
 */
export function deliveryMaker(directory: EndpointDirectory, queue: DeliveryQueue) {
  const endpointsFor = (event: EventDoc, since?: Date) =>
    directory.subscribed(event.integration_id, event.type, since);
  const publish = async (endpoints: { _id: string }[], event: EventDoc, suffix: string) => {
    const madeAt = Date.now();
    await Promise.all(
      endpoints.map((endpoint) =>
        queue.publish({
          delivery_id: `${endpoint._id}.${event._id}${suffix}`,
          endpoint_id: endpoint._id,
          event: { id: event._id, type: event.type, body: event.body },
          attempt: 1,
          not_before: 0,
          made_at: madeAt,
        }),
      ),
    );
    return endpoints.length;
  };
  return {
    async fanOut(event: EventDoc): Promise<number> {
      return publish(await endpointsFor(event, event.created_at), event, '');
    },
    async redeliver(event: EventDoc): Promise<number> {
      return publish(await endpointsFor(event), event, `.r${Date.now().toString(36)}`);
    },
  };
}
