import { ENGAGEMENT_LIMITS } from '@handoff/contracts';
import { LoadError } from '@handoff/web-ui';
import type { Dispute } from './api.ts';
import { Ago, Deadline } from './clock.tsx';
import { MessageForm } from './forms.tsx';
import { useRequestList, type AreaProps } from './hooks.ts';
import { Area } from './screen.tsx';
import { useSession } from './session.ts';
import { DISPUTE_STATUS, money, OUTCOME, PAYMENT_STATUS } from './words.ts';

const ANSWER = { ahead: 'Answer within', past: 'Answer overdue by' };

const COMMENT_AUTHOR: Record<Dispute['comments'][number]['author_role'], string> = {
  customer: 'The customer',
  provider: 'You',
  staff: 'Handoff staff',
};

/** Disputes and refund requests the customer opened on the provider's work. */
export function DisputesArea(props: AreaProps) {
  const { now } = props;
  const disputes = useRequestList(props, (client, id) => client.disputes.list({ request_id: id }));
  if (!disputes.error && (disputes.data ?? []).length === 0) return null;
  return (
    <Area id="disputes" title="Disputes">
      <LoadError error={disputes.error} />
      <ul class="cards">
        {(disputes.data ?? []).map((dispute) => (
          <DisputeCard key={dispute.id} dispute={dispute} now={now} onChanged={disputes.reload} />
        ))}
      </ul>
    </Area>
  );
}

function DisputeCard(props: { dispute: Dispute; now: number; onChanged: () => void }) {
  const { dispute, now } = props;
  const { client } = useSession();
  const open = dispute.status === 'open' || dispute.status === 'under_review';
  const headingId = `dispute-${dispute.id}`;
  return (
    <li class="card" aria-labelledby={headingId}>
      <h3 id={headingId}>
        {dispute.kind === 'refund' ? 'Refund request' : 'Dispute'}
        {dispute.amount !== null && ` for ${money(dispute.amount, dispute.currency ?? 'USD')}`}
      </h3>
      <p class="meta">
        <span class="status">{DISPUTE_STATUS[dispute.status]}</span>
        <span>
          Opened <Ago at={dispute.created_at} now={now} />
        </span>
        {dispute.status === 'open' && dispute.deadline_at && (
          <span>
            <Deadline at={dispute.deadline_at} words={ANSWER} now={now} />, then Handoff staff
            review it
          </span>
        )}
      </p>
      <p class="words">{dispute.reason}</p>
      {dispute.comments.length > 0 && (
        <ol class="messages">
          {dispute.comments.map((entry, index) => (
            <li
              key={index}
              class={`message ${entry.author_role === 'provider' ? 'ours' : 'theirs'}`}
            >
              <p class="by">
                <strong>{COMMENT_AUTHOR[entry.author_role]}</strong>{' '}
                <Ago at={entry.created_at} now={now} />
              </p>
              <p class="text">{entry.message}</p>
            </li>
          ))}
        </ol>
      )}
      {dispute.resolution && (
        <div class="callout">
          <p>
            <strong>Resolved {OUTCOME[dispute.resolution.outcome]}</strong>
            {dispute.resolution.outcome === 'split' &&
              dispute.resolution.customer_share_percent !== null &&
              ` (${dispute.resolution.customer_share_percent}% to the customer)`}
          </p>
          <p class="words">{dispute.resolution.reason}</p>
        </div>
      )}
      {open && (
        <MessageForm
          draft={`comment.${dispute.id}`}
          words={{ label: 'Your answer', empty: 'Write your comment first.', send: 'Add comment' }}
          rows={3}
          maxLength={ENGAGEMENT_LIMITS.text}
          onSend={async (message) => {
            await client.disputes.comment(dispute.id, { message });
            props.onChanged();
            return 'Comment added.';
          }}
        />
      )}
    </li>
  );
}

/** What has been paid on the job, and what is on its way. */
export function PaymentsArea(props: AreaProps) {
  const { now } = props;
  const payments = useRequestList(props, (client, id) => client.requests.payments(id));
  const list = payments.data ?? [];
  const paid = list.filter((payment) => payment.status === 'completed');
  const currencies = [...new Set(paid.map((payment) => payment.currency))];
  return (
    <Area id="payments" title="Payments">
      <LoadError error={payments.error} />
      {payments.data !== null && list.length === 0 && (
        <p class="hint">
          No payments yet. The customer’s side asks for a payment, Handoff approves it, and you see
          it here.
        </p>
      )}
      {paid.length > 0 && (
        <p class="summary">
          Paid to you so far:{' '}
          {currencies
            .map((currency) =>
              money(
                paid
                  .filter((payment) => payment.currency === currency)
                  .reduce((sum, payment) => sum + payment.amount, 0),
                currency,
              ),
            )
            .join(' and ')}
        </p>
      )}
      {list.length > 0 && (
        <table>
          <caption class="visually-hidden">Payments, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Amount</th>
              <th scope="col">Status</th>
              <th scope="col">When</th>
            </tr>
          </thead>
          <tbody>
            {list.map((payment) => (
              <tr key={payment.id}>
                <td>{money(payment.amount, payment.currency)}</td>
                <td>
                  {PAYMENT_STATUS[payment.status]}
                  {payment.status === 'failed' && payment.failure_reason && (
                    <span class="hint"> ({payment.failure_reason.replace(/_/g, ' ')})</span>
                  )}
                </td>
                <td>
                  {payment.status === 'completed' && payment.completed_at ? (
                    <>
                      Paid <Ago at={payment.completed_at} now={now} />
                    </>
                  ) : payment.status === 'pending' && payment.deadline_at ? (
                    <Deadline
                      at={payment.deadline_at}
                      words={{ ahead: 'expected within', past: 'late by' }}
                      now={now}
                    />
                  ) : (
                    <Ago at={payment.updated_at} now={now} />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Area>
  );
}
