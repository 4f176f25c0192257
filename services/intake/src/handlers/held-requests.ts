import { onBusInterrupted, type Bus } from '@handoff/bus';
import { EventEnvelope, subjects } from '@handoff/contracts';
import { createRequestCache, type RequestCache } from '@handoff/runtime';

type NatsConnection = Bus['nc'];

const held = new WeakMap<NatsConnection, RequestCache>();

/**
 * The request documents this intake replica keeps between their `request.updated` events (see
 * `createRequestCache`), one cache per connection: a provider's every step checks its request,
 * which changes far less often than it is checked. Only requests that exist are kept, so their
 * creation (`request.created`, the bulk of request events) has nothing to drop and is not
 * listened for. The cache listens on the connection intake publishes on, so it hears this
 * replica's own events before their publish is acknowledged, and forgets everything when the
 * connection drops or comes back.
 */
export function heldRequests(nc: NatsConnection): RequestCache {
  const known = held.get(nc);
  if (known) return known;
  const created = createRequestCache();
  held.set(nc, created);
  nc.subscribe(subjects.event('request.updated'), {
    callback: (error, msg) => {
      if (error) return;
      try {
        // Only intake may publish here (NATS permissions); what does not parse is ignored.
        const parsed = EventEnvelope.safeParse(msg.json());
        if (parsed.success) created.heard(parsed.data);
      } catch {
        return;
      }
    },
  });
  onBusInterrupted(nc, () => created.clear());
  return created;
}
