import { consumeDurable, ensureConsumer, messageBody, type Bus } from '@handoff/bus';
import { EVENTS_STREAM, EventEnvelope } from '@handoff/contracts';
import type { Logger } from '@handoff/observability';
import { AckPolicy, DeliverPolicy, type JsMsg } from '@nats-io/jetstream';

const SECOND_NS = 1_000_000_000;

export interface EventConsumerDefinition {
  bus: Bus;
  logger: Logger;
  /** The durable consumer's name on HANDOFF_EVENTS. */
  name: string;
  /** The event subjects it takes; every event when unset. */
  subjects?: string[];
  /**
   * Handles one event (and the message that carried it, for its headers and exact body). It must
   * be idempotent by state (a redelivery changes nothing); a `BusError` that is not retryable is
   * final, anything else is tried again with backoff.
   */
  handle: (event: EventEnvelope, msg: JsMsg) => Promise<void>;
  /**
   * Whether the consumer has anything to do with an event, decided from the event alone (test
   * mode's simulated provider takes no live event): one it does not take is acknowledged at
   * once, with no handler and no span in the event's trace. Every event when unset.
   */
  takes?: (event: EventEnvelope) => boolean;
  /**
   * Events handled at once (default 1: one after another, in stream order). Above 1, the order
   * is lost: only for handlers that need none.
   */
  concurrency?: number;
  /**
   * The redelivery steps of an unanswered delivery, in seconds (the server takes the first step
   * as the ack wait; `consumeDurable` reports a message in progress well within it). Default
   * 10, 30, 60, 300, 600.
   */
  backoffS?: readonly number[];
  /** Deliveries of one event at the most (default 8). */
  maxDeliver?: number;
  /** Where an event that can never be handled is kept before it is terminated (else: logged). */
  park?: (msg: JsMsg, reason: string) => Promise<void>;
}

/**
 * A durable JetStream consumer of domain events, as intake's `intake-engagement` or the webhook
 * dispatcher's: explicit ack, delivered from the stream's start (events kept while the service
 * was away still count), one at a time in stream order unless it asks for more at once, a bounded
 * number of deliveries with the bus's retry policy, a malformed message parked (when it says
 * where) and terminated. Returns the stop function for `runService`'s background.
 */
export async function startEventConsumer(
  def: EventConsumerDefinition,
): Promise<() => Promise<void>> {
  const { bus, name } = def;
  const concurrency = def.concurrency ?? 1;
  const { takes } = def;
  // With `takes`, a message's event is read once though both it and the handler need it.
  const read = takes ? readOnce() : eventOf;
  await ensureConsumer(bus.jsm, EVENTS_STREAM.name, {
    durable_name: name,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    ...(def.subjects ? { filter_subjects: def.subjects } : {}),
    max_deliver: def.maxDeliver ?? 8,
    backoff: (def.backoffS ?? [10, 30, 60, 300, 600]).map((s) => s * SECOND_NS),
    // Room for what is fetched ahead and at work, and for events waiting out a retry.
    max_ack_pending: Math.max(100, concurrency * 32),
  });
  return consumeDurable(bus.js, {
    stream: EVENTS_STREAM.name,
    consumer: name,
    concurrency,
    // Fetched ahead of the handlers: a few when they take one at a time.
    buffered: Math.max(8, concurrency),
    logger: def.logger,
    ...(takes ? { takes: (msg: JsMsg) => passedOverUnless(takes, read(msg), def.logger) } : {}),
    handle: (msg) => def.handle(read(msg), msg),
    ...(def.park ? { park: def.park } : {}),
  });
}

/** {@link eventOf}, kept per message so that a second read of the same one parses nothing. */
function readOnce(): (msg: JsMsg) => EventEnvelope {
  const events = new WeakMap<JsMsg, EventEnvelope>();
  return (msg) => {
    let event = events.get(msg);
    if (!event) {
      event = eventOf(msg);
      events.set(msg, event);
    }
    return event;
  };
}

/** Whether `takes` takes `event`; one it does not is logged (debug) as passed over. */
function passedOverUnless(
  takes: (event: EventEnvelope) => boolean,
  event: EventEnvelope,
  logger: Logger,
): boolean {
  if (takes(event)) return true;
  logger.debug({ event_id: event.id, type: event.type }, 'event passed over');
  return false;
}

/** The event envelope a message carries; a message that carries none can never be handled. */
export function eventOf(msg: JsMsg): EventEnvelope {
  return messageBody(msg, EventEnvelope, 'an event envelope');
}
