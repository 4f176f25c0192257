import { unwrap } from '@handoff/sdk';
import { useEffect, useRef, useState } from 'preact/hooks';
import {
  HandoffError,
  isSignedOut,
  type Message,
  type ProviderClient,
  type RequestEvent,
} from './api.ts';

/** The parts of a request page that an event can change, each read again when one does. */
export type Area = 'request' | 'proposals' | 'work' | 'disputes' | 'payments';
export type Ticks = Record<Area, number>;

/** Which areas an event changes (a message comes whole and needs no reading again). */
export function areasOf(type: RequestEvent['type']): Area[] {
  const [object] = type.split('.');
  switch (object) {
    case 'request':
      return ['request'];
    // An accepted proposal starts the job and moves the request.
    case 'proposal':
      return type === 'proposal.accepted' ? ['proposals', 'work', 'request'] : ['proposals'];
    case 'job':
    case 'milestone':
    case 'deliverable':
      return ['work'];
    case 'dispute':
      return ['disputes'];
    case 'payment':
      return ['payments'];
    default:
      return [];
  }
}

const WAIT_SECONDS = 25;
/**
 * A payment request's approval is announced (`payment.requested`, status `approved`) in the same
 * write as the move, and the payment it creates is written just after; no event follows that
 * write. Payments are read once more this long after such an event, so that the payment on its way
 * shows without waiting for it to complete.
 */
const APPROVED_PAYMENT_SETTLE_MS = 1_500;
const PAGE = 50;

export interface Live {
  /** False until the page knows where the feed stands; the areas load after that. */
  ready: boolean;
  /** The conversation shown, oldest first. */
  messages: Message[] | null;
  hasOlder: boolean;
  loadOlder(): Promise<void>;
  /** Adds a message this page sent, at once (the feed brings it too; it is shown once). */
  add(message: Message): void;
  ticks: Ticks;
  /** True while the long-poll is failing and being tried again. */
  interrupted: boolean;
  /**
   * True once the request is no longer the provider's to see (another provider took a
   * marketplace request, staff routed it elsewhere): the feed stops.
   */
  gone: boolean;
}

const approvesPayment = (event: RequestEvent) =>
  event.type === 'payment.requested' && event.data.object.status === 'approved';

/** Whether a failure means there is no use trying again: signed out, or the request gone. */
const final = (error: unknown) =>
  isSignedOut(error) || (error instanceof HandoffError && error.status === 404);

const merge = (shown: Message[], more: Message[]) => {
  const byId = new Map(shown.map((message) => [message.id, message]));
  for (const message of more) byId.set(message.id, message);
  return [...byId.values()].sort(
    (a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id),
  );
};

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/**
 * A request's page kept up to date without a reload: first the feed's position (every event so
 * far, answered at once), then the conversation and the other areas, then one long-poll after
 * another from that position. A message arrives whole; any other event says only what changed,
 * and the area that shows it reads it again. `onOthersWrote` is told when a message from the
 * customer's side (or staff) arrives.
 */
export function useLive(
  client: ProviderClient,
  requestId: string,
  onOthersWrote: () => void,
): Live {
  const [ready, setReady] = useState(false);
  const [messages, setMessages] = useState<Message[] | null>(null);
  const [hasOlder, setHasOlder] = useState(false);
  const [interrupted, setInterrupted] = useState(false);
  const [gone, setGone] = useState(false);
  const [ticks, setTicks] = useState<Ticks>({
    request: 0,
    proposals: 0,
    work: 0,
    disputes: 0,
    payments: 0,
  });
  const othersWrote = useRef(onOthersWrote);
  othersWrote.current = onOthersWrote;
  const oldest = useRef<string | null>(null);

  useEffect(() => {
    const stop = new AbortController();
    const { signal } = stop;
    const events = (after: number, wait: number) =>
      client.requests.events(requestId, { after, wait, limit: 100 }, { signal });

    const bump = (areas: Set<Area>) => {
      if (areas.size === 0) return;
      setTicks((old) => {
        const next = { ...old };
        for (const area of areas) next[area] += 1;
        return next;
      });
    };

    const stopFor = (error: unknown): undefined => {
      setInterrupted(false);
      if (!isSignedOut(error)) setGone(true);
      return undefined;
    };

    /** `work` until it answers: a failure is tried again, later each time, until it works. */
    const persist = async <T>(work: () => Promise<T>): Promise<T | undefined> => {
      for (let failures = 0; ; failures++) {
        try {
          const answer = await work();
          setInterrupted(false);
          return answer;
        } catch (error) {
          if (signal.aborted) return undefined;
          if (final(error)) return stopFor(error);
          setInterrupted(true);
          await sleep(Math.min(30_000, 1_000 * 2 ** failures), signal);
          if (signal.aborted) return undefined;
        }
      }
    };

    const run = async () => {
      let after = 0;
      // Where the feed stands now: everything that happened so far is in what the areas load.
      for (;;) {
        const page = await persist(() => events(after, 0));
        if (!page) return;
        for (const event of page.data) after = Math.max(after, event.data.sequence);
        if (!page.has_more) break;
      }
      const page = await persist(() =>
        unwrap(
          client.api.GET('/v1/provider/requests/{id}/messages', {
            params: { path: { id: requestId }, query: { limit: PAGE } },
            signal,
          }),
        ),
      );
      if (!page) return;
      oldest.current = page.data.at(-1)?.id ?? null;
      setHasOlder(page.has_more);
      setMessages((shown) => merge(shown ?? [], page.data));
      setReady(true);

      let failures = 0;
      while (!signal.aborted) {
        try {
          const changes = await events(after, WAIT_SECONDS);
          failures = 0;
          setInterrupted(false);
          const arrived: Message[] = [];
          const bumped = new Set<Area>();
          for (const event of changes.data) {
            after = Math.max(after, event.data.sequence);
            if (event.type === 'message.created') {
              arrived.push(event.data.object as unknown as Message);
            } else {
              for (const area of areasOf(event.type)) bumped.add(area);
            }
          }
          if (arrived.length > 0) {
            setMessages((shown) => merge(shown ?? [], arrived));
            if (arrived.some((message) => message.author_role !== 'provider')) {
              othersWrote.current();
            }
          }
          bump(bumped);
          if (changes.data.some(approvesPayment)) {
            void sleep(APPROVED_PAYMENT_SETTLE_MS, signal).then(
              () => !signal.aborted && bump(new Set(['payments'])),
            );
          }
        } catch (error) {
          if (signal.aborted) return;
          if (final(error)) return stopFor(error);
          setInterrupted(true);
          await sleep(Math.min(30_000, 1_000 * 2 ** failures++), signal);
        }
      }
    };
    void run();
    return () => stop.abort();
  }, [client, requestId]);

  return {
    ready,
    messages,
    hasOlder,
    interrupted,
    gone,
    ticks,
    add: (message) => setMessages((shown) => merge(shown ?? [], [message])),
    async loadOlder() {
      if (!oldest.current) return;
      const page = await unwrap(
        client.api.GET('/v1/provider/requests/{id}/messages', {
          params: {
            path: { id: requestId },
            query: { limit: PAGE, starting_after: oldest.current },
          },
        }),
      );
      oldest.current = page.data.at(-1)?.id ?? oldest.current;
      setHasOlder(page.has_more);
      setMessages((shown) => merge(shown ?? [], page.data));
    },
  };
}
