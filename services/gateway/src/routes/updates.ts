import {
  EventEnvelope,
  listOf,
  messageOps,
  providerOps,
  RequestUpdatesQuery,
  subjects,
  UPDATES_LIMITS,
  webhookOps,
  type ProviderRelation,
} from '@handoff/contracts';
import type { z } from 'zod';
import { boundedCache } from '@handoff/runtime';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import { HttpError } from '../http/errors.ts';
import { countRefusal, reportLongPolls } from '../http/limit-metrics.ts';
import { defineRoute, type BaseContext, type RouteDefinition } from '../http/route.ts';
import { IdParams, RequestParams } from './ids.ts';

/** One waiting long-poll: woken when the bus announces an event of its request. */
interface Waiter {
  /** The highest sequence the bus announced for the request since the waiter was registered. */
  announced: number;
  /**
   * The events of the request the bus carried since the waiter was registered, by sequence (the
   * first {@link HEARD_MAX}): the same bytes the webhook dispatcher stores in the feed.
   */
  readonly heard: ReadonlyMap<number, EventEnvelope>;
  /**
   * The bus connection dropped while it waited: events published meanwhile were not heard (core
   * NATS keeps nothing for a subscriber away), so it looks at the feed again shortly, as after an
   * announcement the feed does not show yet, until its wait ends.
   */
  missed: boolean;
  /** Resolves at the next announcement, after `ms`, on `signal` or when the hub closes. */
  wait(ms: number, signal: AbortSignal): Promise<void>;
  release(): void;
}

export interface UpdateHub {
  /** Registers a waiter for a request on behalf of a key; 429 when a bound is reached. */
  register(requestId: string, keyId: string): Waiter;
  readonly closed: boolean;
  /** Long-polls waiting now, and the bounds they are held to. */
  readonly stats: { waiting: number; max_per_process: number; max_per_key: number };
  /** Wakes every waiter so that each answers with what it has, and stops listening. */
  close(): Promise<void>;
}

/** Requests whose last announced sequence the hub remembers. */
const RECENT_REQUESTS = 10_000;
/** Events one waiter keeps from the bus; past them, it answers from the feed. */
const HEARD_MAX = 100;

/** A waiter as the hub holds it. */
interface Entry {
  /** An event of the waiter's request, or `null` to wake it with what it has. */
  notify(event: EventEnvelope | null): void;
  /** The connection dropped (`back`: and came back, so the feed can be read again). */
  interrupted(back: boolean): void;
}

/**
 * Listens to every domain event on the bus (`handoff.events.>`, core NATS: no consumer state)
 * and wakes the long-polls of that event's request, so that waiting costs no database reads.
 */
