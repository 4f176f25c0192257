import { BusError, type Bus } from '@handoff/bus';
import { EVENTS_STREAM, EventEnvelope } from '@handoff/contracts';
import type { Logger } from '@handoff/observability';
import { AckPolicy, DeliverPolicy, type JsMsg } from '@nats-io/jetstream';

const SECOND_NS = 1_000_000_000;
/** Redelivery of an unanswered delivery; the server takes the first step as the ack wait. */
const BACKOFF_S = [10, 30, 60, 300, 600];
/** How often a message being handled is reported in progress, well inside that ack wait. */
const PROGRESS_MS = 3_000;
const MAX_DELIVER = 8;
/** Messages fetched ahead; they are handled one at a time, in stream order. */
const BUFFERED = 8;

export interface EventConsumerDefinition {
  bus: Bus;
  logger: Logger;
  /** The durable consumer's name on HANDOFF_EVENTS. */
  name: string;
  subjects: string[];
  /**
   * Handles one event. It must be idempotent by state (a redelivery changes nothing); a
   * `BusError` that is not retryable is final, anything else is tried again with backoff.
   */
  handle: (event: EventEnvelope) => Promise<void>;
}

/**
 * A durable JetStream consumer of domain events, as intake's `intake-engagement`: explicit ack,
 * delivered from the stream's start (events kept while the service was away still count), at most
 * `MAX_DELIVER` deliveries with backoff, a malformed message terminated and logged. Returns the
 * stop function for `runService`'s background.
 */
export async function startEventConsumer(
  def: EventConsumerDefinition,
): Promise<() => Promise<void>> {
  const { bus, logger, name } = def;
  await ensureConsumer(bus, name, def.subjects);

  const handle = async (msg: JsMsg) => {
    let raw: unknown;
    try {
      raw = msg.json();
    } catch {
      logger.error({ consumer: name, seq: msg.seq }, 'event dropped: not JSON');
      return msg.term('not JSON');
    }
    const parsed = EventEnvelope.safeParse(raw);
    if (!parsed.success) {
      logger.error({ consumer: name, seq: msg.seq }, 'event dropped: not an event envelope');
      return msg.term('not an event envelope');
    }
    await def.handle(parsed.data);
    msg.ack();
  };

  const consumer = await bus.js.consumers.get(EVENTS_STREAM.name, name);
  const messages = await consumer.consume({ max_messages: BUFFERED });
  const loop = (async () => {
    for await (const msg of messages) {
      const progress = setInterval(() => {
        try {
          msg.working();
        } catch {
          // The connection is closing: unacknowledged, the message comes round again.
        }
      }, PROGRESS_MS);
      try {
        await handle(msg);
      } catch (error) {
        // A refusal on the merits is final; anything else is tried again.
        const final =
          error instanceof BusError && !error.retryable && error.code !== 'internal_error';
        const deliveries = msg.info.deliveryCount;
        if (final || deliveries >= MAX_DELIVER) {
          logger.error(
            { err: error, consumer: name, subject: msg.subject, seq: msg.seq, deliveries },
            'event not applied; giving up',
          );
          msg.term(`gave up after ${deliveries} deliveries`);
        } else {
          logger.warn(
            { err: error, consumer: name, subject: msg.subject, seq: msg.seq, deliveries },
            'event not applied; will retry',
          );
          msg.nak(Math.min(60_000, 1_000 * 2 ** deliveries));
        }
      } finally {
        clearInterval(progress);
      }
    }
  })();
  return async () => {
    await messages.close();
    await loop.catch((error: unknown) => {
      logger.warn({ err: error, consumer: name }, 'event consumer ended with an error');
    });
  };
}

async function ensureConsumer(bus: Bus, name: string, subjects: string[]): Promise<void> {
  const settings = {
    filter_subjects: subjects,
    max_deliver: MAX_DELIVER,
    backoff: BACKOFF_S.map((s) => s * SECOND_NS),
    max_ack_pending: 100,
  };
  try {
    await bus.jsm.consumers.info(EVENTS_STREAM.name, name);
  } catch {
    try {
      await bus.jsm.consumers.add(EVENTS_STREAM.name, {
        durable_name: name,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
        ...settings,
      });
      return;
    } catch (error) {
      // Another replica made it first.
      if (!/already|exists/i.test(String(error))) throw error;
    }
  }
  // An existing consumer takes this version's settings (a no-op when they already match).
  await bus.jsm.consumers.update(EVENTS_STREAM.name, name, settings);
}
