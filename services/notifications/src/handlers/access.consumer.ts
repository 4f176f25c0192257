// The durable consumer `notifications-access` of HANDOFF_ACCESS: staff hear of each access
// application that waits for their decision.
import { consumeDurable, ensureConsumer, type Bus } from '@handoff/bus';
import { ACCESS_STREAM, AccessEvent, accessSubjects } from '@handoff/contracts';
import type { Logger } from '@handoff/observability';
import { AckPolicy, DeliverPolicy } from '@nats-io/jetstream';
import { applicationMail } from '../domain/mails.ts';
import { isStale } from './events.consumer.ts';
import type { Postman } from './mail.ts';

export const ACCESS_CONSUMER = 'notifications-access';
const SECOND_NS = 1_000_000_000;

export async function startAccessConsumer(deps: {
  bus: Bus;
  logger: Logger;
  postman: Postman;
}): Promise<() => Promise<void>> {
  const { bus, postman } = deps;
  await ensureConsumer(bus.jsm, ACCESS_STREAM.name, {
    durable_name: ACCESS_CONSUMER,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    filter_subjects: [accessSubjects.event('access.application.submitted')],
    // As the events consumer: an SMTP outage only delays.
    max_deliver: -1,
    backoff: [10, 30, 60, 300, 600].map((s) => s * SECOND_NS),
    max_ack_pending: 1_000,
  });
  return consumeDurable(bus.js, {
    stream: ACCESS_STREAM.name,
    consumer: ACCESS_CONSUMER,
    concurrency: 4,
    buffered: 8,
    logger: deps.logger,
    async handle(msg) {
      let raw: unknown;
      try {
        raw = msg.json();
      } catch {
        return;
      }
      const parsed = AccessEvent.safeParse(raw);
      // Only intake publishes here; what does not parse is no application to tell staff of.
      if (!parsed.success || parsed.data.type !== 'access.application.submitted') return;
      const event = parsed.data;
      if (isStale(event.timestamp, msg)) return;
      const mails = await postman.sendAll(
        [
          {
            kind: 'staff_queue',
            audience: { to: 'staff' },
            about: event.id,
            content: applicationMail(event.data.object),
          },
        ],
        event.id,
      );
      deps.logger.debug({ event_id: event.id, type: event.type, mails }, 'access event handled');
    },
  });
}
