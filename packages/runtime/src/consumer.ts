import { BusError, consumeDurable, ensureConsumer, type Bus } from '@handoff/bus';
import { EVENTS_STREAM, EventEnvelope } from '@handoff/contracts';
import type { Logger } from '@handoff/observability';
import { AckPolicy, DeliverPolicy, type JsMsg } from '@nats-io/jetstream';

const SECOND_NS = 1_000_000_000;
/** Redelivery of an unanswered delivery; the server takes the first step as the ack wait. */
const BACKOFF_S = [10, 30, 60, 300, 600];
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
 * delivered from the stream's start (events kept while the service was away still count), one at
 * a time in stream order, at most `MAX_DELIVER` deliveries with the bus's retry policy, a
 * malformed message terminated and logged. Returns the stop function for `runService`'s
 * background.
 */
export async function startEventConsumer(
  def: EventConsumerDefinition,
): Promise<() => Promise<void>> {
  const { bus, name } = def;
  await ensureConsumer(bus.jsm, EVENTS_STREAM.name, {
    durable_name: name,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    filter_subjects: def.subjects,
    max_deliver: MAX_DELIVER,
    backoff: BACKOFF_S.map((s) => s * SECOND_NS),
    max_ack_pending: 100,
  });
  return consumeDurable(bus.js, {
    stream: EVENTS_STREAM.name,
    consumer: name,
    concurrency: 1,
    buffered: BUFFERED,
    logger: def.logger,
    handle: (msg) => def.handle(eventOf(msg)),
  });
}

/** The event envelope a message carries; a message that carries none can never be handled. */
export function eventOf(msg: JsMsg): EventEnvelope {
  let raw: unknown;
  try {
    raw = msg.json();
  } catch {
    throw new BusError('validation_failed', 'not JSON');
  }
  const parsed = EventEnvelope.safeParse(raw);
  if (!parsed.success) throw new BusError('validation_failed', 'not an event envelope');
  return parsed.data;
}
