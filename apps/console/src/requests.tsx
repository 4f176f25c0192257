import { LoadError } from '@handoff/web-ui';
import type {
  CategoryList,
  RequestCounts,
  StaffApi,
  StaffRequest,
  StaffRequestList,
} from './api.ts';
import { useLoad } from './hooks.ts';
import { useKept } from './memory.ts';
import { learnNames, useProviderNames } from './names.ts';
import type { Go } from './navigation.ts';
import { filterQuery, NO_FILTERS, parseFilters, type Filters } from './filters.ts';
import { Chips, FilterForm } from './request-filters.tsx';
import { ago, answerWithin, useNow } from './time.ts';
import {
  pendingOffer,
  REQUEST_STATUS_WORDS,
  ROUTING_STATE_WORDS,
  routingStateText,
} from './words.ts';

const PAGE_SIZE = '25';

/** What the screen shows: the filters, and the pages turned so far (each page's cursor). */
interface View {
  filters: Filters;
  cursors: string[];
}

/**
 * Every request, newest first, by status, routing state, category and age, with how many there
 * are of each status and routing state; a request opens on the Request screen.
 */
export function Requests({ api, go, initial }: { api: StaffApi; go: Go; initial: string }) {
  const [view, setView] = useKept<View>(
    'requests.view',
    { filters: NO_FILTERS, cursors: [] },
    initial ? { filters: parseFilters(initial), cursors: [] } : undefined,
  );
  const { filters, cursors } = view;
  const now = useNow();
  const filter = (next: Filters) => setView({ filters: next, cursors: [] });
  const key = JSON.stringify(filters);
  const categories = useLoad(() => api.get<CategoryList>('/routing/categories'), [api]);
  const counts = useLoad(async () => {
    const at = Date.now();
    const [statuses, states] = await Promise.all([
      api.get<RequestCounts>('/request-counts', filterQuery(filters, at, ['status'])),
      api.get<RequestCounts>('/request-counts', filterQuery(filters, at, ['routing_state'])),
    ]);
    return { statuses, states };
  }, [api, key]);
  const list = useLoad(
    () =>
      api.get<StaffRequestList>('/requests', {
        ...filterQuery(filters, Date.now()),
        limit: PAGE_SIZE,
        starting_after: cursors.at(-1),
      }),
    [api, key, cursors.length],
  );
  const rows = list.data?.data ?? [];
  for (const row of rows) learnNames(row.automatic_routing.decision?.candidates ?? []);
  const name = useProviderNames(
    api,
    rows.flatMap((row) => pendingOffer(row.automatic_routing)?.provider_id ?? []),
  );
  const byStatus = counts.data?.statuses.by_status;
  const byState = counts.data?.states.by_routing_state;
  return (
    <section aria-labelledby="requests-title">
      <h2 id="requests-title">Requests</h2>
      <FilterForm filters={filters} categories={categories.data} onChange={filter} />
      <LoadError error={counts.error} />
      <Chips
        label="Status"
        value={filters.status}
        total={counts.data?.statuses.total ?? null}
        options={Object.entries(REQUEST_STATUS_WORDS).map(([value, words]) => ({
          value,
          words,
          count: byStatus?.[value as keyof typeof byStatus] ?? null,
        }))}
        onPick={(status) => filter({ ...filters, status })}
      />
      <Chips
        label="Routing"
        value={filters.routing_state}
        total={counts.data?.states.total ?? null}
        options={Object.entries(ROUTING_STATE_WORDS).map(([value, words]) => ({
          value,
          words,
          count: byState?.[value as keyof typeof byState] ?? null,
        }))}
        onPick={(routing_state) => filter({ ...filters, routing_state })}
      />
      <LoadError error={list.error} />
      {!list.data && !list.error && <p>Loading…</p>}
      {list.data && rows.length === 0 && <p>No request matches these filters.</p>}
      <ul class="cards requests" aria-label="Requests found">
        {rows.map((request) => (
          <RequestRow key={request.id} request={request} now={now} name={name} go={go} />
        ))}
      </ul>
      <div class="pager" role="group" aria-label="Pages of requests">
        <button
          type="button"
          disabled={cursors.length === 0}
          onClick={() => setView({ filters, cursors: cursors.slice(0, -1) })}
        >
          Newer requests
        </button>
        <span>Page {cursors.length + 1}</span>
        <button
          type="button"
          disabled={!list.data?.has_more}
          onClick={() => {
            const last = rows.at(-1);
            if (last) setView({ filters, cursors: [...cursors, last.id] });
          }}
        >
          Older requests
        </button>
        <button
          type="button"
          onClick={() => {
            counts.reload();
            list.reload();
          }}
        >
          Refresh
        </button>
      </div>
    </section>
  );
}

/** A request's subject, or the start of its message when it has none. */
export const requestTitle = (request: StaffRequest): string => {
  if (request.subject) return request.subject;
  const text = request.message.replace(/\s+/g, ' ').trim();
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
};

function RequestRow(props: {
  request: StaffRequest;
  now: number;
  name: (id: string) => string;
  go: Go;
}) {
  const { request, now } = props;
  const routing = request.automatic_routing;
  const offer = pendingOffer(routing);
  return (
    <li class="card request">
      <h3>
        <button type="button" class="open" onClick={() => props.go('request', request.id)}>
          {requestTitle(request)}
        </button>
      </h3>
      <p class="line">
        {!request.livemode && (
          <span class="badge test" title="Made with a test key; the simulated provider answers it">
            Test mode
          </span>
        )}
        <span>{request.category ?? 'No category'}</span>
        <span>{REQUEST_STATUS_WORDS[request.status]}</span>
        <span>{routingStateText(routing)}</span>
        {offer && (
          <span class={Date.parse(offer.respond_by) <= now ? 'late' : ''}>
            Offered to {props.name(offer.provider_id)}, {answerWithin(offer.respond_by, now)}
          </span>
        )}
        <span>{ago(request.created_at, now)}</span>
      </p>
    </li>
  );
}
