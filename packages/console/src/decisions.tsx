import { useState } from 'preact/hooks';
import {
  SCOPES,
  type Application,
  type ApplicationList,
  type Dispute,
  type DisputeList,
  type Payment,
  type PaymentList,
  type PaymentRequest,
  type PaymentRequestList,
  type Scope,
  type StaffApi,
} from './api.ts';
import type { Go } from './navigation.ts';
import {
  Cards,
  ConfirmButton,
  Field,
  LoadError,
  Opener,
  OutcomeLine,
  ScopePicker,
  StatusSelect,
  money,
  useAction,
  useLoad,
  useQueue,
  when,
  type Outcome,
} from './ui.tsx';

/** Access applications: approve with the scopes staff choose, or reject with a reason. */
export function Applications({ api, go }: { api: StaffApi; go: Go }) {
  const queue = useQueue(
    'submitted',
    (status) => api.get<ApplicationList>('/access-applications', { status, limit: '100' }),
    [api],
  );
  return (
    <section aria-labelledby="applications-title">
      <h2 id="applications-title">Access applications</h2>
      <StatusSelect
        value={queue.status}
        statuses={['submitted', 'approved', 'rejected']}
        onChange={queue.setStatus}
      />
      <OutcomeLine outcome={queue.notice} />
      <Cards
        list={queue.list}
        empty={`No ${queue.status} applications.`}
        card={(application) => (
          <li key={application.id} class="card">
            <h3>
              {application.app_name} <span class="mono muted">{application.id}</span>
            </h3>
            <p>{application.description}</p>
            <p class="muted">
              {application.contact_email} · {when(application.created_at)} · {application.status}
            </p>
            {application.integration_id && (
              <button
                type="button"
                onClick={() => go('integrations', application.integration_id ?? '')}
              >
                Integration {application.integration_id}
              </button>
            )}
            {application.status === 'submitted' && (
              <Opener
                open={queue.open === application.id}
                label={`Decide on ${application.app_name}`}
                onOpen={() => queue.setOpen(application.id)}
              >
                <Decide
                  api={api}
                  application={application as Application}
                  done={(text) => {
                    queue.setOpen(null);
                    queue.decided(text);
                  }}
                />
              </Opener>
            )}
          </li>
        )}
      />
    </section>
  );
}

function Decide(props: { api: StaffApi; application: Application; done: (text: string) => void }) {
  const { application } = props;
  const [scopes, setScopes] = useState<Set<Scope>>(new Set(application.requested_scopes));
  const [reason, setReason] = useState('');
  const action = useAction();
  return (
    <div class="decide">
      <ScopePicker
        legend="Scopes to grant (requested ones are ticked)"
        chosen={scopes}
        requested={application.requested_scopes}
        onChange={setScopes}
      />
      <button
        type="button"
        class="primary"
        disabled={action.busy || scopes.size === 0}
        onClick={() =>
          void action.run(async () => {
            const approved = await props.api.post<Application>(
              `/access-applications/${application.id}/approve`,
              { scopes: SCOPES.filter((s) => scopes.has(s)) },
            );
            const text = `Approved ${application.app_name}; integration ${approved.integration_id ?? ''}.`;
            props.done(text);
            return text;
          })
        }
      >
        Approve with {scopes.size} scopes
      </button>
      <Field label="Reason for rejection (the applicant sees it)">
        <textarea value={reason} rows={2} onInput={(e) => setReason(e.currentTarget.value)} />
      </Field>
      <button
        type="button"
        class="danger"
        disabled={action.busy || reason.trim() === ''}
        onClick={() =>
          void action.run(async () => {
            await props.api.post(`/access-applications/${application.id}/reject`, { reason });
            props.done(`Rejected ${application.app_name}.`);
            return 'Rejected.';
          })
        }
      >
        Reject
      </button>
      <OutcomeLine outcome={action.outcome} errorsOnly />
    </div>
  );
}

/** Payment requests to approve or reject, and pending payments to confirm or fail. */
export function Payments({ api, go }: { api: StaffApi; go: Go }) {
  const requests = useLoad(
    () =>
      api.get<PaymentRequestList>('/payment-requests', {
        status: 'pending_approval',
        limit: '100',
      }),
    [api],
  );
  const payments = useLoad(
    () => api.get<PaymentList>('/payments', { status: 'pending', limit: '100' }),
    [api],
  );
  const [notice, setNotice] = useState<Outcome | null>(null);
  const reload = (text: string) => {
    setNotice({ ok: true, text });
    requests.reload();
    payments.reload();
  };
  return (
    <section aria-labelledby="payments-title">
      <h2 id="payments-title">Payments</h2>
      <OutcomeLine outcome={notice} />
      <h3>Payment requests waiting for approval</h3>
      <Cards
        list={requests}
        empty="None waiting."
        card={(pr) => (
          <PaymentRequestCard
            key={pr.id}
            api={api}
            go={go}
            pr={pr as PaymentRequest}
            done={reload}
          />
        )}
      />
      <h3>Pending payments</h3>
      <Cards
        list={payments}
        empty="None pending."
        card={(payment) => (
          <PaymentCard
            key={payment.id}
            api={api}
            go={go}
            payment={payment as Payment}
            done={reload}
          />
        )}
      />
    </section>
  );
}