export function createUpdateHub(
  nc: NatsConnection,
  limits: { perProcess: number; perKey: number } = {
    perProcess: UPDATES_LIMITS.maxWaitersPerProcess,
    perKey: UPDATES_LIMITS.maxWaitersPerKey,
  },
  /** Told of every event heard, in bus order (the request cache drops what it changes). */
  heard?: (event: EventEnvelope) => void,
): UpdateHub {
  const byRequest = new Map<string, Set<Entry>>();
  const perKey = new Map<string, number>();
  const everyone = new Set<Entry>();
  /**
   * The last sequence announced per request (the most recent requests only): a poll that starts
   * after the announcement but before the dispatcher stored the event still knows it is coming.
   */
  const latest = boundedCache<string, number>({ max: RECENT_REQUESTS });
  let closed = false;
  const unreport = reportLongPolls(() => everyone.size);

  const subscription: Subscription = nc.subscribe(`${subjects.event('>')}`, {
    callback: (error, msg) => {
      if (error) return;
      let announced: EventEnvelope;
      try {
        // Only services may publish here (NATS permissions); what does not parse is ignored.
        const parsed = EventEnvelope.safeParse(msg.json());
        if (!parsed.success) return;
        announced = parsed.data;
      } catch {
        return;
      }
      heard?.(announced);
      const { request_id: requestId, sequence } = announced.data;
      // Read with peek and written with set, so the least recently announced go first.
      latest.set(requestId, Math.max(sequence, latest.peek(requestId) ?? 0));
      for (const waiter of byRequest.get(requestId) ?? []) waiter.notify(announced);
    },
  });

  // Events published while the connection was away never reach the subscription: every waiter
  // then looks at the feed again once it is back, and the announcements kept are forgotten.
  onConnectionChange(nc, (back) => {
    latest.clear();
    for (const entry of everyone) entry.interrupted(back);
  });

  return {
    get closed() {
      return closed;
    },
    get stats() {
      return {
        waiting: everyone.size,
        max_per_process: limits.perProcess,
        max_per_key: limits.perKey,
      };
    },
    register(requestId, keyId) {
      const mine = perKey.get(keyId) ?? 0;
      if (everyone.size >= limits.perProcess || mine >= limits.perKey) {
        const full = everyone.size >= limits.perProcess;
        countRefusal(full ? 'long_polls_per_process' : 'long_polls_per_key');
        throw new HttpError(
          'rate_limited',
          full
            ? 'This gateway holds as many waiting long-polls as it may; try again shortly.'
            : `This key already holds ${limits.perKey} waiting long-polls; wait for one to answer.`,
          { headers: { 'Retry-After': '1' } },
        );
      }
      let wake: (() => void) | undefined;
      const heard = new Map<number, EventEnvelope>();
      const entry: Entry = {
        notify(event) {
          if (event) {
            waiter.announced = Math.max(waiter.announced, event.data.sequence);
            if (heard.size < HEARD_MAX) heard.set(event.data.sequence, event);
          }
          wake?.();
        },
        interrupted(back) {
          waiter.missed = true;
          if (back) wake?.();
        },
      };
      const waiter: Waiter = {
        announced: latest.peek(requestId) ?? 0,
        missed: false,
        heard,
        wait(ms, signal) {
          if (closed || signal.aborted) return Promise.resolve();
          return new Promise<void>((resolve) => {
            const done = () => {
              clearTimeout(timer);
              signal.removeEventListener('abort', done);
              wake = undefined;
              resolve();
            };
            const timer = setTimeout(done, ms);
            signal.addEventListener('abort', done, { once: true });
            wake = done;
          });
        },
        release() {
          if (!everyone.delete(entry)) return;
          const set = byRequest.get(requestId);
          set?.delete(entry);
          if (set?.size === 0) byRequest.delete(requestId);
          const left = (perKey.get(keyId) ?? 1) - 1;
          if (left > 0) perKey.set(keyId, left);
          else perKey.delete(keyId);
        },
      };
      everyone.add(entry);
      perKey.set(keyId, mine + 1);
      const set = byRequest.get(requestId) ?? new Set();
      set.add(entry);
      byRequest.set(requestId, set);
      return waiter;
    },
    async close() {
      if (closed) return;
      closed = true;
      unreport();
      for (const entry of everyone) entry.notify(null);
      subscription.unsubscribe();
    },
  };
}

/** Calls `changed` when the connection drops (`back` false) and when it is back (true). */
function onConnectionChange(nc: NatsConnection, changed: (back: boolean) => void): void {
  void (async () => {
    for await (const status of nc.status()) {
      if (status.type === 'disconnect' || status.type === 'reconnect') {
        changed(status.type === 'reconnect');
      }
    }
  })();
}

type EventList = { object: 'list'; data: EventEnvelope[]; has_more: boolean };

/**
 * Pages through the feed of the request's owner (newest first) back to `after` and answers in
 * sequence order.
 */
async function eventsAfter(
  ctx: Pick<BaseContext, 'call'>,
  integrationId: string,
  requestId: string,
  after: number,
  limit: number,
): Promise<EventList> {
  const found = new Map<number, EventEnvelope>();
  let startingAfter: string | undefined;
  // A bound on the pages read for one answer; a request has far fewer events than this.
  for (let pages = 0; pages < 20; pages++) {
    const page = await ctx.call(webhookOps.listEvents, {
      integration_id: integrationId,
      query: {
        request_id: requestId,
        limit: 100,
        ...(startingAfter ? { starting_after: startingAfter } : {}),
      },
    });
    for (const event of page.data) {
      if (event.data.sequence > after) found.set(event.data.sequence, event);
    }
    const last = page.data.at(-1);
    if (!page.has_more || !last || page.data.some((event) => event.data.sequence <= after)) break;
    startingAfter = last.id;
  }
  const ordered = unbroken(
    [...found.values()].sort((a, b) => a.data.sequence - b.data.sequence),
    after,
    Date.now(),
  );
  return {
    object: 'list' as const,
    data: ordered.slice(0, limit),
    has_more: ordered.length > limit,
  };
}

/**
 * How long a missing number may hold back the events after it. Every number handed out is
 * published in the end (a publish retried after a crash gets its number again), but not always
 * in order: the feed can hold #2 while #1 waits in its service's outbox (a replica killed before
 * its publish, NATS paused). Answering #2 would move the caller's `after` past #1 for good
 * (`npm run chaos` saw long-polls skip numbers so). A number held back that long is published
 * late, not lost: a killed writer's messages are adopted 15 s after its last heartbeat plus a
 * sweep (5 s), and a database or NATS away meanwhile adds its outage, up to the minute after
 * which a replica without its database starts afresh (`npm run chaos` saw holds past 30 s).
 * Five minutes is past all of that; only a number that never comes is passed over, so that a
 * request's long-polls do not stop for good.
 */
export const GAP_PATIENCE_MS = 5 * 60_000;

