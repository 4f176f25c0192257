import { ActionButton, LoadError, OutcomeLine, TextField, type Runner } from '@handoff/web-ui';
import { useState } from 'preact/hooks';
import type { PaymentList, StaffApi, StaffRequest, Timeline } from './api.ts';
import { useAction, useLoad } from './hooks.ts';
import { RequestFiles } from './request-files.tsx';
import { RoutingPanel } from './routing-panel.tsx';
import { idScreen } from './screens.tsx';
import { ColumnHeads, money, ReasonedConfirm, when } from './ui.tsx';
import { REQUEST_STATUS_WORDS } from './words.ts';

/**
 * One request as staff see it: its details, its routing (automatic and by hand), marketplace
 * review and payments, cancelling a job or milestone of it, its files, and its timeline
 * (everything that happened on it, events with their sequence).
 */
export const RequestScreen = idScreen({
  name: 'request',
  title: 'Request',
  label: 'Request id',
  View: RequestView,
});

function RequestView({ api, id }: { api: StaffApi; id: string }) {
  const { data, error, reload } = useLoad(async () => {
    const [request, payments] = await Promise.all([
      api.get<StaffRequest>(`/requests/${id}`),
      api.get<PaymentList>('/payments', { request_id: id, limit: '100' }),
    ]);
    return { request, payments };
  }, [id]);
  const action = useAction();
  if (error) return <LoadError error={error} />;
  if (!data) return <p>Loading…</p>;
  const { request } = data;
  /** Posts to `path`, then reads the request again and says `text`. */
  const act = async (path: string, body: unknown, text: string) => {
    await api.post(path, body);
    reload();
    return text;
  };
  return (
    <div>
      <OutcomeLine outcome={action.outcome} />
      <Facts request={request} />
      <blockquote>{request.message}</blockquote>
      <RoutingPanel api={api} request={request} changed={reload} />
      {request.marketplace.opted_in && request.marketplace.review === 'pending_review' && (
        <MarketplaceReview
          action={action}
          review={(decision, reason) =>
            act(
              `/requests/${id}/marketplace-review`,
              { decision, ...(reason.trim() ? { reason } : {}) },
              `Marketplace publication ${decision}.`,
            )
          }
        />
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
      <CancelWork
        action={action}
        cancel={(kind, target, reason) =>
          act(`/${kind}/${target}/cancel`, { reason }, `Cancelled ${target}.`)
        }
      />
      <RequestFiles api={api} id={id} />
      <TimelineView api={api} id={id} />
    </div>
  );
}

function Facts({ request }: { request: StaffRequest }) {
  return (
    <dl class="facts">
      <dt>Status</dt>
      <dd>{REQUEST_STATUS_WORDS[request.status]}</dd>
      <dt>Subject</dt>
      <dd>{request.subject ?? '—'}</dd>
      <dt>Category</dt>
      <dd>{request.category ?? '—'}</dd>
      <dt>Customer</dt>
      <dd>
        {request.customer.name ?? '—'} {request.customer.email ? `<${request.customer.email}>` : ''}
      </dd>
      <dt>Budget</dt>
      <dd>
        {money(request.budget_min, '')} – {money(request.budget_max, '')}
      </dd>
      <dt>Routing</dt>
      <dd>
        {request.routing.mode} {request.routing.provider_ids.join(', ')}
      </dd>
      <dt>Marketplace</dt>
      <dd>
        {request.marketplace.opted_in ? 'opted in' : 'not opted in'}, review{' '}
        {request.marketplace.review}
      </dd>
      <dt>Created</dt>
      <dd>{when(request.created_at)}</dd>
    </dl>
  );
}

/** Publishing an opted-in request on the marketplace, or refusing to, with a reason. */
function MarketplaceReview(props: {
  action: Runner;
  review: (decision: 'approved' | 'rejected', reason: string) => Promise<string>;
}) {
  const [reason, setReason] = useState('');
  return (
    <fieldset>
      <legend>Marketplace review</legend>
      <TextField label="Reason (required to reject)" value={reason} onValue={setReason} />
      <ActionButton
        class="primary"
        label="Publish on the marketplace"
        action={props.action}
        work={() => props.review('approved', reason)}
      />{' '}
      <ActionButton
        class="danger"
        label="Reject publication"
        disabled={reason.trim() === ''}
        action={props.action}
        work={() => props.review('rejected', reason)}
      />
    </fieldset>
  );
}

/** Cancelling one job or milestone of the request, by its id, with a reason. */
function CancelWork(props: {
  action: Runner;
  cancel: (kind: 'jobs' | 'milestones', target: string, reason: string) => Promise<string>;
}) {
  const [target, setTarget] = useState('');
  const kind = target.startsWith('job_') ? 'jobs' : target.startsWith('mst_') ? 'milestones' : null;
  return (
    <fieldset>
      <legend>Cancel a job or a milestone of this request</legend>
      <TextField
        label="Job id (job_…) or milestone id (mst_…)"
        class="mono"
        value={target}
        onValue={(value) => setTarget(value.trim())}
      />
      <ReasonedConfirm
        field="Reason (the parties see it)"
        label="Cancel it"
        question={`Cancel ${target}?`}
        disabled={kind === null}
        action={props.action}
        work={(reason) => props.cancel(kind ?? 'jobs', target, reason)}
      />
    </fieldset>
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