function PaymentRequestCard(props: {
  api: StaffApi;
  go: Go;
  pr: PaymentRequest;
  done: (text: string) => void;
}) {
  const { pr } = props;
  const [reason, setReason] = useState('');
  const action = useAction();
  const label = `${money(pr.amount, pr.currency)} · ${pr.description}`;
  return (
    <li class="card" aria-label={`Payment request ${pr.id}`}>
      <h4>
        {label} <span class="mono muted">{pr.id}</span>
      </h4>
      <p class="muted">
        Request{' '}
        <button type="button" class="link" onClick={() => props.go('request', pr.request_id)}>
          {pr.request_id}
        </button>{' '}
        · {when(pr.created_at)}
      </p>
      <ConfirmButton
        label="Approve payment request"
        question={`Approve ${money(pr.amount, pr.currency)}? A payment is created for the customer.`}
        disabled={action.busy}
        onConfirm={() =>
          void action.run(async () => {
            await props.api.post(`/payment-requests/${pr.id}/approve`);
            props.done(`Approved payment request ${pr.id}.`);
            return `Approved payment request ${pr.id}.`;
          })
        }
      />
      <Field label="Reason for rejection">
        <input value={reason} onInput={(e) => setReason(e.currentTarget.value)} />
      </Field>
      <ConfirmButton
        label="Reject payment request"
        question={`Reject ${money(pr.amount, pr.currency)}?`}
        danger
        disabled={action.busy || reason.trim() === ''}
        onConfirm={() =>
          void action.run(async () => {
            await props.api.post(`/payment-requests/${pr.id}/reject`, { reason });
            props.done(`Rejected payment request ${pr.id}.`);
            return `Rejected payment request ${pr.id}.`;
          })
        }
      />
      <OutcomeLine outcome={action.outcome} errorsOnly />
    </li>
  );
}

function PaymentCard(props: {
  api: StaffApi;
  go: Go;
  payment: Payment;
  done: (text: string) => void;
}) {
  const { payment } = props;
  const [reference, setReference] = useState('');
  const [reason, setReason] = useState('');
  const action = useAction();
  return (
    <li class="card" aria-label={`Payment ${payment.id}`}>
      <h4>
        {money(payment.amount, payment.currency)} via {payment.provider}{' '}
        <span class="mono muted">{payment.id}</span>
      </h4>
      <p class="muted">
        Request{' '}
        <button type="button" class="link" onClick={() => props.go('request', payment.request_id)}>
          {payment.request_id}
        </button>{' '}
        · deadline {when(payment.deadline_at)}
      </p>
      {payment.provider === 'manual' && (
        <>
          <Field label="Reference (optional, e.g. the bank transfer)">
            <input value={reference} onInput={(e) => setReference(e.currentTarget.value)} />
          </Field>
          <ConfirmButton
            label="Confirm payment"
            question={`Confirm ${money(payment.amount, payment.currency)} as received?`}
            disabled={action.busy}
            onConfirm={() =>
              void action.run(async () => {
                await props.api.post(
                  `/payments/${payment.id}/confirm`,
                  reference.trim() ? { reference } : {},
                );
                props.done(`Confirmed payment ${payment.id}.`);
                return `Confirmed payment ${payment.id}.`;
              })
            }
          />
        </>
      )}
      <Field label="Reason for failure">
        <input value={reason} onInput={(e) => setReason(e.currentTarget.value)} />
      </Field>
      <ConfirmButton
        label="Mark payment failed"
        question={`Mark ${money(payment.amount, payment.currency)} failed?`}
        danger
        disabled={action.busy || reason.trim() === ''}
        onConfirm={() =>
          void action.run(async () => {
            await props.api.post(`/payments/${payment.id}/fail`, { reason });
            props.done(`Marked payment ${payment.id} failed.`);
            return `Marked payment ${payment.id} failed.`;
          })
        }
      />
      <OutcomeLine outcome={action.outcome} errorsOnly />
    </li>
  );
}

