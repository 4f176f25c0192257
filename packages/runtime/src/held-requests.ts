import { onBusInterrupted, type Bus } from '@handoff/bus';
import { EventEnvelope, subjects } from '@handoff/contracts';
import { createRequestCache, type RequestCache } from './request-cache.ts';

type NatsConnection = Bus['nc'];

const held = new WeakMap<NatsConnection, RequestCache>();

/**
 * The requests a replica read lately, kept between their `request.updated` events (see
 * `createRequestCache`), one cache per connection. A core subscription hears every such event,
 * whichever replica's consumer takes it, before any later event of the request is published;
 * `request.created` is not listened for, so only requests that exist may be kept. The cache
 * forgets everything when the connection drops or comes back. Intake keeps the documents a
 * provider's steps check; notifications the requests its mails are about.
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