/**
 * The events from `after + 1` on while their numbers follow each other; a gap ends the run,
 * unless the event after it is older than {@link GAP_PATIENCE_MS}.
 */
export function unbroken(ordered: EventEnvelope[], after: number, now: number): EventEnvelope[] {
  const run: EventEnvelope[] = [];
  let expected = after + 1;
  for (const event of ordered) {
    const overdue = now - Date.parse(event.timestamp) > GAP_PATIENCE_MS;
    if (event.data.sequence !== expected && !overdue) break;
    run.push(event);
    expected = event.data.sequence + 1;
  }
  return run;
}

/**
 * The events after `after` the bus brought a waiter, when they are all of them: an unbroken run
 * from `after + 1` to the highest sequence announced. Otherwise (one came before the waiter was
 * registered, or more than it keeps) `undefined`, and the feed answers.
 */
export function heardAfter(waiter: Pick<Waiter, 'announced' | 'heard'>, after: number) {
  if (waiter.announced <= after) return undefined;
  const run: EventEnvelope[] = [];
  for (let sequence = after + 1; sequence <= waiter.announced; sequence += 1) {
    const event = waiter.heard.get(sequence);
    if (!event) return undefined;
    run.push(event);
  }
  return run;
}

/** The first look again after a wake-up that the feed does not show yet; doubled each time. */
const CATCH_UP_MS = 25;
const CATCH_UP_MAX_MS = 1_000;

/**
 * Answers a long-poll: at once with the events after `after` when there are some (`wait` 0 always
 * at once), else the first ones the bus announces within `wait` seconds, else an empty list.
 * `shown` turns each event into what this caller may see of it, or nothing: events it may not
 * see are passed over, and the wait goes on after them.
 */
async function longPoll(
  ctx: Pick<BaseContext, 'call' | 'res'>,
  hub: UpdateHub | undefined,
  poll: {
    integrationId: string;
    requestId: string;
    keyId: string;
    query: z.output<typeof RequestUpdatesQuery>;
    shown?: (event: EventEnvelope) => EventEnvelope | undefined;
  },
): Promise<EventList> {
  const { wait, limit } = poll.query;
  let after = poll.query.after;
  /** What the caller may see of `list`; `after` moves past what it may not. */
  const visible = (list: EventEnvelope[], hasMore: boolean): EventList => {
    const data = poll.shown ? list.flatMap((event) => poll.shown?.(event) ?? []) : list;
    if (data.length === 0 && list.length > 0 && !hasMore) {
      after = Math.max(after, ...list.map((event) => event.data.sequence));
    }
    return { object: 'list', data: data.slice(0, limit), has_more: hasMore || data.length > limit };
  };
  const read = async () => {
    const answer = await eventsAfter(ctx, poll.integrationId, poll.requestId, after, limit);
    return visible(answer.data, answer.has_more);
  };
  if (!hub) {
    throw new HttpError('service_unavailable', 'Updates are not available here.', {
      headers: { 'Retry-After': '1' },
    });
  }
  if (wait === 0) return read();
  // Registered before the first read, so an event stored in between still wakes it.
  const waiter = hub.register(poll.requestId, poll.keyId);
  const gone = new AbortController();
  const onClose = () => gone.abort();
  ctx.res.once('close', onClose);
  try {
    const deadline = Date.now() + wait * 1000;
    let catchUp = CATCH_UP_MS;
    for (let first = true; ; first = false) {
      // Woken by the bus with every event since `after`: those are the answer, as the
      // feed will hold them, without waiting for the dispatcher to store them.
      const heard = first ? undefined : heardAfter(waiter, after);
      const answer = heard ? visible(heard, false) : await read();
      const remaining = deadline - Date.now();
      if (answer.data.length > 0 || remaining <= 0 || hub.closed || gone.signal.aborted) {
        return answer;
      }
      // The bus announced a newer event than the feed holds (the dispatcher has not stored it
      // yet), or the connection dropped meanwhile and one may have passed unheard: look again
      // shortly rather than wait for another event.
      if (waiter.announced > after || waiter.missed) {
        await waiter.wait(Math.min(catchUp, remaining), gone.signal);
        catchUp = Math.min(catchUp * 2, CATCH_UP_MAX_MS);
      } else {
        await waiter.wait(remaining, gone.signal);
      }
    }
  } finally {
    ctx.res.off('close', onClose);
    waiter.release();
  }
}

/** The kinds of object whose events a provider hears only when the object is its own. */
const OWN_OBJECTS = new Set(['proposal', 'job', 'milestone', 'deliverable', 'dispute']);

/**
 * What a provider may see of an event of a request it may see: a message whole (the conversation
 * is shared), and of anything else only that it changed (`object`, `id`, `status`), so the
 * workspace reads it again through the provider API; its own proposals and work only, and the
 * payments only when it is engaged. Undefined for the rest.
 */
