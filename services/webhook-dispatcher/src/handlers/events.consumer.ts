import { BusError, call, type Bus } from '@handoff/bus';
import { EVENT_OWNER_HEADER, requestOps, type EventEnvelope } from '@handoff/contracts';
import type { Logger } from '@handoff/observability';
import { lookupCache, startEventConsumer } from '@handoff/runtime';
import { insertOnce, type Store } from '@handoff/store';
import type { JsMsg } from '@nats-io/jetstream';
import { eventLog, type EventDoc } from '../store/events.ts';

export const CONSUMER_NAME = 'webhook-dispatcher';
/**
 * Events handled at once per replica. Twice the default WEBHOOK_CONCURRENCY: up to half of the
 * handlers may be waiting for a first attempt the worker took from them.
 */
export const EVENT_CONCURRENCY = 64;
const OWNER_CACHE_LIMIT = 100_000;

export interface ConsumerDeps {
  bus: Bus;
  store: Store;
  logger: Logger;
  /**
   * Makes the deliveries of a stored event; returns how many. `again`: the event's message was
   * delivered before.
   */
  fanOut(event: EventDoc, again: boolean): Promise<number>;
}

/**
 * The durable JetStream consumer of HANDOFF_EVENTS, shared by every dispatcher replica. Each
 * event is logged for the feed and turned into one delivery per subscribed endpoint (the first
 * attempts the worker has room for made from here, the others queued), and only then
 * acknowledged. A crash at any point repeats work without doubling the records: the feed entry
 * and the jobs have ids derived from the event. Like a queued job's, a first attempt made here
 * may be sent again if the process dies before the event is acknowledged. Poison messages are
 * parked for staff and terminated.
 */
export async function startEventFanOut(deps: ConsumerDeps): Promise<() => Promise<void>> {
  const { bus, store, logger } = deps;
  const events = eventLog(store);
  const dead = store.db.collection<{
    _id: string;
    subject: string;
    data: string;
    error: string;
    at: Date;
  }>('webhook_dead_letters');
  // A request never changes owner, so an entry stays right; events of one request that arrive
  // together ask intake once.
  const owners = lookupCache<string | undefined>(OWNER_CACHE_LIMIT);
  const askOwner = async (requestId: string): Promise<string | undefined> => {
    try {
      const { integration_id } = await call(
        bus.nc,
        requestOps.owner,
        { request_id: requestId },
        { timeoutMs: 5_000 },
      );
      return integration_id;
    } catch (error) {
      if (error instanceof BusError && error.code === 'request_not_found') return undefined;
      throw error;
    }
  };
  const ownerOf = (requestId: string) => owners.get(requestId, () => askOwner(requestId));

  /** A poison event (or one that ran out of retries) is kept for staff before it is dropped. */
  const park = async (msg: JsMsg, error: string) => {
    await insertOnce(dead, {
      _id: `${msg.info.stream}:${msg.seq}`,
      subject: msg.subject,
      data: msg.string(),
      error,
      at: new Date(),
    });
  };

  /**
   * Events being handled here. A message that comes again while its first delivery is still at
   * work here (this replica's progress reports fell behind, on a stalled machine) waits for that
   * one instead of making its deliveries again: their first attempts may be under way already.
   */
  const handling = new Map<string, Promise<void>>();

  const handleOnce = async (event: EventEnvelope, msg: JsMsg) => {
    // The publishing service names the owner in a header; only events published without it
    // (older ones) are looked up.
    const named = msg.headers?.get(EVENT_OWNER_HEADER);
    if (named) owners.set(event.data.request_id, named);
    const integrationId = named || (await ownerOf(event.data.request_id));
    if (!integrationId) {
      throw new BusError('request_not_found', `request ${event.data.request_id} is unknown`);
    }
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
    await deps.fanOut(doc, msg.info.redelivered);
  };

  const handle = (event: EventEnvelope, msg: JsMsg): Promise<void> => {
    const under = handling.get(event.id);
    if (under) return under;
    const task = handleOnce(event, msg).finally(() => handling.delete(event.id));
    handling.set(event.id, task);
    return task;
  };

  // Every step is idempotent and the stream has no order to keep, so events run side by side
  // (EVENT_CONCURRENCY per replica, their feed entries written together; a handler waits for the
  // first attempts the worker took from it, at most half of them at once, see
  // WorkerOptions.maxOffered). Only a refusal on the merits is final;
  // failures (ours or a service's) are retried, first after 1 s, and an event that runs out of
  // its 10 deliveries is parked for staff, never silently dropped.
  const stop = await startEventConsumer({
    bus,
    logger,
    name: CONSUMER_NAME,
    concurrency: EVENT_CONCURRENCY,
    backoffS: [1, 5, 30, 120, 600],
    maxDeliver: 10,
    handle,
    park,
  });
  return async () => {
    await stop();
    await events.close();
  };
}
