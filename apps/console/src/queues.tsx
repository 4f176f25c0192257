import { ConfirmButton, LoadError, OutcomeLine, TextField } from '@handoff/web-ui';
import { useState } from 'preact/hooks';
import type {
  ApplicationList,
  DeadlineList,
  DisputeList,
  PaymentList,
  PaymentRequestList,
  RequestCounts,
  StaffApi,
} from './api.ts';
import { useAction, useLoad } from './hooks.ts';
import type { Go } from './navigation.ts';
import { ColumnHeads, when } from './ui.tsx';

const count = (list: { data: unknown[]; has_more: boolean }) =>
  `${list.data.length}${list.has_more ? '+' : ''}`;

/**
 * What happens when a deadline passes, for people: the waits of a request in the console's own
 * words (where to act, not which API call), the others as the API says them, without its paths.
 */
function consequence(deadline: DeadlineList['data'][number]): string {
  if (deadline.resource === 'request') {
    return (
      'Nothing happens by itself: the request waits until staff route it. Open it: its ' +
      'routing panel offers it to a provider or runs the rules again.'
    );
  }
  if (deadline.resource === 'routing_offer') {
    return (
      'The offer lapses and the request goes to the next provider (after the last offer, it ' +
      'waits for staff). Open it to see the offer or offer it to someone else.'
    );
  }
  if (deadline.resource === 'marketplace_review') {
    return (
      'Nothing happens by itself: the request stays off the marketplace until staff review ' +
      'it. Open it to publish it or refuse.'
    );
  }
  return deadline.consequence
    .replaceAll('`GET /v1/staff/deadlines`', 'this list')
    .replaceAll('`', '');
}

/** What is waiting on staff, with counts, and every deadline soonest first. */
export function Queues({ api, go }: { api: StaffApi; go: Go }) {
  const { data, error, reload } = useLoad(async () => {
    const [applications, paymentRequests, payments, open, review, deadlines, marketplace, queued] =
      await Promise.all([
        api.get<ApplicationList>('/access-applications', { status: 'submitted', limit: '100' }),
        api.get<PaymentRequestList>('/payment-requests', {
          status: 'pending_approval',
          limit: '100',
        }),
        api.get<PaymentList>('/payments', { status: 'pending', limit: '100' }),
        api.get<DisputeList>('/disputes', { status: 'open', limit: '100' }),
        api.get<DisputeList>('/disputes', { status: 'under_review', limit: '100' }),
        api.get<DeadlineList>('/deadlines', { limit: '50' }),
        api.get<{ data: { id: string }[]; has_more: boolean }>('/requests', {
          marketplace_review: 'pending_review',
          limit: '100',
        }),
        api.get<RequestCounts>('/request-counts', { routing_state: 'queued' }),
      ]);
    return {
      applications,
      paymentRequests,
      payments,
      open,
      review,
      deadlines,
      marketplace,
      queued,
    };
  }, [api]);
  return (
    <section aria-labelledby="queues-title">
      <h2 id="queues-title">Queues</h2>
      <LoadError error={error} />
      {data && (
        <>
          <ul class="counts">
            <li>
              <button type="button" onClick={() => go('requests', 'routing_state=queued')}>
                Requests to route <span class="count">{data.queued.total}</span>
              </button>
            </li>
            {(
              [
                ['Access applications', 'applications', data.applications],
                ['Payment requests', 'payments', data.paymentRequests],
                ['Pending payments', 'payments', data.payments],
                ['Open disputes', 'disputes', data.open],
                ['Disputes under review', 'disputes', data.review],
              ] as const
            ).map(([label, screen, list]) => (
              <li key={label}>
                <button type="button" onClick={() => go(screen)}>
                  {label} <span class="count">{count(list)}</span>
                </button>
              </li>
            ))}
            <li>
              <button
                type="button"
                onClick={() => go('request', data.marketplace.data[0]?.id)}
                disabled={data.marketplace.data.length === 0}
              >
                Marketplace reviews <span class="count">{count(data.marketplace)}</span>
              </button>
            </li>
          </ul>
          <p class="note">
            Requests to route are those the rules could not offer to a provider (or that staff took
            over): the Requests screen lists them with the reason, and each request's routing panel
            offers it to a provider. Each marketplace review waiting is also among the deadlines
            below: open its request to approve or reject its publication.
          </p>
          <Deadlines api={api} go={go} deadlines={data.deadlines} reload={reload} />
        </>
      )}
    </section>
  );
}

function Deadlines(props: { api: StaffApi; go: Go; deadlines: DeadlineList; reload: () => void }) {
  const action = useAction();
  const [reason, setReason] = useState('');
  const cancel = (resource: string, id: string) => async () => {
    await props.api.post(`/${resource === 'job' ? 'jobs' : 'milestones'}/${id}/cancel`, {
      reason,
    });
    props.reload();
    return `Cancelled ${resource} ${id}.`;
  };
  return (
    <>
      <h3>
        Deadlines, soonest first <span class="count">{count(props.deadlines)}</span>
      </h3>
      <TextField
        label="Reason for a cancellation (required, the parties see it)"
        value={reason}
        onValue={setReason}
      />
      <OutcomeLine outcome={action.outcome} />
      <table>
        <ColumnHeads names={['Deadline', 'What', 'State', 'Waiting on', 'Then', 'Actions']} />
        <tbody>
          {props.deadlines.data.map((d) => (
            <tr key={`${d.resource}:${d.id}`} class={d.overdue ? 'overdue' : ''}>
              <td>
                {when(d.deadline_at)}
                {d.overdue ? ' (overdue)' : ''}
              </td>
              <td class="mono">
                {d.resource} {d.id}
              </td>
              <td>{d.state}</td>
              <td>{d.waiting_on}</td>
              <td>{consequence(d)}</td>
              <td>
                <button type="button" onClick={() => props.go('request', d.request_id)}>
                  Request
                </button>{' '}
                {(d.resource === 'job' || d.resource === 'milestone') && (
                  <ConfirmButton
                    label={`Cancel ${d.resource}`}
                    question={`Cancel ${d.resource} ${d.id}?`}
                    danger
                    disabled={reason.trim() === ''}
                    action={action}
                    work={cancel(d.resource, d.id)}
                  />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {props.deadlines.data.length === 0 && <p>Nothing is waiting.</p>}
    </>
  );
}
