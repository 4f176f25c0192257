import {
  SpanKind,
  traceContextOf,
  tracesRecorded,
  withSpan,
  type Logger,
} from '@handoff/observability';
import type { JetStreamClient, JsMsg } from '@nats-io/jetstream';
import type { z } from 'zod';
import { watchConsumer } from './consumer-metrics.ts';
import { BusError } from './errors.ts';

/** The server's ack wait when a consumer names none. */
const DEFAULT_ACK_WAIT_NS = 30_000_000_000;
/** Reports more often than this would only load the server. */
const MIN_PROGRESS_MS = 100;

/** The longest a message waits between two failed attempts. */
export const RETRY_CAP_MS = 30_000;
/**
 * How long a handler may run before its message is logged as still at work: it is reported in
 * progress all along, so a handler that never ends holds its message from every replica for good.
 * The soak of seed 72 saw ten events held so for 28 minutes, with nothing in the log.
 */
export const LONG_HANDLING_MS = 5 * 60_000;

/**
 * The one retry policy of the durable consumers: after its n-th delivery failed, a message is
 * handed out again in 2^n seconds, at most {@link RETRY_CAP_MS} (2 s, 4 s, 8 s, 16 s, then every
 * 30 s), until the consumer's `max_deliver` runs out.
 */
export function retryDelayMs(deliveries: number): number {
  return Math.min(RETRY_CAP_MS, 1_000 * 2 ** Math.max(0, deliveries));
}

/**
 * Whether a handler's failure is final: a refusal on the merits (a `BusError` that is not
 * retryable, such as `validation_failed` for a malformed message). `internal_error` is ours, not
 * the message's: a bug a deploy fixes, a dependency that comes back; it is tried again.
 */
export function isFinalFailure(error: unknown): error is BusError {
  return error instanceof BusError && !error.retryable && error.code !== 'internal_error';
}

/**
 * What a consumed message carries, read with `schema` (`what` names it in the refusal). One that
 * is no JSON, or not `what`, can never be handled: a final failure ({@link isFinalFailure}).
 */
export function messageBody<S extends z.ZodType>(msg: JsMsg, schema: S, what: string): z.output<S> {
  const parsed = schema.safeParse(jsonOf(msg));
  if (!parsed.success) throw new BusError('validation_failed', `not ${what}`);
  return parsed.data;
}

function jsonOf(msg: JsMsg): unknown {
  try {
    return msg.json();
  } catch {
    throw new BusError('validation_failed', 'not JSON');
  }
}

export interface ConsumeDurableOptions {
  stream: string;
  /** The durable consumer's name; it must exist ({@link ensureConsumer}). */
  consumer: string;
  /** Messages handled at once; 1 handles them one after another, in stream order. */
  concurrency: number;
  /** Messages fetched ahead of the handlers; `concurrency` when unset, never fewer. */
  buffered?: number;
  logger: Logger;
  /**
   * Handles one message; the message is acknowledged when it resolves. It must be idempotent (a
   * message comes again after a crash). A final failure ({@link isFinalFailure}) gives the
   * message up at once; any other is tried again after {@link retryDelayMs}.
   */
  handle(msg: JsMsg): Promise<void>;
  /**
   * How long a message must still wait before it is handled (a job held until its time): one not
   * due is handed back unhandled for that long. Not a failure, though the server counts the
   * delivery: for consumers without a `max_deliver`. Throwing counts as the handler's failure.
   */
  dueInMs?(msg: JsMsg): number;
  /**
   * Whether the consumer has anything to do with a message, decided from the message alone: one
   * it does not take is acknowledged without its handler and without a consumer span (a trace
   * shows the work done for it, not every consumer that looked and passed). Throwing counts as
   * the handler's failure.
   */
  takes?(msg: JsMsg): boolean;
  /**
   * Keeps a message that is given up on (a final failure, or its last delivery failed) before it
   * is terminated: the dispatcher writes it to its dead letters for staff. When this fails, the
   * message is handed back with the retry delay, to be handled (and parked) again while it has
   * deliveries left; after its last one only the error log and the server's max-deliveries
   * advisory remain of it.
   */
  park?(msg: JsMsg, reason: string): Promise<void>;
  /** After how long a handler still at work is logged, once (default {@link LONG_HANDLING_MS}). */
  longHandlingMs?: number;
}

/**
 * Runs a durable pull consumer: at most `concurrency` messages at work, each reported in progress
 * while its handler runs (so the server does not hand it to another replica meanwhile), then
 * acknowledged on success, handed back with the retry policy's delay on a failure that may pass
 * (or unhandled, for as long as it still waits, when not due yet), or parked and terminated on a
 * final failure or when the consumer's `max_deliver` is reached. Resolves, once consuming, to the
 * stop function, which waits for the handlers at work.
 */
