import { newId } from '@handoff/contracts';
import type { Logger } from '@handoff/observability';
import type { Store } from '@handoff/store';
import { randomUUID } from 'node:crypto';
import { nextAttemptDelayMs, sendWebhook, shouldDisable } from '../delivery/index.ts';
import { signingSecrets } from '../endpoints/handlers.ts';
import type { SecretBox } from '../secrets.ts';
import { collectionsOf, type DeliveryDoc, type EndpointDoc } from '../store/documents.ts';

/** The longest a slow poll makes the next one wait. */
const MAX_POLL_GAP_MS = 5_000;

export interface WorkerOptions {
  store: Store;
  logger: Logger;
  secrets: SecretBox;
  schedule: number[];
  timeoutMs: number;
  allowPrivate: boolean;
  concurrency: number;
  endpointConcurrency: number;
  disableAfterSeconds: number;
  pollMs: number;
  /** Sends nothing while true (deliveries stay due). */
  paused?: boolean;
  responseBodyLimit: number;
}

/**
 * Sends due deliveries. The schedule lives in the deliveries themselves (attempts made, next
 * attempt due), so a restart or a crash resumes it where it was. Each attempt is claimed by
 * inserting a lease whose id names the delivery and the attempt number: a unique insert, so of
 * several replicas exactly one sends it. A lease outlives its attempt's timeout; a replica that
 * died holding one only delays that delivery until the lease expires.
 *
 * A worker remembers the attempts it cannot claim (held by another replica or a dead one, or
 * already made by itself and seen again in a poll that started before it finished) until their
 * leases expire, and passes over them: else they would head every poll, being the oldest due,
 * and take all of their endpoint's slots for claims that fail, stalling it until they expire.
 */
