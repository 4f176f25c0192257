import { unwrap } from '@handoff/sdk';
import { LoadError } from '@handoff/web-ui';
import { useEffect, useRef, useState } from 'preact/hooks';
import { errorText, type InboxRequest } from './api.ts';
import { Ago, Deadline, useNow } from './clock.tsx';
import { useLoad } from './hooks.ts';
import { ANSWER_WITHIN } from './offer.tsx';
import { paths } from './routes.ts';
import { Link, ScreenTitle } from './screen.tsx';
import { useSession } from './session.ts';
import { budget, category, languageName, OFFER_STATUS, REQUEST_STATUS, title } from './words.ts';

const PAGE = 50;
/** How often an inbox in view reads its first page again: there is no feed of new requests. */
const REFRESH_MS = 60_000;

/** Whether Handoff offered the request to this provider and waits for its answer. */
const offered = (request: InboxRequest) => request.offer?.status === 'pending';

/**
 * The areas of the inbox, in the order a provider looks at them: the offers waiting for its answer
 * (soonest deadline first: each goes to another provider when its time runs out), then what was
 * sent to it (it waits for an answer, and other providers may propose meanwhile), then its jobs.
 * The offers' area shows only when there are some.
 */
const GROUPS: {
  id: string;
  heading: string;
  empty: string | null;
  pick: (request: InboxRequest) => boolean;
  order?: (a: InboxRequest, b: InboxRequest) => number;
}[] = [
  {
    id: 'offered',
    heading: 'Offered to you: waiting for your answer',
    empty: null,
    pick: offered,
    order: (a, b) => (a.offer?.respond_by ?? '').localeCompare(b.offer?.respond_by ?? ''),
  },
  {
    id: 'routed',
    heading: 'Sent to you',
    empty: 'Nothing has been sent to you yet. Handoff emails you when a request is.',
    pick: (request) => request.relation === 'routed' && !offered(request),
  },
  {
    id: 'engaged',
    heading: 'Your jobs',
    empty: 'No jobs yet: once a customer accepts one of your proposals, the job shows here.',
    pick: (request) => request.relation === 'engaged' && !offered(request),
  },
  {
    id: 'marketplace',
    heading: 'Open in the marketplace',
    empty: 'No marketplace requests in your categories right now.',
    pick: (request) => request.relation === 'marketplace' && !offered(request),
  },
];

/**
 * What waits for the provider: its jobs, the requests sent to it and the marketplace's, each
 * newest first, with unread messages counted. Read again whenever the tab comes back into view.
 */
export function Inbox() {
  const { client } = useSession();
  const now = useNow();
  const [older, setOlder] = useState<InboxRequest[]>([]);
  const [more, setMore] = useState<{ after: string } | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const [moreError, setMoreError] = useState<string | null>(null);
  const first = useLoad(async () => {
    const page = await unwrap(
      client.api.GET('/v1/provider/requests', { params: { query: { limit: PAGE } } }),
    );
    setOlder([]);
    const last = page.data.at(-1);
    setMore(page.has_more && last ? { after: last.id } : null);
    return page.data;
  }, []);
  const { reload } = first;
  // Reading the first page again drops the older pages shown: not while someone reads those.
  const readingOlder = useRef(false);
  readingOlder.current = older.length > 0;
  useEffect(() => {
    const again = () => document.visibilityState === 'visible' && reload();
    const timer = setInterval(() => !readingOlder.current && again(), REFRESH_MS);
    document.addEventListener('visibilitychange', again);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', again);
    };
  }, []);

  const loadMore = async (after: string) => {
    setLoadingMore(true);
    try {
      const page = await unwrap(
        client.api.GET('/v1/provider/requests', {
          params: { query: { limit: PAGE, starting_after: after } },
        }),
      );
      setOlder((shown) => [...shown, ...page.data]);
      const last = page.data.at(-1);
      setMore(page.has_more && last ? { after: last.id } : null);
      setMoreError(null);
    } catch (error) {
      setMoreError(errorText(error));
    } finally {
      setLoadingMore(false);
    }
  };

  const requests = [...(first.data ?? []), ...older];
  const unread = requests.reduce((sum, request) => sum + (request.unread_messages ?? 0), 0);
  return (
    <>
      <ScreenTitle title="Inbox" tabTitle={unread > 0 ? `(${unread}) Inbox` : 'Inbox'} />
      <LoadError error={first.error} />
      {first.data === null && !first.error && <p role="status">Loading your requests…</p>}
      {first.data !== null && (
        <p class="summary" role="status">
          {unread > 0
            ? `${unread} unread ${unread === 1 ? 'message' : 'messages'}`
            : 'No unread messages'}
        </p>
      )}
      {first.data !== null &&
        GROUPS.map((group) => {
          const items = requests.filter(group.pick);
          if (items.length === 0 && group.empty === null) return null;
          if (group.order) items.sort(group.order);
          return (
            <section
              key={group.id}
              class={`group ${group.id}`}
              aria-labelledby={`group-${group.id}`}
            >
              <h2 id={`group-${group.id}`}>
                {group.heading} <span class="count">{items.length}</span>
              </h2>
              {items.length === 0 ? (
                <p class="hint">{group.empty}</p>
              ) : (
                <ul class="requests">
                  {items.map((request) => (
                    <RequestItem key={request.id} request={request} now={now} />
                  ))}
                </ul>
              )}
            </section>
          );
        })}
      {more && (
        <button type="button" disabled={loadingMore} onClick={() => void loadMore(more.after)}>
          {loadingMore ? 'Loading…' : 'Show older requests'}
        </button>
      )}
      <LoadError error={moreError} />
    </>
  );
}

function RequestItem(props: { request: InboxRequest; now: number }) {
  const { request, now } = props;
  const unread = request.unread_messages ?? 0;
  const money = budget(request.budget_min, request.budget_max);
  const kind = category(request.category);
  const pending = offered(request);
  // Once the request is the provider's job, how the offer went no longer matters.
  const offer = pending || request.relation !== 'engaged' ? request.offer : null;
  return (
    <li class={`request${unread > 0 ? ' unread' : ''}${pending ? ' offered' : ''}`}>
      <Link href={paths.request(request.id)} class="request-link">
        <span class="request-title">{title(request)}</span>
        {unread > 0 && (
          <span class="badge">
            {unread} unread
            <span class="visually-hidden">{unread === 1 ? ' message' : ' messages'}</span>
          </span>
        )}
      </Link>
      {offer && (
        <p class={`offer-line ${offer.status}`}>
          <strong>{OFFER_STATUS[offer.status]}</strong>
          {pending && (
            <>
              {' — '}
              <Deadline at={offer.respond_by} words={ANSWER_WITHIN} now={now} />
            </>
          )}
        </p>
      )}
      <p class="meta">
        <span class="status">{REQUEST_STATUS[request.status]}</span>
        {kind && <span>{kind}</span>}
        {money && <span>Budget {money}</span>}
        {request.language && <span>In {languageName(request.language)}</span>}
        <span>
          Asked <Ago at={request.created_at} now={now} />
        </span>
      </p>
    </li>
  );
}
