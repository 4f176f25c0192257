import {
  SpanKind,
  traceContextOf,
  tracesRecorded,
  withSpan,
  type Logger,
} from '@handoff/observability';
import type { Consumer, ConsumerMessages, JetStreamClient, JsMsg } from '@nats-io/jetstream';
import type { z } from 'zod';
import { watchConsumer, type ConsumerWatch } from './consumer-metrics.ts';
import { BusError } from './errors.ts';

/** The server's ack wait when a consumer names none. */
const DEFAULT_ACK_WAIT_NS = 30_000_000_000;
/** Reports more often than this would only load the server. */
const MIN_PROGRESS_MS = 100;
/** How long one fetch waits for messages (nats.js's own default); the next one follows. */
const FETCH_EXPIRES_MS = 30_000;
/** The pause before fetching again after a fetch failed (the connection is away, say). */
const FETCH_RETRY_MS = 1_000;

/** The longest a message waits between two failed attempts. */
export const RETRY_CAP_MS = 30_000;

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
  /** Messages fetched ahead of the handlers, to wait for one; `concurrency` when unset, never fewer. */
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
   * Keeps a message that is given up on (a final failure, or its last delivery failed) before it
   * is terminated: the dispatcher writes it to its dead letters for staff. When this fails, the
   * message is handed back with the retry delay, to be handled (and parked) again while it has
   * deliveries left; after its last one only the error log and the server's max-deliveries
   * advisory remain of it.
   */
  park?(msg: JsMsg, reason: string): Promise<void>;
}

/**
 * Runs a durable pull consumer: at most `concurrency` messages at work and `buffered` more
 * waiting for a handler, each reported in progress from its arrival until it is settled (so the
 * server does not hand it to another replica meanwhile), then acknowledged on success, handed
 * back with the retry policy's delay on a failure that may pass (or unhandled, for as long as it
 * still waits, when not due yet), or parked and terminated on a final failure or when the
 * consumer's `max_deliver` is reached. Resolves, once consuming, to the stop function, which hands
 * the waiting messages back and waits for the handlers at work.
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

  const settle = async (msg: JsMsg): Promise<void> => {
    try {
      let dueInMs = 0;
      try {
        dueInMs = options.dueInMs?.(msg) ?? 0;
        if (dueInMs <= 0) await handleTraced(msg, options.handle);
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
    }
  };

  return fetchInto(consumer, {
    concurrency: options.concurrency,
    buffer: Math.max(options.concurrency, options.buffered ?? options.concurrency),
    progressMs,
    settle,
    watch: watchConsumer(stream, name, consumer),
    log: (error) =>
      logger.warn(
        { err: error, stream, consumer: name, retry_in_ms: FETCH_RETRY_MS },
        'fetching from a durable consumer failed; fetching again',
      ),
  });
}

/**
 * Fetches a consumer's messages into free places and settles each: at most `concurrency` at
 * work, `buffer` more waiting for a handler, in the order they came.
 *
 * Every message taken from the server is reported in progress from the moment it arrives,
 * whether at work or waiting: one that waited unreported past its ack wait would be handed out
 * again and handled twice (the webhook dispatcher's events, whose first ack wait is 1 s, on a
 * busy process; a consumer's own client buffer is such a place). So each fetch asks for as many
 * messages as there is room for, and none waits unseen in the client. Returns the stop function.
 */
function fetchInto(
  consumer: Consumer,
  options: {
    concurrency: number;
    buffer: number;
    progressMs: number;
    settle(msg: JsMsg): Promise<void>;
    watch: ConsumerWatch;
    log(error: unknown): void;
  },
): () => Promise<void> {
  const { concurrency, buffer, progressMs, settle, watch } = options;
  const limit = concurrency + buffer;
  const running = new Set<Promise<void>>();
  const waiting: JsMsg[] = [];
  /** The progress reports of every message held, at work or waiting. */
  const reports = new Map<JsMsg, ReturnType<typeof setInterval>>();
  let stopping = false;
  let batch: ConsumerMessages | undefined;

  const release = (msg: JsMsg) => {
    clearInterval(reports.get(msg));
    reports.delete(msg);
  };
  const begin = (msg: JsMsg): void => {
    const task = settle(msg).finally(() => {
      release(msg);
      running.delete(task);
      const next = stopping ? undefined : waiting.shift();
      if (next) begin(next);
    });
    running.add(task);
  };
  const take = (msg: JsMsg): void => {
    watch.delivered(msg);
    reports.set(
      msg,
      setInterval(() => {
        try {
          msg.working();
        } catch {
          // The connection is closing: unacknowledged, the message comes round again.
        }
      }, progressMs),
    );
    if (running.size < concurrency) begin(msg);
    else waiting.push(msg);
  };

  const loop = (async () => {
    while (!stopping) {
      // While messages wait for a handler, fetch again only once half the buffer is free: many
      // one-message fetches would cost a round trip each.
      const room = limit - reports.size;
      if (room < (waiting.length === 0 ? 1 : Math.ceil(buffer / 2))) {
        await Promise.race(running);
        continue;
      }
      try {
        batch = await consumer.fetch({ max_messages: room, expires: FETCH_EXPIRES_MS });
        if (stopping) {
          // Stopped while the fetch was being made: its messages would arrive for nobody.
          await batch.close();
          break;
        }
        for await (const msg of batch) take(msg);
      } catch (error) {
        if (stopping) break;
        options.log(error);
        await new Promise((resolve) => setTimeout(resolve, FETCH_RETRY_MS));
      }
    }
  })();
  return async () => {
    stopping = true;
    watch.stop();
    await batch?.close();
    await loop;
    // The messages still waiting go back at once, for another replica (or the next start).
    for (const msg of waiting.splice(0)) {
      release(msg);
      try {
        msg.nak();
      } catch {
        // The connection is closing: unacknowledged, the message comes round again.
      }
    }
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