export async function consumeDurable(
  js: JetStreamClient,
  options: ConsumeDurableOptions,
): Promise<() => Promise<void>> {
  const { stream, consumer: name, logger } = options;
  const consumer = await js.consumers.get(stream, name);
  const { config } = await consumer.info(true);
  const maxDeliver = config.max_deliver ?? -1;
  const progressMs = progressInterval(config.ack_wait, config.backoff);

  const giveUp = async (msg: JsMsg, reason: string, fields: Record<string, unknown>) => {
    logger.error({ ...fields, reason }, 'message not handled; giving up');
    if (options.park) {
      try {
        await options.park(msg, reason);
      } catch (error) {
        const delayMs = retryDelayMs(msg.info.deliveryCount);
        logger.error({ ...fields, err: error, retry_in_ms: delayMs }, 'message not parked');
        msg.nak(delayMs);
        return;
      }
    }
    msg.term(reason);
  };

  const failed = async (msg: JsMsg, error: unknown) => {
    const deliveries = msg.info.deliveryCount;
    const fields = { err: error, stream, consumer: name, subject: msg.subject, seq: msg.seq };
    if (isFinalFailure(error)) return giveUp(msg, error.message, { ...fields, deliveries });
    if (maxDeliver > 0 && deliveries >= maxDeliver) {
      const reason = `gave up after ${deliveries} deliveries: ${String(error)}`;
      return giveUp(msg, reason, { ...fields, deliveries });
    }
    const delayMs = retryDelayMs(deliveries);
    logger.warn({ ...fields, deliveries, retry_in_ms: delayMs }, 'message not handled; will retry');
    msg.nak(delayMs);
  };

  const longHandlingMs = options.longHandlingMs ?? LONG_HANDLING_MS;
  const settle = async (msg: JsMsg): Promise<void> => {
    const startedAt = Date.now();
    let told = false;
    const progress = setInterval(() => {
      try {
        msg.working();
      } catch {
        // The connection is closing: unacknowledged, the message comes round again.
      }
      const handlingMs = Date.now() - startedAt;
      if (!told && handlingMs >= longHandlingMs) {
        told = true;
        logger.warn(
          {
            stream,
            consumer: name,
            subject: msg.subject,
            seq: msg.seq,
            deliveries: msg.info.deliveryCount,
            handling_ms: handlingMs,
          },
          'message still at work; held from every other replica meanwhile',
        );
      }
    }, progressMs);
    try {
      let dueInMs = 0;
      try {
        dueInMs = options.dueInMs?.(msg) ?? 0;
        if (dueInMs <= 0 && (options.takes?.(msg) ?? true)) {
          await handleTraced(msg, options.handle);
        }
      } catch (error) {
        await failed(msg, error);
        return;
      }
      if (dueInMs > 0) msg.nak(dueInMs);
      else msg.ack();
    } catch (error) {
      // An ack, nak or term that could not be sent (the connection is closing): the message
      // comes round again after its ack wait.
      logger.warn({ err: error, stream, consumer: name, seq: msg.seq }, 'message not settled');
    } finally {
      clearInterval(progress);
    }
  };

  // Few messages waiting client-side: one that waits there long runs out its ack wait and comes
  // round again, doubling the work exactly when there is most.
  const messages = await consumer.consume({
    max_messages: Math.max(options.concurrency, options.buffered ?? options.concurrency),
  });
  const watch = watchConsumer(stream, name, consumer);
  const running = new Set<Promise<void>>();
  const loop = (async () => {
    for await (const msg of messages) {
      watch.delivered(msg);
      const task = settle(msg);
      running.add(task);
      void task.finally(() => running.delete(task));
      if (running.size >= options.concurrency) await Promise.race(running);
    }
  })();
  return async () => {
    watch.stop();
    await messages.close();
    await loop.catch((error: unknown) => {
      logger.warn({ err: error, stream, consumer: name }, 'durable consumer ended with an error');
    });
    await Promise.allSettled([...running]);
  };
}

/**
 * Handles a message in a consumer span, a child of the trace context its headers carry (the
 * publish of an outbox message), while spans are recorded; as it is otherwise.
 */
function handleTraced(msg: JsMsg, handle: (msg: JsMsg) => Promise<void>): Promise<void> {
  if (!tracesRecorded()) return handle(msg);
  return withSpan(
    `${msg.subject} process`,
    {
      kind: SpanKind.CONSUMER,
      parent: traceContextOf(
        msg.headers?.get('traceparent') || undefined,
        msg.headers?.get('tracestate') || undefined,
      ),
      attributes: {
        'messaging.system': 'nats',
        'messaging.operation.type': 'process',
        'messaging.destination.name': msg.subject,
        'messaging.consumer.group.name': msg.info.consumer,
      },
    },
    () => handle(msg),
  );
}

/**
 * How often a message at work is reported in progress: three times within the shortest time the
 * server waits for an answer (the ack wait, or with a backoff its first step), so one report lost
 * to a busy event loop never lets the message go to another replica while it is still handled.
 */
function progressInterval(
  ackWaitNs: number | undefined,
  backoffNs: readonly number[] = [],
): number {
  const shortestNs = Math.min(ackWaitNs ?? DEFAULT_ACK_WAIT_NS, ...backoffNs);
  return Math.max(MIN_PROGRESS_MS, Math.floor(shortestNs / 1_000_000 / 3));
}
