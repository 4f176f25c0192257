import {
  ActionButton,
  ConfirmButton,
  Field,
  LoadError,
  OutcomeLine,
  TextArea,
} from '@handoff/web-ui';
import { useState } from 'preact/hooks';
import type { Dispute, DisputeList, StaffApi } from './api.ts';
import { useAction, useLoad } from './hooks.ts';
import type { Go } from './navigation.ts';
import { Opener, QueueScreen, useQueue } from './screens.tsx';
import { money, RequestLink, when } from './ui.tsx';

const OUTCOMES = ['customer', 'provider', 'split'] as const;
type Outcome = (typeof OUTCOMES)[number];

/** Disputes and refund cases: read, comment, escalate, resolve (customer, provider or split). */
export function Disputes({ api, go }: { api: StaffApi; go: Go }) {
  const queue = useQueue(
    'open',
    (status) => api.get<DisputeList>('/disputes', { status, limit: '100' }),
    [api],
  );
  return (
    <QueueScreen
      name="disputes"
      title="Disputes"
      statuses={['open', 'under_review', 'resolved', 'withdrawn']}
      queue={queue}
      empty={`No ${queue.status} cases.`}
      card={(d) => (
        <li key={d.id} class="card">
          <h3>
            {d.kind} · {d.reason} <span class="mono muted">{d.id}</span>
          </h3>
          <p class="muted">
            {money(d.amount, d.currency)} · {d.status} · deadline {when(d.deadline_at)} · request{' '}
            <RequestLink id={d.request_id} go={go} />
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
  );
}

function Case(props: { api: StaffApi; id: string; done: (text: string) => void }) {
  const { data, error, reload } = useLoad(
    () => props.api.get<Dispute>(`/disputes/${props.id}`),
    [props.id],
  );
  const [comment, setComment] = useState('');
  const action = useAction();
  /** Posts to the case, then reads it again and reports `text`. */
  const act = (path: string, body: unknown, text: string) => async () => {
    await props.api.post(`/disputes/${props.id}${path}`, body);
    reload();
    props.done(text);
    return text;
  };
  if (error) return <LoadError error={error} />;
  if (!data) return <p>Loading…</p>;
  const closed = data.status === 'resolved' || data.status === 'withdrawn';
  return (
    <div class="decide">
      <Comments dispute={data} />
      {!closed && (
        <>
          <TextArea label="Staff comment" rows={2} value={comment} onValue={setComment} />
          <ActionButton
            label="Add comment"
            disabled={comment.trim() === ''}
            action={action}
            work={act('/comments', { message: comment }, 'Comment added.')}
          />{' '}
          {data.status === 'open' && (
            <ActionButton
              label="Take under review"
              action={action}
              work={act('/escalate', undefined, 'Under review.')}
            />
          )}
          <Resolve
            id={props.id}
            action={action}
            resolve={(body, text) => act('/resolve', body, text)()}
          />
        </>
      )}
      <OutcomeLine outcome={action.outcome} errorsOnly />
    </div>
  );
}

/** What the parties and staff said on the case, and how it was resolved. */
function Comments({ dispute }: { dispute: Dispute }) {
  return (
    <>
      <h4>Comments</h4>
      {dispute.comments.length === 0 && <p>No comments yet.</p>}
      <ol class="timeline">
        {dispute.comments.map((c, i) => (
          <li key={i}>
            <strong>{c.author_role}</strong> {when(c.created_at)}: {c.message}
          </li>
        ))}
      </ol>
      {dispute.resolution && (
        <p role="status">
          Resolved for {dispute.resolution.outcome}
          {dispute.resolution.customer_share_percent != null
            ? ` (customer ${dispute.resolution.customer_share_percent}%)`
            : ''}
          : {dispute.resolution.reason}
        </p>
      )}
    </>
  );
}

/** Who gets the money (for a split, the customer's share), and why: both parties see it. */
function Resolve(props: {
  id: string;
  action: ReturnType<typeof useAction>;
  resolve: (body: object, text: string) => Promise<string>;
}) {
  const [outcome, setOutcome] = useState<Outcome>('customer');
  const [share, setShare] = useState('50');
  const [reason, setReason] = useState('');
  return (
    <>
      <fieldset>
        <legend>Resolve for</legend>
        {OUTCOMES.map((value) => (
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
      <TextArea
        label="Reason for the resolution (both parties see it)"
        rows={2}
        value={reason}
        onValue={setReason}
      />
      <ConfirmButton
        label="Resolve case"
        question={`Resolve for ${outcome}${outcome === 'split' ? ` (customer ${share}%)` : ''}? This decides who gets the money.`}
        disabled={reason.trim() === ''}
        action={props.action}
        work={() =>
          props.resolve(
            outcome === 'split'
              ? { outcome, reason, customer_share_percent: Number(share) }
              : { outcome, reason },
            `Resolved ${props.id} for ${outcome}.`,
          )
        }
      />
    </>
  );
}
