import { ConfirmButton, OutcomeLine, TextField, type Outcome } from '@handoff/web-ui';
import { useState } from 'preact/hooks';
import type { Payment, PaymentList, PaymentRequest, PaymentRequestList, StaffApi } from './api.ts';
import { useAction, useLoad } from './hooks.ts';
import type { Go } from './navigation.ts';
import { Cards } from './screens.tsx';
import { money, ReasonedConfirm, RequestLink, when } from './ui.tsx';

/** What a card acts with: the API, the way to a request, and where a decision is reported. */
interface CardProps {
  api: StaffApi;
  go: Go;
  done: (text: string) => void;
}

/** A staff decision: posts `body` to `path`, then reports `text` to the list and the card. */
const decision = (props: CardProps, path: string, body: unknown, text: string) => async () => {
  await props.api.post(path, body);
  props.done(text);
  return text;
};

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
  const card: CardProps = {
    api,
    go,
    done(text) {
      setNotice({ ok: true, text });
      requests.reload();
      payments.reload();
    },
  };
  return (
    <section aria-labelledby="payments-title">
      <h2 id="payments-title">Payments</h2>
      <OutcomeLine outcome={notice} />
      <h3>Payment requests waiting for approval</h3>
      <Cards
        list={requests}
        empty="None waiting."
        card={(pr) => <PaymentRequestCard key={pr.id} pr={pr as PaymentRequest} {...card} />}
      />
      <h3>Pending payments</h3>
      <Cards
        list={payments}
        empty="None pending."
        card={(payment) => <PaymentCard key={payment.id} payment={payment as Payment} {...card} />}
      />
    </section>
  );
}

function PaymentRequestCard(props: CardProps & { pr: PaymentRequest }) {
  const { pr } = props;
  const action = useAction();
  const amount = money(pr.amount, pr.currency);
  return (
    <li class="card" aria-label={`Payment request ${pr.id}`}>
      <h4>
        {amount} · {pr.description} <span class="mono muted">{pr.id}</span>
      </h4>
      <p class="muted">
        Request <RequestLink id={pr.request_id} go={props.go} /> · {when(pr.created_at)}
      </p>
      <ConfirmButton
        label="Approve payment request"
        question={`Approve ${amount}? A payment is created for the customer.`}
        action={action}
        work={decision(
          props,
          `/payment-requests/${pr.id}/approve`,
          undefined,
          `Approved payment request ${pr.id}.`,
        )}
      />
      <ReasonedConfirm
        field="Reason for rejection"
        label="Reject payment request"
        question={`Reject ${amount}?`}
        action={action}
        work={(reason) =>
          decision(
            props,
            `/payment-requests/${pr.id}/reject`,
            { reason },
            `Rejected payment request ${pr.id}.`,
          )()
        }
      />
      <OutcomeLine outcome={action.outcome} errorsOnly />
    </li>
  );
}

function PaymentCard(props: CardProps & { payment: Payment }) {
  const { payment } = props;
  const [reference, setReference] = useState('');
  const action = useAction();
  const amount = money(payment.amount, payment.currency);
  return (
    <li class="card" aria-label={`Payment ${payment.id}`}>
      <h4>
        {amount} via {payment.provider} <span class="mono muted">{payment.id}</span>
      </h4>
      <p class="muted">
        Request <RequestLink id={payment.request_id} go={props.go} /> · deadline{' '}
        {when(payment.deadline_at)}
      </p>
      {payment.provider === 'manual' && (
        <>
          <TextField
            label="Reference (optional, e.g. the bank transfer)"
            value={reference}
            onValue={setReference}
          />
          <ConfirmButton
            label="Confirm payment"
            question={`Confirm ${amount} as received?`}
            action={action}
            work={decision(
              props,
              `/payments/${payment.id}/confirm`,
              reference.trim() ? { reference } : {},
              `Confirmed payment ${payment.id}.`,
            )}
          />
        </>
      )}
      <ReasonedConfirm
        field="Reason for failure"
        label="Mark payment failed"
        question={`Mark ${amount} failed?`}
        action={action}
        work={(reason) =>
          decision(
            props,
            `/payments/${payment.id}/fail`,
            { reason },
            `Marked payment ${payment.id} failed.`,
          )()
        }
      />
      <OutcomeLine outcome={action.outcome} errorsOnly />
    </li>
  );
}
