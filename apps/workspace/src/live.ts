import { unwrap } from '@handoff/sdk';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Message, ProviderClient } from './api.ts';
import { followRequest, PAGE, type Area } from './feed.ts';

export type { Area } from './feed.ts';
export type Ticks = Record<Area, number>;

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

const merge = (shown: Message[], more: Message[]) => {
  const byId = new Map(shown.map((message) => [message.id, message]));
  for (const message of more) byId.set(message.id, message);
  return [...byId.values()].sort(
    (a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id),
  );
};

/**
 * A request's page kept up to date without a reload (`followRequest`): a message arrives whole;
 * any other event says only what changed, and the area that shows it reads it again (its tick
 * moves on). `onOthersWrote` is told when a message from the customer's side (or staff) arrives.
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
  const show = (page: { data: Message[]; has_more: boolean }) => {
    oldest.current = page.data.at(-1)?.id ?? oldest.current;
    setHasOlder(page.has_more);
    setMessages((shown) => merge(shown ?? [], page.data));
  };

  useEffect(() => {
    const stop = new AbortController();
    void followRequest(client, requestId, stop.signal, {
      started(page) {
        oldest.current = null;
        show(page);
        setReady(true);
      },
      arrived(arrived) {
        setMessages((shown) => merge(shown ?? [], arrived));
        if (arrived.some((message) => message.author_role !== 'provider')) othersWrote.current();
      },
      changed(areas) {
        setTicks((old) => {
          const next = { ...old };
          for (const area of areas) next[area] += 1;
          return next;
        });
      },
      interrupted: setInterrupted,
      stopped(signedOut) {
        setInterrupted(false);
        if (!signedOut) setGone(true);
      },
    });
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
      show(page);
    },
  };
}
