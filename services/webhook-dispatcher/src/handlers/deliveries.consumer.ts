import { watchConsumer, type Bus, type ConsumerWatch } from '@handoff/bus';
import type { Logger } from '@handoff/observability';
import type { Store } from '@handoff/store';
import type { ConsumerMessages, JsMsg } from '@nats-io/jetstream';
import type { SecretBox } from '../domain/secrets.ts';
import { DeliveryWorker } from '../delivery/worker.ts';
import { recorder } from '../store/deliveries.ts';
import {
  DELIVERIES_STREAM,
  DELIVERY_CONSUMER,
  DeliveryJob,
  ensureDeliveryConsumer,
  type DeliveryQueue,
} from '../store/delivery-queue.ts';
import type { EndpointDirectory } from '../store/endpoint-directory.ts';

/**
 * How much longer than one attempt's timeout a job stays with the replica that took it without
 * a sign of life: the delay before the jobs of a replica that died go to another one.
 */
const ACK_MARGIN_MS = 5_000;

export interface WorkerOptions {
  bus: Bus;
  directory: EndpointDirectory;
  queue: DeliveryQueue;
  store: Store;
  logger: Logger;
  secrets: SecretBox;
  schedule: number[];
  timeoutMs: number;
  allowPrivate: boolean;
  concurrency: number;
  /** Sending slots an endpoint starts with (`endpointSlots`). */
  endpointConcurrency: number;
  /** The most sending slots a fast, healthy endpoint grows to. */
  endpointConcurrencyMax: number;
  disableAfterSeconds: number;
  responseBodyLimit: number;
  /**
   * First attempts taken straight from the fan-out at once, at the most (`offer`): each holds
   * one of the event consumer's handlers until it is recorded, so fewer than it has.
   */
  maxOffered: number;
}

/**
 * Sends the queued deliveries. Jobs come from one durable pull consumer shared by every replica,
 * so each goes to one of them; the attempt number and due time travel in the job, so a restart
 * or a crash resumes a schedule where it was. A failed attempt records itself, queues the next
 * attempt as a new job due later (held back in the server by a delayed nak, not by polling) and
 * only then acknowledges its own job: a kill at any point repeats at most the attempts in flight.
 *
 * Per replica at most `concurrency` jobs are at work (sending, or recording what was sent), and
 * at most the endpoint's slots of them are sending to one endpoint: `endpointConcurrency` to
 * start with, more (up to `endpointConcurrencyMax`) while it answers fast, fewer while it is
 * overloaded (`endpointSlots`). A job for an endpoint that already has its share sending and
 * waiting goes back to the server for about as long as that share takes to send
 * (`handBackDelayMs`), so a slow endpoint never takes the slots of the others and a fast one is
 * not kept waiting. The parts: src/delivery/.
 */
export async function startWorker(options: WorkerOptions) {
  const { bus, logger } = options;
  const ackWaitMs = options.timeoutMs + ACK_MARGIN_MS;
  await options.queue.ensure();
  await ensureDeliveryConsumer(bus.jsm, ackWaitMs);
  const worker = new DeliveryWorker(
    {
      store: options.store,
      directory: options.directory,
      queue: options.queue,
      records: recorder(options.store),
      secrets: options.secrets,
      logger,
      send: {
        timeoutMs: options.timeoutMs,
        policy: { allowPrivate: options.allowPrivate },
        responseBodyLimit: options.responseBodyLimit,
      },
      schedule: options.schedule,
      disableAfterSeconds: options.disableAfterSeconds,
    },
    {
      concurrency: options.concurrency,
      endpointConcurrency: options.endpointConcurrency,
      endpointConcurrencyMax: options.endpointConcurrencyMax,
      maxOffered: options.maxOffered,
      ackWaitMs,
    },
  );
  const consumer = await bus.js.consumers.get(DELIVERIES_STREAM.name, DELIVERY_CONSUMER);
  // Few jobs wait client-side: their ack wait runs from the moment the server hands them over.
  const messages = await consumer.consume({ max_messages: options.concurrency });
  const watch = watchConsumer(DELIVERIES_STREAM.name, DELIVERY_CONSUMER, consumer);
  const loop = consumeJobs(messages, worker, watch, logger);
  return {
    /**
     * Takes a delivery's first attempt straight from the fan-out, without the queue, when this
     * replica has room for it (`DeliveryWorker.offer`). Resolves true once the attempt is
     * recorded and any retry queued, as a job's acknowledgement would wait for; false when it
     * was not taken (the caller queues the job); rejects when it was taken and could not be
     * recorded. The event that made it is the durable copy meanwhile: it is acknowledged only
     * after this resolves.
     */
    offer: worker.offer,
    async stop() {
      worker.stopTaking();
      watch.stop();
      await messages.close();
      await loop.catch((error: unknown) => logger.warn({ err: error }, 'delivery consumer ended'));
      await worker.drain();
    },
  };
}

/** Hands each job of the queue to the worker, waiting while it holds all it may. */
async function consumeJobs(
  messages: ConsumerMessages,
  worker: DeliveryWorker,
  watch: ConsumerWatch,
  logger: Logger,
) {
  for await (const msg of messages) {
    watch.delivered(msg);
    if (worker.stopping) {
      msg.nak();
      continue;
    }
    const parsed = DeliveryJob.safeParse(safeJson(msg));
    if (!parsed.success) {
      // Only this service publishes here; a job it cannot read would never get better.
      logger.error({ seq: msg.seq, subject: msg.subject }, 'unreadable delivery job dropped');
      msg.term('unreadable delivery job');
      continue;
    }
    worker.fromQueue(msg, parsed.data);
    while (!worker.stopping && worker.full) await worker.roomFreed();
  }
}

function safeJson(msg: JsMsg): unknown {
  try {
    return msg.json();
  } catch {
    return undefined;
  }
}
