import { BusError, call, type Bus } from '@handoff/bus';
import { EVENT_OWNER_HEADER, EVENTS_STREAM, EventEnvelope, requestOps } from '@handoff/contracts';
import type { Logger } from '@handoff/observability';
import type { Store } from '@handoff/store';
import { AckPolicy, DeliverPolicy, type JsMsg } from '@nats-io/jetstream';
import type { EventDoc } from '../store/documents.ts';
import { eventLog } from '../store/recorder.ts';

export const CONSUMER_NAME = 'webhook-dispatcher';
const MAX_DELIVER = 10;
const SECOND_NS = 1_000_000_000;
const OWNER_CACHE_LIMIT = 100_000;
/** Events handled at once by one replica; their feed entries are written together. */
const CONCURRENCY = 32;
/**
 * How often a message being handled is reported in progress. The server takes the backoff's
 * first step (1 s), not `ack_wait`, as the ack wait; a handler slower than that (a loaded
 * database) would otherwise have its message delivered again while it is still at work.
 */
const PROGRESS_MS = 400;

export interface ConsumerDeps {
  bus: Bus;
  store: Store;
  logger: Logger;
  /** Makes the deliveries of a stored event; returns how many. */
  fanOut(event: EventDoc): Promise<number>;
}

/**
 * The durable JetStream consumer of HANDOFF_EVENTS, shared by every dispatcher replica. Each
 * event is logged for the feed and turned into one delivery per subscribed endpoint, both
 * idempotently (ids are derived from the event), and only then acknowledged; so a crash at any
 * point repeats work without doubling it. Poison messages are parked for staff and terminated.
 */
export async function startEventConsumer(deps: ConsumerDeps): Promise<() => Promise<void>> {
  const { bus, store, logger } = deps;
  const events = eventLog(store);
  const dead = store.db.collection<{
    _id: string;
    subject: string;
    data: string;
    error: string;
    at: Date;
  }>('webhook_dead_letters');
  const owners = new Map<string, string>();
  await ensureConsumer(bus);

  /** Lookups under way: events of one request that arrive together ask intake once. */
  const asking = new Map<string, Promise<string | undefined>>();
  const remember = (requestId: string, integrationId: string) => {
    // A request never changes owner, so an entry stays right; the least recently used goes.
    owners.delete(requestId);
    if (owners.size >= OWNER_CACHE_LIMIT) {
      const oldest = owners.keys().next();
      if (!oldest.done) owners.delete(oldest.value);
    }
    owners.set(requestId, integrationId);
  };
  const askOwner = async (requestId: string): Promise<string | undefined> => {
    try {
      const { integration_id } = await call(
        bus.nc,
        requestOps.owner,
        { request_id: requestId },
        { timeoutMs: 5_000 },
      );
      remember(requestId, integration_id);
      return integration_id;
    } catch (error) {
      if (error instanceof BusError && error.code === 'not_found') return undefined;
      throw error;
    }
  };
  const ownerOf = (requestId: string): Promise<string | undefined> => {
    const cached = owners.get(requestId);
    if (cached) {
      owners.delete(requestId);
      owners.set(requestId, cached);
      return Promise.resolve(cached);
    }
    let pending = asking.get(requestId);
    if (!pending) {
      pending = askOwner(requestId).finally(() => asking.delete(requestId));
      asking.set(requestId, pending);
    }
    return pending;
  };

  const park = async (msg: JsMsg, error: string) => {
    logger.error({ subject: msg.subject, seq: msg.seq, error }, 'poison event parked');
    await dead
      .insertOne({
        _id: `${msg.info.stream}:${msg.seq}`,
        subject: msg.subject,
        data: msg.string(),
        error,
        at: new Date(),
      })
      .catch((insertError: unknown) => {
        if ((insertError as { code?: number }).code !== 11000) throw insertError;
      });
    msg.term(error);
  };

  const handle = async (msg: JsMsg) => {
    let raw: unknown;
    try {
      raw = msg.json();
    } catch {
      return park(msg, 'not JSON');
    }
    const parsed = EventEnvelope.safeParse(raw);
    if (!parsed.success) return park(msg, 'not an event envelope');
    const event = parsed.data;
    // The publishing service names the owner in a header; only events published without it
    // (older ones) are looked up.
    const named = msg.headers?.get(EVENT_OWNER_HEADER);
    if (named) remember(event.data.request_id, named);
    const integrationId = named || (await ownerOf(event.data.request_id));
    if (!integrationId) return park(msg, `request ${event.data.request_id} is unknown`);
    const doc: EventDoc = {
      _id: event.id,
      integration_id: integrationId,
      request_id: event.data.request_id,
      type: event.type,
      created_at: new Date(event.timestamp),
      body: msg.string(),
    };
    // In the feed first: a receiver that looks an event up on receipt finds it.
    await events.store(doc);
    await deps.fanOut(doc);
    msg.ack();
  };

  const consumer = await bus.js.consumers.get(EVENTS_STREAM.name, CONSUMER_NAME);
  // Few messages waiting client-side: one waiting there long would run out its ack wait and
  // come round again, doubling the work exactly when there is most.
  const messages = await consumer.consume({ max_messages: CONCURRENCY });
  const running = new Set<Promise<void>>();
  const loop = (async () => {
    for await (const msg of messages) {
      // Every step is idempotent and the stream has no order to keep, so events run side by side.
      const task = handle(msg).catch(async (error: unknown) => {
        // Only a refusal on the merits is final; failures (ours or a service's) are retried, and
        // an event that runs out of retries is parked for staff, never silently dropped.
        const refused =
          error instanceof BusError && !error.retryable && error.code !== 'internal_error';
        if (refused || msg.info.deliveryCount >= MAX_DELIVER) {
          await park(msg, `gave up after ${msg.info.deliveryCount} deliveries: ${String(error)}`);
          return;
        }
        logger.warn(
          { err: error, subject: msg.subject, redelivery: msg.info.deliveryCount },
          'event not handled; will retry',
        );
        msg.nak(Math.min(30_000, 1_000 * 2 ** msg.info.deliveryCount));
      });
      const progress = setInterval(() => {
        try {
          msg.working();
        } catch {
          // The connection is closing: unacknowledged, the message comes round again.
        }
      }, PROGRESS_MS);
      running.add(task);
      void task.finally(() => {
        clearInterval(progress);
        running.delete(task);
      });
      if (running.size >= CONCURRENCY) await Promise.race(running);
    }
  })();
  return async () => {
    await messages.close();
    await loop.catch(() => undefined);
    await Promise.allSettled([...running]);
    await events.close();
  };
}

async function ensureConsumer(bus: Bus): Promise<void> {
  const config = {
    durable_name: CONSUMER_NAME,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    max_deliver: MAX_DELIVER,
    backoff: [1, 5, 30, 120, 600].map((s) => s * SECOND_NS),
    max_ack_pending: 1_000,
  };
  try {
    await bus.jsm.consumers.info(EVENTS_STREAM.name, CONSUMER_NAME);
  } catch {
    try {
      await bus.jsm.consumers.add(EVENTS_STREAM.name, config);
    } catch (error) {
      // Another replica made it first.
      if (!/already|exists/i.test(String(error))) throw error;
    }
  }
}
