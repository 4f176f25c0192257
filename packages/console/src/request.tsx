import { useState } from 'preact/hooks';
import type { AuditList, PaymentList, StaffApi, StaffRequest, Timeline } from './api.ts';
import {
  ColumnHeads,
  ConfirmButton,
  Field,
  IdScreen,
  LoadError,
  OutcomeLine,
  money,
  useAction,
  useLoad,
  when,
} from './ui.tsx';

/**
 * One request as staff see it: its details, marketplace review and payments, cancelling a job or
 * milestone of it, and its timeline (everything that happened on it, events with their sequence).
 */
export function RequestScreen({ api, initial }: { api: StaffApi; initial: string }) {
  return (
    <IdScreen
      name="request"
      title="Request"
      label="Request id"
      initial={initial}
      view={(id) => <RequestView key={id} api={api} id={id} />}
    />
  );
}

function RequestView({ api, id }: { api: StaffApi; id: string }) {
  const { data, error, reload } = useLoad(async () => {
    const [request, payments] = await Promise.all([
      api.get<StaffRequest>(`/requests/${id}`),
      api.get<PaymentList>('/payments', { request_id: id, limit: '100' }),
    ]);
    return { request, payments };
  }, [id]);
  const [reviewReason, setReviewReason] = useState('');
  const [target, setTarget] = useState('');
  const [cancelReason, setCancelReason] = useState('');
  const action = useAction();
  if (error) return <LoadError error={error} />;
  if (!data) return <p>Loading…</p>;
  const { request } = data;
  const review = (decision: 'approved' | 'rejected') =>
    action.run(async () => {
      await api.post(`/requests/${id}/marketplace-review`, {
        decision,
        ...(reviewReason.trim() ? { reason: reviewReason } : {}),
      });
      reload();
      return `Marketplace publication ${decision}.`;
    });
  const kind = target.startsWith('job_') ? 'jobs' : target.startsWith('mst_') ? 'milestones' : null;
  return (
    <div>
      <OutcomeLine outcome={action.outcome} />
      <dl class="facts">
        <dt>Status</dt>
        <dd>{request.status}</dd>
        <dt>Subject</dt>
        <dd>{request.subject ?? '—'}</dd>
        <dt>Category</dt>
        <dd>{request.category ?? '—'}</dd>
        <dt>Customer</dt>
        <dd>
          {request.customer.name ?? '—'}{' '}
          {request.customer.email ? `<${request.customer.email}>` : ''}
        </dd>
        <dt>Budget</dt>
        <dd>
          {money(request.budget_min, '')} – {money(request.budget_max, '')}
        </dd>
        <dt>Routing</dt>
        <dd>
          {request.routing.mode} {(request.routing.provider_ids as string[]).join(', ')}
        </dd>
        <dt>Marketplace</dt>
        <dd>
          {request.marketplace.opted_in ? 'opted in' : 'not opted in'}, review{' '}
          {request.marketplace.review}
        </dd>
        <dt>Created</dt>
        <dd>{when(request.created_at)}</dd>
      </dl>
      <blockquote>{request.message}</blockquote>
      {request.marketplace.opted_in && request.marketplace.review === 'pending_review' && (
        <fieldset>
          <legend>Marketplace review</legend>
          <Field label="Reason (required to reject)">
            <input value={reviewReason} onInput={(e) => setReviewReason(e.currentTarget.value)} />
          </Field>
          <button
            type="button"
            class="primary"
            disabled={action.busy}
            onClick={() => void review('approved')}
          >
            Publish on the marketplace
          </button>{' '}
          <button
            type="button"
            class="danger"
            disabled={action.busy || reviewReason.trim() === ''}
            onClick={() => void review('rejected')}
          >
            Reject publication
          </button>
        </fieldset>
      )}
      <h3>Payments</h3>
      <ul>
        {data.payments.data.map((p) => (
          <li key={p.id}>
            {when(p.created_at)} · {money(p.amount, p.currency)} · {p.status}{' '}
            <span class="mono muted">{p.id}</span>
          </li>
        ))}
        {data.payments.data.length === 0 && <li>None.</li>}
      </ul>
      <fieldset>
        <legend>Cancel a job or a milestone of this request</legend>
        <Field label="Job id (job_…) or milestone id (mst_…)">
          <input
            class="mono"
            value={target}
            onInput={(e) => setTarget(e.currentTarget.value.trim())}
          />
        </Field>
        <Field label="Reason (the parties see it)">
          <input value={cancelReason} onInput={(e) => setCancelReason(e.currentTarget.value)} />
        </Field>
        <ConfirmButton
          label="Cancel it"
          question={`Cancel ${target}?`}
          danger
          disabled={action.busy || kind === null || cancelReason.trim() === ''}
          onConfirm={() =>
            void action.run(async () => {
              await api.post(`/${kind ?? 'jobs'}/${target}/cancel`, { reason: cancelReason });
              reload();
              return `Cancelled ${target}.`;
            })
          }
        />
      </fieldset>
      <TimelineView api={api} id={id} />
    </div>
  );
}

