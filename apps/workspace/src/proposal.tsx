import { ConfirmButton, LoadError, OutcomeLine } from '@handoff/web-ui';
import type { Proposal } from './api.ts';
import { Ago, Deadline } from './clock.tsx';
import { useAction, useNotice, useRequestList, type AreaProps } from './hooks.ts';
import { NewProposal } from './new-proposal.tsx';
import { Area } from './screen.tsx';
import { useSession } from './session.ts';
import { money, PROPOSAL_STATUS } from './words.ts';

const EXPIRES = { ahead: 'it expires in', past: 'it expired ago' };

/** The provider's proposals on the request: the open or accepted one, a form, earlier ones. */
export function ProposalArea(props: AreaProps) {
  const { request, now } = props;
  const { client } = useSession();
  const proposals = useRequestList(props, (api, id) => api.proposals.list({ request_id: id }));
  const withdraw = useAction();
  const list = proposals.data;
  const current = list?.find((p) => p.status === 'submitted' || p.status === 'accepted');
  const notice = useNotice(current?.status ?? 'none');
  const earlier = list?.filter((p) => p !== current) ?? [];
  const open = request.status === 'submitted' || request.status === 'routed';
  return (
    <Area id="proposal" title="Your proposal">
      <LoadError error={proposals.error} />
      {list === null && !proposals.error && <p role="status">Loading your proposals…</p>}
      {current && (
        <article class="card" aria-labelledby="current-proposal">
          <h3 id="current-proposal">
            {money(current.amount, current.currency)}: {PROPOSAL_STATUS[current.status]}
          </h3>
          <ProposalFacts proposal={current} now={now} />
          {current.status === 'submitted' && (
            <>
              {current.deadline_at && (
                <p>
                  If the customer does not decide,{' '}
                  <Deadline at={current.deadline_at} words={EXPIRES} now={now} />.
                </p>
              )}
              <ConfirmButton
                label="Withdraw proposal"
                question="Withdraw this proposal? The customer can no longer accept it."
                confirmLabel="Yes, withdraw it"
                action={withdraw}
                work={async () => {
                  await client.proposals.withdraw(current.id);
                  notice.show('Your proposal is withdrawn.', 'none');
                  proposals.reload();
                  return null;
                }}
              />
            </>
          )}
          {current.status === 'accepted' && current.decided_at && (
            <p>
              Accepted <Ago at={current.decided_at} now={now} />. The job is below.
            </p>
          )}
        </article>
      )}
      <OutcomeLine outcome={withdraw.outcome} />
      <OutcomeLine outcome={notice.outcome} />
      {list !== null && !current && open && request.relation !== 'engaged' && (
        <NewProposal
          request={request}
          onSent={() => {
            notice.show(
              'Your proposal is sent. Handoff emails you when the customer decides.',
              'submitted',
            );
            proposals.reload();
          }}
        />
      )}
      {list !== null && !current && !open && (
        <p class="hint">This request takes no proposals now.</p>
      )}
      {earlier.length > 0 && (
        <>
          <h3>Earlier proposals</h3>
          <ul class="plain">
            {earlier.map((proposal) => (
              <li key={proposal.id}>
                {money(proposal.amount, proposal.currency)}: {PROPOSAL_STATUS[proposal.status]}{' '}
                (sent <Ago at={proposal.created_at} now={now} />)
                {proposal.decline_reason && <> Reason given: “{proposal.decline_reason}”</>}
              </li>
            ))}
          </ul>
        </>
      )}
    </Area>
  );
}

function ProposalFacts(props: { proposal: Proposal; now: number }) {
  const { proposal } = props;
  return (
    <>
      <p class="words">{proposal.message}</p>
      <p class="meta">
        <span>
          Sent <Ago at={proposal.created_at} now={props.now} />
        </span>
        {proposal.estimated_days !== null && (
          <span>
            About {proposal.estimated_days} {proposal.estimated_days === 1 ? 'day' : 'days'} of work
          </span>
        )}
      </p>
      {proposal.milestones.length > 0 && (
        <ol class="plan">
          {proposal.milestones.map((step, index) => (
            <li key={index}>
              <strong>{step.title}</strong>
              {step.amount !== null && <> · {money(step.amount, proposal.currency)}</>}
              {step.due_in_days !== null && (
                <>
                  {' '}
                  · within {step.due_in_days} {step.due_in_days === 1 ? 'day' : 'days'} of the start
                </>
              )}
            </li>
          ))}
        </ol>
      )}
    </>
  );
}
