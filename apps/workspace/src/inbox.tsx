import { unwrap } from '@handoff/sdk';
import { LoadError } from '@handoff/web-ui';
import { useEffect, useRef, useState } from 'preact/hooks';
import { errorText, type InboxRequest } from './api.ts';
import { Ago, useNow } from './clock.tsx';
import { useLoad } from './hooks.ts';
import { paths } from './routes.ts';
import { Link, ScreenTitle } from './screen.tsx';
import { useSession } from './session.ts';
import { budget, category, REQUEST_STATUS, title } from './words.ts';

const PAGE = 50;
/** How often an inbox in view reads its first page again: there is no feed of new requests. */
const REFRESH_MS = 60_000;

/**
 * The areas of the inbox, in the order a provider looks at them: what was sent to it first (it
 * waits for an answer, and other providers may propose meanwhile), then its jobs.
 */
const GROUPS: { relation: InboxRequest['relation']; heading: string; empty: string }[] = [
  {
    relation: 'routed',
    heading: 'Sent to you',
    empty: 'Nothing has been sent to you yet. Handoff emails you when a request is.',
  },
  {
    relation: 'engaged',
    heading: 'Your jobs',
    empty: 'No jobs yet: once a customer accepts one of your proposals, the job shows here.',
  },
  {
    relation: 'marketplace',
    heading: 'Open in the marketplace',
    empty: 'No marketplace requests in your categories right now.',
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
          const items = requests.filter((request) => request.relation === group.relation);
          return (
            <section key={group.relation} aria-labelledby={`group-${group.relation}`}>
              <h2 id={`group-${group.relation}`}>
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
  return (
    <li class={`request${unread > 0 ? ' unread' : ''}`}>
      <Link href={paths.request(request.id)} class="request-link">
        <span class="request-title">{title(request)}</span>
        {unread > 0 && (
          <span class="badge">
            {unread} unread
            <span class="visually-hidden">{unread === 1 ? ' message' : ' messages'}</span>
          </span>
        )}
      </Link>
      <p class="meta">
        <span class="status">{REQUEST_STATUS[request.status]}</span>
        {kind && <span>{kind}</span>}
        {money && <span>Budget {money}</span>}
        <span>
          Asked <Ago at={request.created_at} now={now} />
        </span>
      </p>
    </li>
  );
}