export function providerView(
  event: EventEnvelope,
  providerId: string,
  relation: z.infer<typeof ProviderRelation>,
): EventEnvelope | undefined {
  const { object } = event.data;
  const kind = typeof object.object === 'string' ? object.object : event.type.split('.')[0];
  if (event.type === 'message.created') return event;
  if (kind !== undefined && OWN_OBJECTS.has(kind) && object.provider_id !== providerId) {
    return undefined;
  }
  if (event.type.startsWith('payment.') && relation !== 'engaged') return undefined;
  const reduced: Record<string, unknown> = { object: kind, id: object.id };
  if (typeof object.status === 'string') reduced.status = object.status;
  return { ...event, data: { ...event.data, object: reduced } };
}

/**
 * The provider's answer with `mine` on each message's object: whether this provider wrote it.
 * The object is the agent's `Message`, as webhooks deliver it, and names no provider; the
 * conversation service, which keeps the author with the message, says which of the answer's
 * provider messages are this provider's (one call, none when there are none).
 */
async function withMine(
  ctx: Pick<BaseContext, 'call'>,
  requestId: string,
  providerId: string,
  list: EventList,
): Promise<EventList> {
  const isMessage = (event: EventEnvelope) => event.type === 'message.created';
  const byProviders = list.data
    .filter((event) => isMessage(event) && event.data.object.author_role === 'provider')
    .map((event) => String(event.data.object.id));
  const mine = new Set(
    byProviders.length === 0
      ? []
      : (
          await ctx.call(messageOps.writtenBy, {
            request_id: requestId,
            provider_id: providerId,
            ids: byProviders,
          })
        ).ids,
  );
  return {
    ...list,
    data: list.data.map((event) =>
      isMessage(event)
        ? {
            ...event,
            data: {
              ...event.data,
              object: { ...event.data.object, mine: mine.has(String(event.data.object.id)) },
            },
          }
        : event,
    ),
  };
}

/** What the agent's and the provider's long-polls have in common, as routes. */
const LONG_POLL = {
  method: 'get',
  params: IdParams,
  query: RequestUpdatesQuery,
  status: 200,
  response: listOf(EventEnvelope),
  notFound: ['request_not_found'],
  headers: { 'Cache-Control': 'no-store' },
} as const;

export function updateRoutes(hub: UpdateHub | undefined): RouteDefinition[] {
  return [
    defineRoute({
      path: '/v1/request/{id}/events',
      operationId: 'waitForRequestUpdates',
      summary:
        'Long-poll for the events of one request after a `sequence`, in sequence order: answers at ' +
        `once when there are some, else waits up to \`wait\` seconds (at most ${UPDATES_LIMITS.maxWaitSeconds}) ` +
        'for the next one and answers an empty list when none came. Needs `requests:read` (the ' +
        "request's own updates, like reading it) and the request token; `events:read` is for the " +
        `integration-wide feed. Each key may hold ${UPDATES_LIMITS.maxWaitersPerKey} waiting ` +
        'long-polls per gateway by default (`UPDATES_MAX_WAITERS_PER_KEY`); past that, 429 with ' +
        '`Retry-After`.',
      tags: ['requests', 'events'],
      access: { kind: 'agent', scopes: ['requests:read'] },
      requestToken: 'owner',
      ...LONG_POLL,
      params: RequestParams,
      handle: (ctx) =>
        longPoll(ctx, hub, {
          integrationId: ctx.agent.integration_id,
          requestId: ctx.request.id,
          keyId: ctx.agent.key_id,
          query: ctx.query,
        }),
    }),
    defineRoute({
      path: '/v1/provider/requests/{id}/events',
      operationId: 'waitForProviderRequestUpdates',
      summary:
        'Long-poll for what changed on a request the provider may see, after a `sequence`: the ' +
        'conversation’s messages whole, each with `mine` (true when this provider wrote it), and ' +
        'of its own proposals and work, the request and (when engaged) its payments only ' +
        '`object`, `id` and `status`, to read again. Answers at once ' +
        `when there are some, else waits up to \`wait\` seconds (at most ${UPDATES_LIMITS.maxWaitSeconds}).`,
      tags: ['provider', 'events'],
      access: { kind: 'provider' },
      ...LONG_POLL,
      handle: async (ctx) => {
        const request = await ctx.call(providerOps.request, {
          provider_id: ctx.provider.provider_id,
          request_id: ctx.params.id,
        });
        const answer = await longPoll(ctx, hub, {
          integrationId: request.integration_id,
          requestId: request.id,
          keyId: ctx.provider.key_id,
          query: ctx.query,
          shown: (event) => providerView(event, ctx.provider.provider_id, request.relation),
        });
        return withMine(ctx, request.id, ctx.provider.provider_id, answer);
      },
    }),
  ];
}