export function startWorker(options: WorkerOptions) {
  const c = collectionsOf(options.store);
  const owner = randomUUID();
  const policy = { allowPrivate: options.allowPrivate };
  const leaseMs = options.timeoutMs * 2 + 10_000;
  const perEndpoint = new Map<string, number>();
  const running = new Set<Promise<void>>();
  const local = new Set<string>();
  /** Attempts (lease ids) not to try to claim before the time given: their leases are held. */
  const held = new Map<string, number>();
  let prunedAt = 0;
  /**
   * Due deliveries the last poll found that have not started yet (their endpoints' slots were
   * full, or all of them): slots that free up take from here, so a busy worker does not poll
   * again for each one.
   */
  let backlog: DeliveryDoc[] = [];
  let polledAt = 0;
  /** How long the last poll took. */
  let pollCostMs = 0;
  let deferred: NodeJS.Timeout | undefined;
  const backlogMs = leaseMs / 4;
  let stopped = false;
  let ticking = false;
  let again = false;

  const leaseOf = (delivery: DeliveryDoc) => `${delivery._id}#${delivery.attempts + 1}`;

  /** The expiry of the lease now this worker's, or null when another one holds it. */
  const claim = async (delivery: DeliveryDoc): Promise<Date | null> => {
    const id = leaseOf(delivery);
    const now = new Date();
    const expires = new Date(now.getTime() + leaseMs);
    try {
      await c.leases.insertOne({ _id: id, owner, expires_at: expires });
      return expires;
    } catch (error) {
      if ((error as { code?: number }).code !== 11000) throw error;
    }
    const lease = await c.leases.findOne({ _id: id });
    if (lease && lease.expires_at < now) {
      await c.leases.deleteOne({ _id: id, owner: lease.owner });
      return claim(delivery);
    }
    if (lease) held.set(id, lease.expires_at.getTime());
    return null;
  };

  const finish = async (delivery: DeliveryDoc, change: Partial<DeliveryDoc>) => {
    await c.deliveries.updateOne(
      { _id: delivery._id, attempts: delivery.attempts },
      { $set: { ...change, updated_at: new Date() } },
    );
  };

  const disable = async (endpoint: EndpointDoc, reason: 'gone' | 'failing') => {
    await c.endpoints.updateOne(
      { _id: endpoint._id },
      { $set: { enabled: false, disabled_reason: reason, updated_at: new Date() } },
    );
    await c.deliveries.updateMany(
      { endpoint_id: endpoint._id, status: 'pending' },
      { $set: { status: 'cancelled', updated_at: new Date() } },
    );
    options.logger.warn({ endpoint_id: endpoint._id, reason }, 'webhook endpoint disabled');
  };

  const attempt = async (delivery: DeliveryDoc) => {
    const endpoint = await c.endpoints.findOne({ _id: delivery.endpoint_id });
    if (!endpoint || !endpoint.enabled) return finish(delivery, { status: 'cancelled' });
    const event = await c.events.findOne({ _id: delivery.event_id });
    if (!event) return finish(delivery, { status: 'cancelled' });
    const number = delivery.attempts + 1;
    const now = new Date();
    const result = await sendWebhook(
      { url: endpoint.url, secrets: signingSecrets(endpoint, options.secrets, now) },
      { id: event._id, body: event.body },
      { timeoutMs: options.timeoutMs, policy, responseBodyLimit: options.responseBodyLimit },
    );
    const success = result.outcome === 'success';
    const delay =
      success || result.outcome === 'gone'
        ? null
        : nextAttemptDelayMs(number, options.schedule, result.retryAfterSeconds);
    const next = delay === null ? null : new Date(Date.now() + delay);
    await c.attempts.insertOne({
      _id: newId('wha'),
      endpoint_id: endpoint._id,
      event_id: event._id,
      event_type: event.type,
      attempt: number,
      attempted_at: now,
      status_code: result.statusCode,
      duration_ms: result.durationMs,
      error: result.error,
      response_body: result.responseBody,
      next_attempt_at: next,
    });
    if (success) {
      await finish(delivery, { status: 'succeeded', attempts: number });
      if (endpoint.failing_since)
        await c.endpoints.updateOne({ _id: endpoint._id }, { $set: { failing_since: null } });
      return;
    }
    if (result.outcome === 'gone') {
      await finish(delivery, { status: 'failed', attempts: number });
      return disable(endpoint, 'gone');
    }
    await finish(
      delivery,
      next ? { attempts: number, next_attempt_at: next } : { status: 'failed', attempts: number },
    );
    const failingSince = endpoint.failing_since ?? now;
    if (!endpoint.failing_since)
      await c.endpoints.updateOne(
        { _id: endpoint._id, failing_since: null },
        { $set: { failing_since: now } },
      );
    if (shouldDisable(failingSince, null, new Date(), options.disableAfterSeconds))
      await disable(endpoint, 'failing');
  };

  const run = (delivery: DeliveryDoc) => {
    local.add(delivery._id);
    perEndpoint.set(delivery.endpoint_id, (perEndpoint.get(delivery.endpoint_id) ?? 0) + 1);
    const task = (async () => {
      try {
        const lease = await claim(delivery);
        if (lease) {
          // Done or not, this attempt is not this worker's to try again while its lease lasts.
          held.set(leaseOf(delivery), lease.getTime());
          await attempt(delivery);
        }
      } catch (error) {
        options.logger.error({ err: error, delivery_id: delivery._id }, 'delivery attempt failed');
      } finally {
        local.delete(delivery._id);
        const left = (perEndpoint.get(delivery.endpoint_id) ?? 1) - 1;
        if (left > 0) perEndpoint.set(delivery.endpoint_id, left);
        else perEndpoint.delete(delivery.endpoint_id);
      }
    })();
    running.add(task);
    void task.finally(() => {
      running.delete(task);
      wake();
    });
  };

  /** Starts what it can of `due`, in order; returns the rest that may still be started later. */
  const startSome = (due: DeliveryDoc[]): DeliveryDoc[] => {
    const waiting: DeliveryDoc[] = [];
    const now = Date.now();
    for (const delivery of due) {
      if (local.has(delivery._id)) continue;
      if ((held.get(leaseOf(delivery)) ?? 0) > now) continue;
      // A slow or dead endpoint holds at most its own share of the slots.
      const full = (perEndpoint.get(delivery.endpoint_id) ?? 0) >= options.endpointConcurrency;
      if (full || running.size >= options.concurrency || stopped) waiting.push(delivery);
      else run(delivery);
    }
    return waiting;
  };

  const tick = async () => {
    if (stopped) return;
    const now = Date.now();
    // What a poll found is used until the next poll, but never once it is a fair part of a lease
    // old (the lease is what keeps an attempt from being made twice by replicas).
    if (now - polledAt >= backlogMs) backlog = [];
    backlog = startSome(backlog);
    const room = options.concurrency - running.size;
    if (room <= 0) return;
    // While some of what the last poll found waits for its endpoint's slots, poll on the timer.
    if (backlog.length > 0 && now - polledAt < options.pollMs) return;
    // Where the due query cannot use its index (FerretDB reads every delivery for it), a poll
    // costs in proportion to all deliveries ever made: polls then take at most a tenth of the
    // worker's time, however often new events and finished attempts wake it.
    const wait = polledAt + Math.min(pollCostMs * 9, MAX_POLL_GAP_MS) - now;
    if (wait > 0) {
      deferred ??= setTimeout(() => {
        deferred = undefined;
        wake();
      }, wait);
      deferred.unref();
      return;
    }
    if (now - prunedAt > 1_000) {
      prunedAt = now;
      for (const [id, until] of held) if (until <= now) held.delete(id);
    }
    polledAt = now;
    const due = await c.deliveries
      .find({ status: 'pending', next_attempt_at: { $lte: new Date() } })
      .sort({ next_attempt_at: 1 })
      .limit(room * 4)
      .toArray();
    pollCostMs = Date.now() - now;
    backlog = startSome(due);
  };

  function wake() {
    if (stopped) return;
    if (ticking) {
      again = true;
      return;
    }
    ticking = true;
    void (async () => {
      do {
        again = false;
        try {
          await tick();
        } catch (error) {
          options.logger.warn({ err: error }, 'delivery poll failed');
        }
      } while (again && !stopped);
      ticking = false;
    })();
  }

  const timer = setInterval(wake, options.pollMs);
  timer.unref();
  if (options.paused) {
    stopped = true;
    clearInterval(timer);
    options.logger.warn('webhook deliveries are paused (WEBHOOK_DELIVERIES_PAUSED)');
  }
  wake();

  return {
    wake,
    async stop() {
      stopped = true;
      clearInterval(timer);
      clearTimeout(deferred);
      await Promise.allSettled([...running]);
    },
  };
}
