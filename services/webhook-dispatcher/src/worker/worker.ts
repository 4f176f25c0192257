import { newId } from '@handoff/contracts';
import type { Logger } from '@handoff/observability';
import type { Store } from '@handoff/store';
import { randomUUID } from 'node:crypto';
import { nextAttemptDelayMs, sendWebhook, shouldDisable } from '../delivery/index.ts';
import { signingSecrets } from '../endpoints/handlers.ts';
import type { SecretBox } from '../secrets.ts';
import { collectionsOf, type DeliveryDoc, type EndpointDoc } from '../store/documents.ts';

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
  responseBodyLimit: number;
}

/**
 * Sends due deliveries. The schedule lives in the deliveries themselves (attempts made, next
 * attempt due), so a restart or a crash resumes it where it was. Each attempt is claimed by
 * inserting a lease whose id names the delivery and the attempt number: a unique insert, so of
 * several replicas exactly one sends it. A lease outlives its attempt's timeout; a replica that
 * died holding one only delays that delivery until the lease expires.
 */
export function startWorker(options: WorkerOptions) {
  const c = collectionsOf(options.store);
  const owner = randomUUID();
  const policy = { allowPrivate: options.allowPrivate };
  const leaseMs = options.timeoutMs * 2 + 10_000;
  const perEndpoint = new Map<string, number>();
  const running = new Set<Promise<void>>();
  const local = new Set<string>();
  let stopped = false;
  let ticking = false;
  let again = false;

  const claim = async (delivery: DeliveryDoc): Promise<boolean> => {
    const id = `${delivery._id}#${delivery.attempts + 1}`;
    const now = new Date();
    try {
      await c.leases.insertOne({ _id: id, owner, expires_at: new Date(now.getTime() + leaseMs) });
      return true;
    } catch (error) {
      if ((error as { code?: number }).code !== 11000) throw error;
    }
    const held = await c.leases.findOne({ _id: id });
    if (held && held.expires_at < now) {
      await c.leases.deleteOne({ _id: id, owner: held.owner });
      return claim(delivery);
    }
    return false;
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
        if (await claim(delivery)) await attempt(delivery);
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

  const tick = async () => {
    if (stopped) return;
    const room = options.concurrency - running.size;
    if (room <= 0) return;
    const due = await c.deliveries
      .find({ status: 'pending', next_attempt_at: { $lte: new Date() } })
      .sort({ next_attempt_at: 1 })
      .limit(room * 4)
      .toArray();
    let started = 0;
    for (const delivery of due) {
      if (started >= room || stopped) break;
      if (local.has(delivery._id)) continue;
      // A slow or dead endpoint holds at most its own share of the slots.
      if ((perEndpoint.get(delivery.endpoint_id) ?? 0) >= options.endpointConcurrency) continue;
      run(delivery);
      started += 1;
    }
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
  wake();

  return {
    wake,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await Promise.allSettled([...running]);
    },
  };
}
