import { type EventEnvelope, type Request, type RequestDetail } from '@handoff/contracts';
import type { Logger } from '@handoff/observability';
import { boundedCache, type RequestCache, type RequestOwner } from '@handoff/runtime';
import { createSerializer } from '@handoff/store';
import type { JetStreamClient } from '@nats-io/jetstream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { z } from 'zod';
import { applyEvent, detailOf, isCurrent } from './apply.ts';
import { openViewsBucket, type Entry } from './bucket.ts';
import { outgrows, overflowOf, type RequestView, type ViewOwner } from './document.ts';

/** The agent's read of a request, as `GET /v1/request/{id}` answers it. */
export type Detail = z.output<typeof RequestDetail>;

export interface RequestViews {
  /** The owner a request's view holds; undefined when it has none. */
  owner(requestId: string): Promise<RequestOwner | undefined>;
  /**
   * The agent's read: the view when it holds everything announced so far, else `load`'s (the
   * services' read), which then becomes the view.
   */
  detail(requestId: string, owner: RequestOwner, load: () => Promise<Detail>): Promise<Detail>;
  /** A live request was just created: its view starts (in the background). */
  begin(owner: RequestOwner, request: Request): void;
  /** An event: applied to its request's view, when it has one. */
  apply(event: EventEnvelope): Promise<void>;
}

/** How long after an event a request without a view counts as just created. */
const NEW_REQUEST_MS = 10_000;
/** The waits for a just-created request's view (about 0.8 s in all). */
const NEW_VIEW_WAITS_MS = [10, 20, 50, 100, 200, 400] as const;

/** Requests whose views overflowed, remembered so that their events cost no lookup. */
const OVERFLOWED_HELD = 10_000;

/** Attempts of one event's compare-and-set before it is retried by its consumer. */
const MAX_ATTEMPTS = 10;
/**
 * How long a view read for the owner check is used again by the same call's read: its owner
 * never changes, and whether it is current is checked against the sequence read after it.
 */
const REUSE_MS = 250;

export async function createRequestViews(
  js: JetStreamClient,
  options: {
    logger: Logger;
    replicas: number;
    /** Where this replica keeps the owners of the requests it creates (its request cache). */
    owners?: Pick<RequestCache, 'knowOwner'>;
  },
): Promise<RequestViews> {
  const { logger } = options;
  const bucket = await openViewsBucket(js, options.replicas);
  const { read, write } = bucket;
  const recent = boundedCache<string, { entry: Entry | undefined }>({
    max: 10_000,
    ttlMs: REUSE_MS,
  });
  const overflowed = boundedCache<string, true>({ max: OVERFLOWED_HELD });
  // One event of a request at a time in this process: no conflicts with ourselves.
  const serialize = createSerializer();

  const fetch = async (requestId: string): Promise<Entry | undefined> => {
    const held = recent.get(requestId);
    if (held) return held.entry;
    const entry = await read(requestId);
    recent.set(requestId, { entry });
    return entry;
  };
  const inBackground = (what: string, requestId: string, work: Promise<unknown>) => {
    work.catch((error: unknown) => logger.warn({ err: error, request_id: requestId }, what));
  };

  /**
   * The view of a request created moments ago, which its gateway writes once intake has answered:
   * its next events (automatic routing's, the first message) may well come before that.
   */
  const awaitNew = async (event: EventEnvelope): Promise<Entry | undefined> => {
    if (event.livemode === false || Date.now() - Date.parse(event.timestamp) > NEW_REQUEST_MS) {
      return undefined;
    }
    for (const delayMs of NEW_VIEW_WAITS_MS) {
      await sleep(delayMs);
      const entry = await read(event.data.request_id);
      if (entry) return entry;
    }
    return undefined;
  };

  return {
    async owner(requestId) {
      const entry = await fetch(requestId);
      return entry?.view.owner;
    },

    async detail(requestId, owner, load) {
      const [entry, last] = await Promise.all([fetch(requestId), bucket.lastSequence(requestId)]);
      if (entry && isCurrent(entry.view, last)) return detailOf(entry.view);
      const detail = await load();
      // Test requests go without a view: staff may delete an integration's test data. A view
      // that overflowed stays so: its request would outgrow a new one again.
      if (detail.livemode !== false && !entry?.view.overflow) {
        inBackground(
          'a view could not be kept',
          requestId,
          write(requestId, viewOf(owner, detail, last), entry?.revision),
        );
      }
      return detail;
    },

    begin(owner, request) {
      options.owners?.knowOwner(request.id, owner);
      if (!request.livemode) return;
      const view: RequestView = {
        owner: ownerOf(owner),
        request,
        request_sequence: 1,
        conversation: [],
        conversation_has_more: false,
        payments: [],
        // The create answer is the request as `request.created` (always number 1) announces it.
        upto: 1,
        ahead: [],
      };
      inBackground(
        "a new request's view could not be written",
        request.id,
        write(request.id, view),
      );
    },

    apply(event) {
      const requestId = event.data.request_id;
      // A view that overflowed stays so (a conversation only grows): its events need no read.
      if (overflowed.has(requestId)) return Promise.resolve();
      return serialize(requestId, async () => {
        for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
          const entry =
            (await read(requestId, { leader: attempt > 0 })) ??
            (attempt === 0 ? await awaitNew(event) : undefined);
          // A request without a view gets one from its next read.
          if (!entry) return;
          if (entry.view.overflow) {
            overflowed.set(requestId, true);
            return;
          }
          const applied = applyEvent(entry.view, event);
          if (applied.kind === 'unchanged') return;
          if (applied.kind === 'unusable') {
            logger.warn({ event_id: event.id, request_id: requestId }, applied.reason);
            await bucket.remove(requestId, entry.revision).catch(() => undefined);
            return;
          }
          if (await write(requestId, applied.view, entry.revision)) return;
        }
        throw new Error(`the view of ${requestId} changed under every attempt`);
      });
    },
  };
}

const ownerOf = ({ integration_id, token_hash }: RequestOwner): ViewOwner => ({
  integration_id,
  token_hash,
});

/** A view of what the services answered, which holds every event numbered up to `last`. */
function viewOf(owner: RequestOwner, detail: Detail, last: number): RequestView {
  const { conversation, conversation_has_more, payments, ...request } = detail;
  const view: RequestView = {
    owner: ownerOf(owner),
    request,
    request_sequence: last,
    conversation,
    conversation_has_more,
    payments,
    upto: last,
    ahead: [],
  };
  // A conversation the read cut short outgrows a view too.
  return conversation_has_more || outgrows(view) ? overflowOf(view) : view;
}
