import { ActionButton, OutcomeLine } from '@handoff/web-ui';
import type { Deliverable, Milestone } from './api.ts';
import { Ago, Deadline } from './clock.tsx';
import { useAction, useNotice } from './hooks.ts';
import { AttachedFiles } from './files.tsx';
import { AddWork, ReportProgress, Submit } from './milestone-forms.tsx';
import { useSession } from './session.ts';
import { DELIVERABLE_STATUS, MILESTONE_STATUS, money, webLink } from './words.ts';

/** A milestone of the job with the work handed in on it. */
export interface Step {
  milestone: Milestone;
  deliverables: Deliverable[];
}

const REVIEW = { ahead: 'approved automatically in', past: 'review overdue by' };

/** One milestone of the job: where it stands, its work, and what the provider can do next. */
export function MilestoneCard(props: {
  step: Step;
  number: number;
  currency: string;
  jobActive: boolean;
  now: number;
  onChanged: () => void;
}) {
  const { milestone, deliverables } = props.step;
  const { now } = props;
  const working =
    props.jobActive && (milestone.status === 'open' || milestone.status === 'changes_requested');
  const notice = useNotice(milestone.status);
  /** Shows `text` while the milestone is in `expected` (its state now, unless said). */
  const changed = (text: string, expected: string = milestone.status) => {
    notice.show(text, expected);
    props.onChanged();
  };
  const dueAt = milestone.due_at ?? milestone.deadline_at;
  const headingId = `milestone-${milestone.id}`;
  return (
    <li class="card milestone" aria-labelledby={headingId}>
      <h3 id={headingId}>
        {props.number}. {milestone.title}
      </h3>
      <p class="meta">
        <span class={`status ${milestone.status}`}>{MILESTONE_STATUS[milestone.status]}</span>
        {milestone.amount !== null && (
          <span>{money(milestone.amount, milestone.currency ?? props.currency)}</span>
        )}
        {working && dueAt && (
          <span>
            <Deadline at={dueAt} now={now} />
          </span>
        )}
        {milestone.status === 'submitted' && milestone.deadline_at && (
          <span>
            Unless the customer reviews it first:{' '}
            <Deadline at={milestone.deadline_at} words={REVIEW} now={now} />
          </span>
        )}
        {milestone.status === 'approved' && milestone.approved_at && (
          <span>
            {milestone.approved_by === 'deadline' ? 'Approved automatically' : 'Approved'}{' '}
            <Ago at={milestone.approved_at} now={now} />
          </span>
        )}
      </p>
      {milestone.description && <p class="words">{milestone.description}</p>}
      {milestone.status === 'changes_requested' && milestone.change_request_reason && (
        <div class="callout">
          <p>
            <strong>The customer asked for changes:</strong>
          </p>
          <p class="words">{milestone.change_request_reason}</p>
        </div>
      )}
      {milestone.status !== 'approved' && milestone.status !== 'cancelled' && (
        <p class="progress-line">
          <label>
            Progress{' '}
            <progress max={100} value={milestone.progress}>
              {milestone.progress}%
            </progress>{' '}
            {milestone.progress}%
          </label>
          {milestone.progress_note && <span class="hint"> · {milestone.progress_note}</span>}
        </p>
      )}
      <Links
        deliverables={deliverables}
        canWithdraw={working}
        onChanged={() => changed('The work is withdrawn.')}
      />
      {working && (
        <>
          <ReportProgress milestone={milestone} onDone={() => changed('Progress saved.')} />
          <AddWork milestone={milestone} onDone={() => changed('Your work is added.')} />
          <Submit
            milestone={milestone}
            onDone={() =>
              changed(
                'Submitted. Handoff emails you when the customer approves it or asks for changes.',
              )
            }
          />
        </>
      )}
      <OutcomeLine outcome={notice.outcome} />
    </li>
  );
}

function Links(props: {
  deliverables: Deliverable[];
  canWithdraw: boolean;
  onChanged: () => void;
}) {
  const { client } = useSession();
  const withdraw = useAction();
  const shown = props.deliverables.filter((deliverable) => deliverable.status !== 'withdrawn');
  if (shown.length === 0) return <p class="hint">No work handed in yet.</p>;
  return (
    <>
      <ul class="links">
        {shown.map((deliverable) => (
          <li key={deliverable.id}>
            {deliverable.url && webLink(deliverable.url) ? (
              <a href={deliverable.url} rel="noopener noreferrer" target="_blank">
                {deliverable.title}
              </a>
            ) : (
              deliverable.title
            )}{' '}
            <span class="hint">({DELIVERABLE_STATUS[deliverable.status]})</span>
            {props.canWithdraw && deliverable.status === 'submitted' && (
              <ActionButton
                class="quiet small"
                label={
                  <>
                    Withdraw<span class="visually-hidden"> {deliverable.title}</span>
                  </>
                }
                action={withdraw}
                work={async () => {
                  await client.deliverables.withdraw(deliverable.id);
                  props.onChanged();
                  return null;
                }}
              />
            )}
            <AttachedFiles files={deliverable.files} label={`Files of ${deliverable.title}`} />
          </li>
        ))}
      </ul>
      <OutcomeLine outcome={withdraw.outcome} />
    </>
  );
}
