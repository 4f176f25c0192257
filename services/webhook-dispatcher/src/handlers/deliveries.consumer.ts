import type { Bus } from '@handoff/bus';
import { newId } from '@handoff/contracts';
import type { Logger } from '@handoff/observability';
import type { Store } from '@handoff/store';
import type { JsMsg } from '@nats-io/jetstream';
import { sendWebhook } from '../adapters/sender.ts';
import { answerOf, endpointSlots } from '../domain/endpoint-slots.ts';
import { nextAttemptDelayMs, shouldDisable } from '../domain/schedule.ts';
import {
  DELIVERIES_STREAM,
  DELIVERY_CONSUMER,
  DeliveryJob,
  ensureDeliveryConsumer,
  type DeliveryQueue,
} from '../store/delivery-queue.ts';
import type { EndpointDirectory } from '../store/endpoint-directory.ts';
import { signingSecrets } from './endpoints.ts';
import type { SecretBox } from '../domain/secrets.ts';
import { collectionsOf } from '../store/collections.ts';
import { expiryBucket, recorder, type DeliveryDoc } from '../store/deliveries.ts';
import type { EndpointDoc } from '../store/endpoints.ts';

/**
 * How much longer than one attempt's timeout a job stays with the replica that took it without
 * a sign of life: the delay before the jobs of a replica that died go to another one.
 */
const ACK_MARGIN_MS = 5_000;

/**
 * A job handed back because its endpoint has its share here comes round again after about the
 * time the endpoint's queue here takes to drain: its recent answer time, times the jobs ahead per
 * slot. A fast endpoint's jobs are back within milliseconds; a slow one's wait seconds and leave
 * the slots to the others.
 */
const HAND_BACK_MIN_MS = 5;
const HAND_BACK_MAX_MS = 5_000;
/**
 * A job handed back again stays away twice as long, at most this many times over: doubling
 * without end left a fast endpoint's slots idle while its jobs, handed back four or five times
 * in a burst, waited out seconds in the server.
 */
const HAND_BACK_DOUBLINGS = 2;

/**
 * The hand-back delay for a job behind `ahead` others of an endpoint with `slots` slots, handed
 * back `times` times before: each time it comes back to a full share again it stays away twice
 * as long (up to four times the drain time), so a backlog of one busy endpoint waits in the
 * server instead of circling through the replicas (every return is a redelivery and a nak).
 */
export function handBackDelayMs(answerMs: number, ahead: number, slots: number, times = 0): number {
  const doublings = Math.min(Math.max(0, times), HAND_BACK_DOUBLINGS);
  const drain = answerMs * Math.ceil((ahead + 1) / Math.max(1, slots)) * 2 ** doublings;
  // Up to half again at random, so that handed-back jobs do not all come back at once.
  const spread = drain * (1 + Math.random() / 2);
  return Math.round(Math.min(HAND_BACK_MAX_MS, Math.max(HAND_BACK_MIN_MS, spread)));
}

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
  /** Sending slots an endpoint starts with ({@link endpointSlots}). */
  endpointConcurrency: number;
  /** The most sending slots a fast, healthy endpoint grows to. */
  endpointConcurrencyMax: number;
  disableAfterSeconds: number;
  responseBodyLimit: number;
  /**
   * First attempts taken straight from the fan-out at once, at the most ({@link offer}): each
   * holds one of the event consumer's handlers until it is recorded, so fewer than it has.
   */
  maxOffered: number;
}

/**
 * An endpoint whose recent answers take longer than this gets no first attempt straight from its
 * event: the event consumer's handlers would wait on it (see `offer`).
 */
export const OFFER_MAX_ANSWER_MS = 250;
/** How long an offered first attempt waits for room before it is queued instead. */
export const OFFER_PATIENCE_MS = 100;

/**
 * An endpoint is stalled when it has attempts under way and has not answered any (nor been given
 * a new one after none was under way) for this long, or for this many of its recent answer times
 * when that is longer: an endpoint that stopped answering.
 */
const STALL_MIN_MS = 1_000;
const STALL_ANSWERS = 8;
/** How often the jobs waiting for stalled endpoints are handed back. */
const STALL_CHECK_MS = 250;

