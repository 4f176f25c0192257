import { unwrap } from '@handoff/sdk';
import { useEffect, useRef, useState } from 'preact/hooks';
import { isSignedOut, type Message, type ProviderClient, type RequestEvent } from './api.ts';

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
}

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
      unwrap(
        client.api.GET('/v1/provider/requests/{id}/events', {
          params: { path: { id: requestId }, query: { after, wait, limit: 100 } },
          signal,
        }),
      );

    /** `work` until it answers: a failure is tried again, later each time, until it works. */
    const persist = async <T>(work: () => Promise<T>): Promise<T | undefined> => {
      for (let failures = 0; ; failures++) {
        try {
          const answer = await work();
          setInterrupted(false);
          return answer;
        } catch (error) {
          if (signal.aborted || isSignedOut(error)) return undefined;
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
          if (bumped.size > 0) {
            setTicks((old) => {
              const next = { ...old };
              for (const area of bumped) next[area] += 1;
              return next;
            });
          }
        } catch (error) {
          if (signal.aborted || isSignedOut(error)) return;
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
