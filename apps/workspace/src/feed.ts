import { UPDATES_LIMITS } from '@handoff/contracts';
import { unwrap } from '@handoff/sdk';
import {
  HandoffError,
  isSignedOut,
  type Message,
  type ProviderClient,
  type RequestEvent,
} from './api.ts';

/** The parts of a request page that an event can change, each read again when one does. */
export type Area = 'request' | 'proposals' | 'work' | 'disputes' | 'payments';

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

/**
 * A payment request's approval is announced (`payment.requested`, status `approved`) in the same
 * write as the move, and the payment it creates is written just after; no event follows that
 * write. Payments are read once more this long after such an event, so that the payment on its way
 * shows without waiting for it to complete.
 */
const APPROVED_PAYMENT_SETTLE_MS = 1_500;
export const PAGE = 50;

const approvesPayment = (event: RequestEvent) =>
  event.type === 'payment.requested' && event.data.object.status === 'approved';

/** Whether a failure means there is no use trying again: signed out, or the request gone. */
const final = (error: unknown) =>
  isSignedOut(error) || (error instanceof HandoffError && error.status === 404);

/** How long to wait before the next try, after `failures` in a row. */
const backOff = (failures: number) => Math.min(30_000, 1_000 * 2 ** failures);

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/** What following a request tells the page. */
export interface FeedListener {
  /** The conversation's newest page, once the feed's position is known: the areas may load. */
  started(page: { data: Message[]; has_more: boolean }): void;
  /** Messages that arrived, whole. */
  arrived(messages: Message[]): void;
  /** Areas whose things changed, to read again. */
  changed(areas: Set<Area>): void;
  /** True while the feed is failing and being tried again. */
  interrupted(yes: boolean): void;
  /** The feed stopped for good: the session ended (`signedOut`) or the request is gone. */
  stopped(signedOut: boolean): void;
}

/**
 * Follows a request until `signal` aborts: first the feed's position (every event so far,
 * answered at once), then the conversation's newest page, then one long-poll after another from
 * that position. A failure is tried again, later each time, unless it is final.
 */
export async function followRequest(
  client: ProviderClient,
  requestId: string,
  signal: AbortSignal,
  on: FeedListener,
): Promise<void> {
  const events = (after: number, wait: number) =>
    client.requests.events(requestId, { after, wait, limit: 100 }, { signal });

  /** `work` until it answers, or undefined once aborted or stopped for good. */
  const persist = async <T>(work: () => Promise<T>): Promise<T | undefined> => {
    for (let failures = 0; ; failures++) {
      try {
        const answer = await work();
        on.interrupted(false);
        return answer;
      } catch (error) {
        if (signal.aborted) return undefined;
        if (final(error)) {
          on.stopped(isSignedOut(error));
          return undefined;
        }
        on.interrupted(true);
        await sleep(backOff(failures), signal);
        if (signal.aborted) return undefined;
      }
    }
  };

  let after = 0;
  // Where the feed stands now: everything that happened so far is in what the areas load.
  for (;;) {
    const page = await persist(() => events(after, 0));
    if (!page) return;
    for (const event of page.data) after = Math.max(after, event.data.sequence);
    if (!page.has_more) break;
  }
  const first = await persist(() =>
    unwrap(
      client.api.GET('/v1/provider/requests/{id}/messages', {
        params: { path: { id: requestId }, query: { limit: PAGE } },
        signal,
      }),
    ),
  );
  if (!first) return;
  on.started(first);

  while (!signal.aborted) {
    const changes = await persist(() => events(after, UPDATES_LIMITS.maxWaitSeconds));
    if (!changes) return;
    const arrived: Message[] = [];
    const changed = new Set<Area>();
    for (const event of changes.data) {
      after = Math.max(after, event.data.sequence);
      if (event.type === 'message.created') {
        arrived.push(event.data.object as unknown as Message);
      } else {
        for (const area of areasOf(event.type)) changed.add(area);
      }
    }
    if (arrived.length > 0) on.arrived(arrived);
    if (changed.size > 0) on.changed(changed);
    if (changes.data.some(approvesPayment)) {
      void sleep(APPROVED_PAYMENT_SETTLE_MS, signal).then(
        () => !signal.aborted && on.changed(new Set(['payments'])),
      );
    }
  }
}
