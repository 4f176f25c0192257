import { screenHooks, type Outcome } from '@handoff/web-ui';
import { useState } from 'preact/hooks';
import { all, errorText, type ProviderClient, type RequestDetail } from './api.ts';
import { useSession } from './session.ts';

// The hooks behind every area of a screen, speaking of failures in the workspace's words.
export const { useAction, useLoad } = screenHooks(errorText);

/** A list of a request's things, newest first (read again when `deps` change). */
export const useNewestFirst = <T extends { created_at: string }>(
  list: () => AsyncIterable<T>,
  deps: unknown[],
) =>
  useLoad(
    async () => (await all(list())).sort((a, b) => b.created_at.localeCompare(a.created_at)),
    deps,
  );

/**
 * A success notice that holds while the thing it is about is in the state the action led to
 * (`expected`), and goes once it moves on (say, "Submitted" once the customer has decided).
 */
export function useNotice(state: string) {
  const [notice, setNotice] = useState<{ text: string; expected: string } | null>(null);
  return {
    outcome:
      notice && notice.expected === state ? ({ ok: true, text: notice.text } as Outcome) : null,
    show: (text: string, expected: string) => setNotice({ text, expected }),
  };
}

/**
 * What an area of the request page is given: the request, its tick (moved on by an event that
 * changes what the area shows), and the clock.
 */
export interface AreaProps {
  request: RequestDetail;
  tick: number;
  now: number;
}

/** An area's list of the request's things, newest first, read again when the area's tick moves. */
export function useRequestList<T extends { created_at: string }>(
  props: AreaProps,
  list: (client: ProviderClient, requestId: string) => AsyncIterable<T>,
) {
  const { client } = useSession();
  return useNewestFirst(() => list(client, props.request.id), [props.request.id, props.tick]);
}