/** Disputes and refund cases: read, comment, escalate, resolve (customer, provider or split). */
export function Disputes({ api, go }: { api: StaffApi; go: Go }) {
  const queue = useQueue(
    'open',
    (status) => api.get<DisputeList>('/disputes', { status, limit: '100' }),
    [api],
  );
  return (
    <section aria-labelledby="disputes-title">
      <h2 id="disputes-title">Disputes</h2>
      <StatusSelect
        value={queue.status}
        statuses={['open', 'under_review', 'resolved', 'withdrawn']}
        onChange={queue.setStatus}
      />
      <OutcomeLine outcome={queue.notice} />
      <Cards
        list={queue.list}
        empty={`No ${queue.status} cases.`}
        card={(d) => (
          <li key={d.id} class="card">
            <h3>
              {d.kind} · {d.reason} <span class="mono muted">{d.id}</span>
            </h3>
            <p class="muted">
              {money(d.amount, d.currency)} · {d.status} · deadline {when(d.deadline_at)} · request{' '}
              <button type="button" class="link" onClick={() => go('request', d.request_id)}>
                {d.request_id}
              </button>
            </p>
            <Opener
              open={queue.open === d.id}
              label={`Open case ${d.id}`}
              onOpen={() => queue.setOpen(d.id)}
            >
              <Case api={api} id={d.id} done={queue.decided} />
            </Opener>
          </li>
        )}
      />
    </section>
  );
}

function Case(props: { api: StaffApi; id: string; done: (text: string) => void }) {
  const { data, error, reload } = useLoad(
    () => props.api.get<Dispute>(`/disputes/${props.id}`),
    [props.id],
  );
  const [comment, setComment] = useState('');
  const [outcome, setOutcome] = useState<'customer' | 'provider' | 'split'>('customer');
  const [share, setShare] = useState('50');
  const [reason, setReason] = useState('');
  const action = useAction();
  const act = (path: string, body: unknown, text: string) =>
    action.run(async () => {
      await props.api.post(`/disputes/${props.id}${path}`, body);
      reload();
      props.done(text);
      return text;
    });
  if (error) return <LoadError error={error} />;
  if (!data) return <p>Loading…</p>;
  const closed = data.status === 'resolved' || data.status === 'withdrawn';
  return (
    <div class="decide">
      <h4>Comments</h4>
      {data.comments.length === 0 && <p>No comments yet.</p>}
      <ol class="timeline">
        {data.comments.map((c, i) => (
          <li key={i}>
            <strong>{c.author_role}</strong> {when(c.created_at)}: {c.message}
          </li>
        ))}
      </ol>
      {data.resolution && (
        <p role="status">
          Resolved for {data.resolution.outcome}
          {data.resolution.customer_share_percent != null
            ? ` (customer ${data.resolution.customer_share_percent}%)`
            : ''}
          : {data.resolution.reason}
        </p>
      )}
      {!closed && (
        <>
          <Field label="Staff comment">
            <textarea rows={2} value={comment} onInput={(e) => setComment(e.currentTarget.value)} />
          </Field>
          <button
            type="button"
            disabled={action.busy || comment.trim() === ''}
            onClick={() => void act('/comments', { message: comment }, 'Comment added.')}
          >
            Add comment
          </button>{' '}
          {data.status === 'open' && (
            <button
              type="button"
              disabled={action.busy}
              onClick={() => void act('/escalate', undefined, 'Under review.')}
            >
              Take under review
            </button>
          )}
          <fieldset>
            <legend>Resolve for</legend>
            {(['customer', 'provider', 'split'] as const).map((value) => (
              <label key={value} class="check">
                <input
                  type="radio"
                  name={`outcome-${props.id}`}
                  value={value}
                  checked={outcome === value}
                  onChange={() => setOutcome(value)}
                />{' '}
                {value}
              </label>
            ))}
          </fieldset>
          {outcome === 'split' && (
            <Field label="Customer's share in percent (1–99)">
              <input
                type="number"
                min={1}
                max={99}
                value={share}
                onInput={(e) => setShare(e.currentTarget.value)}
              />
            </Field>
          )}
          <Field label="Reason for the resolution (both parties see it)">
            <textarea rows={2} value={reason} onInput={(e) => setReason(e.currentTarget.value)} />
          </Field>
          <ConfirmButton
            label="Resolve case"
            question={`Resolve for ${outcome}${outcome === 'split' ? ` (customer ${share}%)` : ''}? This decides who gets the money.`}
            disabled={action.busy || reason.trim() === ''}
            onConfirm={() =>
              void act(
                '/resolve',
                outcome === 'split'
                  ? { outcome, reason, customer_share_percent: Number(share) }
                  : { outcome, reason },
                `Resolved ${props.id} for ${outcome}.`,
              )
            }
          />
        </>
      )}
      <OutcomeLine outcome={action.outcome} errorsOnly />
    </div>
  );
}