interface Held {
  job: DeliveryJob;
  /** The queue's message carrying the job; none for a first attempt offered by the fan-out. */
  msg?: JsMsg;
  /**
   * Settles an offered attempt: true once recorded (and its retry queued), false when it is
   * given back before it started (its endpoint stalled), or with its failure.
   */
  offered?: { resolve(taken: boolean): void; reject(error: unknown): void };
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
 * overloaded ({@link endpointSlots}). A job for an endpoint that already has its share sending
 * and waiting goes back to the server for about as long as that share takes to send
 * ({@link handBackDelayMs}), so a slow endpoint never takes the slots of the others and a fast
 * one is not kept waiting.
 */
export async function startWorker(options: WorkerOptions) {
  const { bus, logger } = options;
  const c = collectionsOf(options.store);
  const policy = { allowPrivate: options.allowPrivate };
  const ackWaitMs = options.timeoutMs + ACK_MARGIN_MS;
  await options.queue.ensure();
  await ensureDeliveryConsumer(bus.jsm, ackWaitMs);
  const records = recorder(options.store);
  const slots = endpointSlots({
    initial: options.endpointConcurrency,
    max: options.endpointConcurrencyMax,
  });
  /**
   * Jobs of one endpoint held here (sending and waiting): twice its sending slots, or half of
   * what the replica holds when that is more, so that a busy endpoint keeps its slots fed
   * without taking more than half the room the other endpoints' jobs wait in; never more than
   * three quarters of that room.
   */
  const endpointShare = (endpointId: string) =>
    Math.min(
      Math.floor(options.concurrency * 1.5),
      Math.max(slots.slots(endpointId) * 2, Math.floor(options.concurrency)),
    );

  /** Jobs waiting for a slot, per endpoint, in the order their endpoints are served. */
  const waiting = new Map<string, Held[]>();
  const active = new Map<string, number>();
  /**
   * Per endpoint with attempts under way: when it last answered, or was given an attempt while
   * none was under way (see `stalled`).
   */
  const progressAt = new Map<string, number>();
  /** Every job this replica holds, running or waiting: kept alive while held. */
  const holding = new Set<JsMsg>();
  const tasks = new Set<Promise<void>>();
  let running = 0;
  let waitingCount = 0;
  /** First attempts taken from the fan-out and not yet settled. */
  let offered = 0;
  let stopping = false;
  let roomFreed: (() => void) | undefined;

  const progress = setInterval(
    () => {
      for (const msg of holding) {
        try {
          msg.working();
        } catch {
          // The connection is closing: unacknowledged, the job comes round again.
        }
      }
    },
    Math.max(100, Math.floor(ackWaitMs / 3)),
  );
  progress.unref();

  /**
   * An endpoint's writes go one at a time with the API's (enable, disable, rotate), as every
   * read-modify-write in this service does (store.serialize: FerretDB rewrites whole documents).
   */
  const endpointWrite = async (endpoint: EndpointDoc, write: () => Promise<unknown>) => {
    await options.store.serialize(c.endpoints, endpoint._id, write);
    await options.directory.changed({ id: endpoint._id, integration_id: endpoint.integration_id });
  };

  const disable = async (endpoint: EndpointDoc, reason: 'gone' | 'failing') => {
    const now = new Date();
    const change = { enabled: false, disabled_reason: reason, disabled_at: now, updated_at: now };
    await endpointWrite(endpoint, () =>
      c.endpoints.updateOne({ _id: endpoint._id }, { $set: change }),
    );
    logger.warn({ endpoint_id: endpoint._id, reason }, 'webhook endpoint disabled');
  };

  /**
   * One attempt, up to its records (and its retry queued); the caller then settles the job.
   * `sent`: called once the endpoint has answered (or not), freeing its slot.
   */
  const attempt = async ({ job, msg }: Held, sent: () => void) => {
    // Surely the delivery's first attempt: a job taken for the first time (offered by the
    // fan-out, or new from the queue) that an event handled before did not queue. Only such a one
    // that succeeds needs no delivery record: no earlier try can have left one.
    const sureFirst = job.attempt === 1 && !job.again && msg?.info.redelivered !== true;
    const record = (
      attemptDoc: Parameters<typeof records.record>[0],
      change: Omit<DeliveryDoc, '_id' | 'endpoint_id' | 'event_id' | 'created_at' | 'updated_at'>,
    ) =>
      records.record(
        attemptDoc,
        {
          _id: job.delivery_id,
          endpoint_id: job.endpoint_id,
          event_id: job.event.id,
          created_at: new Date(),
          updated_at: new Date(),
          ...change,
        },
        job.attempt > 1
          ? 'update'
          : change.status !== 'succeeded'
            ? 'insert'
            : sureFirst
              ? 'none'
              : 'finish',
      );
    // From the directory, which every write of an endpoint updates before its call answers (on
    // this replica; on the others, once the broadcast arrives): a rotated secret or a disabled
    // endpoint counts from then.
    const endpoint = await options.directory.byId(job.endpoint_id);
    // Disabling an endpoint cancels the deliveries made before, even if it is enabled again since
    // (the time it was disabled, not enabled, is the cut: a replica's clock a little behind
    // cannot cancel a delivery made after it came back).
    const cancelled =
      !endpoint?.enabled ||
      (endpoint.disabled_at !== undefined && job.made_at < endpoint.disabled_at.getTime());
    if (!endpoint || cancelled) {
      await record(null, {
        status: 'cancelled',
        attempts: job.attempt - 1,
        next_attempt_at: null,
        expires_bucket: expiryBucket(Date.now()),
      });
      return;
    }
    const number = job.attempt;
    const now = new Date();
    const result = await sendWebhook(
      { url: endpoint.url, secrets: signingSecrets(endpoint, options.secrets, now) },
      { id: job.event.id, body: job.event.body },
      { timeoutMs: options.timeoutMs, policy, responseBodyLimit: options.responseBodyLimit },
    );
    // The endpoint is done with; what follows is this service's bookkeeping, which must not
    // throttle the endpoint (its job still counts against WEBHOOK_CONCURRENCY until acked).
    const busy =
      (waiting.get(endpoint._id)?.length ?? 0) > 0 ||
      (active.get(endpoint._id) ?? 0) >= slots.slots(endpoint._id);
    slots.answered(
      endpoint._id,
      answerOf(result.statusCode, result.outcome),
      result.durationMs,
      busy,
    );
    sent();
    const success = result.outcome === 'success';
    const delay =
      success || result.outcome === 'gone'
        ? null
        : nextAttemptDelayMs(number, options.schedule, result.retryAfterSeconds);
    const next = delay === null ? null : Date.now() + delay;
    const finished = next === null;
    await record(
      {
        _id: newId('wha'),
        endpoint_id: endpoint._id,
        event_id: job.event.id,
        event_type: job.event.type,
        attempt: number,
        attempted_at: now,
        status_code: result.statusCode,
        duration_ms: result.durationMs,
        error: result.error,
        response_body: result.responseBody,
        next_attempt_at: next === null ? null : new Date(next),
      },
      {
        status: success ? 'succeeded' : finished ? 'failed' : 'pending',
        attempts: number,
        next_attempt_at: next === null ? null : new Date(next),
        expires_bucket: finished ? expiryBucket(Date.now()) : null,
      },
    );
    if (next !== null)
      await options.queue.publish({ ...job, attempt: number + 1, not_before: next });
    // The endpoint's state changes before the job is finished, so a kill cannot lose one.
    if (success) {
      if (endpoint.failing_since) {
        await endpointWrite(endpoint, () =>
          c.endpoints.updateOne({ _id: endpoint._id }, { $set: { failing_since: null } }),
        );
      }
    } else if (result.outcome === 'gone') {
      await disable(endpoint, 'gone');
    } else {
      const failingSince = endpoint.failing_since ?? now;
      if (!endpoint.failing_since) {
        await endpointWrite(endpoint, () =>
          c.endpoints.updateOne(
            { _id: endpoint._id, failing_since: null },
            { $set: { failing_since: now } },
          ),
        );
      }
      if (shouldDisable(failingSince, null, new Date(), options.disableAfterSeconds))
        await disable(endpoint, 'failing');
    }
  };

  const start = (held: Held) => {
    const endpointId = held.job.endpoint_id;
    running += 1;
    const before = active.get(endpointId) ?? 0;
    if (before === 0) progressAt.set(endpointId, Date.now());
    active.set(endpointId, before + 1);
    let sending = true;
    const sent = () => {
      if (!sending) return;
      sending = false;
      const left = (active.get(endpointId) ?? 1) - 1;
      if (left > 0) {
        active.set(endpointId, left);
        progressAt.set(endpointId, Date.now());
      } else {
        active.delete(endpointId);
        progressAt.delete(endpointId);
      }
      pump();
    };
    const task = attempt(held, sent)
      .then(
        () => {
          held.msg?.ack();
          held.offered?.resolve(true);
        },
        (error: unknown) => {
          logger.error(
            { err: error, delivery_id: held.job.delivery_id },
            'delivery attempt failed',
          );
          // An offered attempt fails its event, which comes again (and queues its jobs then).
          held.offered?.reject(error);
          // The same attempt again after a pause; the job carries its number, so the schedule
          // holds.
          held.msg?.nak(1_000);
        },
      )
      .catch(() => {
        // An ack or nak that could not be sent (the connection is closing): unacknowledged, the
        // job comes round again.
      })
      .finally(() => {
        running -= 1;
        if (held.msg) holding.delete(held.msg);
        tasks.delete(task);
        sent();
        pump();
      });
    tasks.add(task);
  };

  /** Starts waiting jobs while there are slots, one endpoint after another in turn. */
  const pump = () => {
    let started = true;
    while (started && !stopping && running < options.concurrency) {
      started = false;
      for (const [endpointId, list] of waiting) {
        if (running >= options.concurrency) break;
        if ((active.get(endpointId) ?? 0) >= slots.slots(endpointId)) continue;
        const next = list.shift();
        waiting.delete(endpointId);
        // Served: to the back of the line, behind the other endpoints.
        if (list.length > 0) waiting.set(endpointId, list);
        if (!next) continue;
        waitingCount -= 1;
        start(next);
        started = true;
      }
    }
    roomFreed?.();
    admitWaiting();
  };

  /** A job that waited here and will not be started by this replica now. */
  const giveBack = (held: Held, delayMs?: number) => {
    held.offered?.resolve(false);
    const { msg } = held;
    if (!msg) return;
    holding.delete(msg);
    try {
      msg.nak(delayMs);
    } catch {
      // Closing: the ack wait returns it.
    }
  };

  /**
   * Whether the endpoint stopped answering: attempts under way and no answer for
   * {@link STALL_MIN_MS}, or {@link STALL_ANSWERS} of its recent answer times when longer. Its
   * attempts under way keep their slots until they end (the attempt timeout at the most), but
   * nothing more waits here for it: what waits is handed back, new jobs go straight back, and
   * its first attempts are queued. So endpoints that stopped answering hold only their sending
   * slots, never the room the other endpoints' jobs wait in.
   */
  const stalled = (endpointId: string): boolean => {
    const since = progressAt.get(endpointId);
    if (since === undefined) return false;
    const patience = Math.max(STALL_MIN_MS, STALL_ANSWERS * slots.answerMs(endpointId));
    return Date.now() - since > patience;
  };

  /** Hands back what waits here for endpoints that stalled, freeing its room. */
  const handBackStalled = () => {
    let freed = false;
    for (const [endpointId, list] of waiting) {
      if (!stalled(endpointId)) continue;
      waiting.delete(endpointId);
      waitingCount -= list.length;
      freed = true;
      for (const held of list) giveBack(held, HAND_BACK_MAX_MS);
    }
    if (freed) pump();
  };
  const stallCheck = setInterval(handBackStalled, STALL_CHECK_MS);
  stallCheck.unref();

  /**
   * Room for one more offered attempt to the endpoint: fewer than `maxOffered` under way (so
   * endpoints that stop answering never hold all of the event consumer's handlers), fewer than
   * its share held here, and the replica below what it takes from the queue.
   */
  const roomFor = (endpointId: string) =>
    offered < options.maxOffered &&
    !stalled(endpointId) &&
    running + waitingCount < options.concurrency * 2 &&
    (waiting.get(endpointId)?.length ?? 0) + (active.get(endpointId) ?? 0) <
      Math.min(endpointShare(endpointId), options.maxOffered);

  const take = (job: DeliveryJob): Promise<boolean> => {
    offered += 1;
    return new Promise<boolean>((resolve, reject) => {
      const list = waiting.get(job.endpoint_id) ?? [];
      list.push({ job, offered: { resolve, reject } });
      waiting.set(job.endpoint_id, list);
      waitingCount += 1;
      pump();
    }).finally(() => {
      offered -= 1;
      admitWaiting();
    });
  };

  /** Offers waiting for room, oldest first; each gives up after {@link OFFER_PATIENCE_MS}. */
  const awaitingRoom = new Set<{ endpointId: string; admit(): void }>();
  let admitting = false;
  const admitWaiting = () => {
    if (admitting) return;
    admitting = true;
    try {
      for (const waiter of awaitingRoom) {
        if (stopping) break;
        if (!roomFor(waiter.endpointId)) continue;
        awaitingRoom.delete(waiter);
        waiter.admit();
      }
    } finally {
      admitting = false;
    }
  };

  /**
   * A first attempt from the fan-out, taken when there is room ({@link roomFor}) and the
   * endpoint answers fast (recently within {@link OFFER_MAX_ANSWER_MS}); when there is none now,
   * it waits up to {@link OFFER_PATIENCE_MS} for some (the attempts under way settle within
   * milliseconds while the endpoint keeps answering) before it is given back to be queued. An
   * endpoint that stops answering so holds at most `maxOffered` of the event consumer's
   * handlers, for one attempt's timeout, and the offers behind them for that patience; its
   * later deliveries are queued.
   */
  const offer = (job: DeliveryJob): Promise<boolean> => {
    const endpointId = job.endpoint_id;
    if (stopping || job.attempt !== 1 || slots.answerMs(endpointId) > OFFER_MAX_ANSWER_MS) {
      return Promise.resolve(false);
    }
    if (awaitingRoom.size === 0 && roomFor(endpointId)) return take(job);
    return new Promise<boolean>((resolve, reject) => {
      const waiter = {
        endpointId,
        admit() {
          clearTimeout(patience);
          take(job).then(resolve, reject);
        },
      };
      const patience = setTimeout(() => {
        awaitingRoom.delete(waiter);
        resolve(false);
      }, OFFER_PATIENCE_MS);
      awaitingRoom.add(waiter);
      // Behind others that wait for their endpoints' room, it may have room of its own.
      admitWaiting();
    });
  };

  const consumer = await bus.js.consumers.get(DELIVERIES_STREAM.name, DELIVERY_CONSUMER);
  // Few jobs wait client-side: their ack wait runs from the moment the server hands them over.
  const messages = await consumer.consume({ max_messages: options.concurrency });
  const loop = (async () => {
    for await (const msg of messages) {
      if (stopping) {
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
      const job = parsed.data;
      const wait = job.not_before - Date.now();
      if (wait > 0) {
        msg.nak(wait);
        continue;
      }
      if (stalled(job.endpoint_id)) {
        // Its endpoint stopped answering: back to the server, to come round when its attempts
        // under way have ended one way or the other.
        msg.nak(HAND_BACK_MAX_MS);
        continue;
      }
      const list = waiting.get(job.endpoint_id) ?? [];
      const ahead = list.length + (active.get(job.endpoint_id) ?? 0);
      if (ahead >= endpointShare(job.endpoint_id)) {
        // This endpoint has its share here already: back to the server until about when the
        // jobs ahead of it here will have been sent (longer each time it comes back).
        msg.nak(
          handBackDelayMs(
            slots.answerMs(job.endpoint_id),
            ahead,
            slots.slots(job.endpoint_id),
            msg.info.deliveryCount - 1,
          ),
        );
        continue;
      }
      list.push({ msg, job });
      waiting.set(job.endpoint_id, list);
      waitingCount += 1;
      holding.add(msg);
      pump();
      while (!stopping && running + waitingCount >= options.concurrency * 2) {
        await new Promise<void>((resolve) => {
          roomFreed = resolve;
        });
        roomFreed = undefined;
      }
    }
  })();

  return {
    /**
     * Takes a delivery's first attempt straight from the fan-out, without the queue, when this
     * replica has room for it ({@link offer}). Resolves true once the attempt is recorded and any
     * retry queued, as a job's acknowledgement would wait for; false when it was not taken (the
     * caller queues the job); rejects when it was taken and could not be recorded. The event
     * that made it is the durable copy meanwhile: it is acknowledged only after this resolves.
     */
    offer,
    async stop() {
      stopping = true;
      roomFreed?.();
      await messages.close();
      await loop.catch((error: unknown) => logger.warn({ err: error }, 'delivery consumer ended'));
      // Jobs not started go back at once, to whichever replica is left.
      clearInterval(stallCheck);
      // An offered one goes back to its event's handler, which queues it.
      for (const list of waiting.values()) for (const held of list) giveBack(held);
      waiting.clear();
      waitingCount = 0;
      await Promise.allSettled([...tasks]);
      clearInterval(progress);
      await records.close();
    },
  };
}

function safeJson(msg: JsMsg): unknown {
  try {
    return msg.json();
  } catch {
    return undefined;
  }
}