const KIND_NAMES: Record<Timeline['data'][number]['kind'], string> = {
  message: 'Message',
  proposal: 'Proposal',
  job: 'Job',
  milestone: 'Milestone',
  deliverable: 'Deliverable',
  payment_request: 'Payment request',
  payment: 'Payment',
  dispute: 'Dispute',
  event: 'Event',
};

/** The request's timeline, oldest first: a table with a caption, read row by row. */
function TimelineView({ api, id }: { api: StaffApi; id: string }) {
  const { data, error, reload } = useLoad(
    () => api.get<Timeline>(`/requests/${id}/timeline`),
    [id],
  );
  return (
    <section aria-labelledby="timeline-title">
      <h3 id="timeline-title">Timeline</h3>
      <LoadError error={error} />
      <button type="button" onClick={reload}>
        Reload the timeline
      </button>
      {!data && !error && <p>Loading…</p>}
      {data && (
        <div class="scroll" role="region" aria-label="Timeline entries" tabIndex={0}>
          <table>
            <caption>
              {data.data.length} entries, oldest first
              {data.has_more ? ' (the newest 100 of each kind only)' : ''}
            </caption>
            <ColumnHeads names={['When', 'Kind', 'Sequence', 'Status or type', 'Summary', 'Id']} />
            <tbody>
              {data.data.map((entry) => (
                <tr key={`${entry.kind}:${entry.id}`} class={`kind-${entry.kind}`}>
                  <td>{when(entry.at)}</td>
                  <td>{KIND_NAMES[entry.kind]}</td>
                  <td>{entry.sequence ?? '—'}</td>
                  <td class="mono">{entry.status ?? '—'}</td>
                  <td>{entry.summary}</td>
                  <td class="mono muted">{entry.id}</td>
                </tr>
              ))}
              {data.data.length === 0 && (
                <tr>
                  <td colSpan={6}>Nothing yet.</td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

type Entry = AuditList['data'][number];

/** The audit log, newest first, page by page, filtered by actor, action and target. */
export function Audit({ api }: { api: StaffApi }) {
  const [entries, setEntries] = useState<Entry[]>([]);
  const [more, setMore] = useState(false);
  const [filters, setFilters] = useState({ actor: '', action: '', target: '' });
  const first = useLoad(async () => {
    const page = await api.get<AuditList>('/audit-log', { limit: '100' });
    setEntries(page.data);
    setMore(page.has_more);
    return page;
  }, [api]);
  const action = useAction();
  const loadMore = () =>
    action.run(async () => {
      const last = entries[entries.length - 1];
      const page = await api.get<AuditList>('/audit-log', {
        limit: '100',
        starting_after: last?.id,
      });
      setEntries([...entries, ...page.data]);
      setMore(page.has_more);
      return `Loaded ${page.data.length} more.`;
    });
  const match = (value: string, filter: string) =>
    filter === '' || value.toLowerCase().includes(filter.toLowerCase());
  const shown = entries.filter(
    (e) =>
      match(e.actor, filters.actor) &&
      match(e.action, filters.action) &&
      match(`${e.target_type} ${e.target_id}`, filters.target),
  );
  const set = (name: keyof typeof filters) => (e: Event) =>
    setFilters({ ...filters, [name]: (e.currentTarget as HTMLInputElement).value });
  return (
    <section aria-labelledby="audit-title">
      <h2 id="audit-title">Audit log</h2>
      <LoadError error={first.error} />
      <form class="inline" role="search" onSubmit={(e) => e.preventDefault()}>
        <Field label="Actor">
          <input value={filters.actor} onInput={set('actor')} />
        </Field>
        <Field label="Action">
          <input value={filters.action} onInput={set('action')} />
        </Field>
        <Field label="Target">
          <input value={filters.target} onInput={set('target')} />
        </Field>
      </form>
      <p class="note" aria-live="polite">
        {shown.length} of {entries.length} loaded entries match (the filters apply to the loaded
        pages).
      </p>
      <table>
        <ColumnHeads names={['When', 'Actor', 'Action', 'Target']} />
        <tbody>
          {shown.map((e) => (
            <tr key={e.id}>
              <td>{when(e.at)}</td>
              <td>{e.actor}</td>
              <td class="mono">{e.action}</td>
              <td class="mono">
                {e.target_type} {e.target_id}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {more && (
        <button type="button" disabled={action.busy} onClick={() => void loadMore()}>
          Load older entries
        </button>
      )}
      <OutcomeLine outcome={action.outcome} />
    </section>
  );
}
