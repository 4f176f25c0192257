import {
  all,
  type Currency,
  type Deliverable,
  type Job,
  type Milestone,
  type RequestDetail,
} from './api.ts';
import {
  Ago,
  Area,
  ConfirmButton,
  Deadline,
  Field,
  LoadError,
  OutcomeLine,
  useAction,
  useDraftForm,
  useLoad,
  useNotice,
  useSession,
} from './ui.tsx';
import { DELIVERABLE_STATUS, JOB_STATUS, MILESTONE_STATUS, money, webLink } from './words.ts';

const REVIEW = { ahead: 'approved automatically in', past: 'review overdue by' };

/** The job the customer's acceptance started, with its milestones and their links. */
export function WorkArea(props: { request: RequestDetail; tick: number; now: number }) {
  const { request, tick, now } = props;
  const { client } = useSession();
  const jobs = useLoad(
    async () =>
      (await all(client.jobs.list({ request_id: request.id }))).sort(
        (a, b) =>
          Number(b.status === 'active') - Number(a.status === 'active') ||
          b.created_at.localeCompare(a.created_at),
      ),
    [request.id, tick],
  );
  const job = jobs.data?.[0];
  if (!job) {
    return jobs.error ? (
      <Area id="job" title="The job">
        <LoadError error={jobs.error} />
      </Area>
    ) : null;
  }
  return <JobView job={job} tick={tick} now={now} onChanged={jobs.reload} />;
}

interface Step {
  milestone: Milestone;
  deliverables: Deliverable[];
}

function JobView(props: { job: Job; tick: number; now: number; onChanged: () => void }) {
  const { job, now } = props;
  const { client } = useSession();
  const work = useLoad(async (): Promise<Step[]> => {
    // The request's deliverables in one list, rather than one list per milestone.
    const [milestones, links] = await Promise.all([
      all(client.milestones.list({ job_id: job.id })),
      all(client.deliverables.list({ request_id: job.request_id })),
    ]);
    return milestones
      .sort((a, b) => a.created_at.localeCompare(b.created_at))
      .map((milestone) => ({
        milestone,
        deliverables: links.filter((link) => link.milestone_id === milestone.id),
      }));
  }, [job.id, props.tick]);
  const complete = useAction();
  const steps = work.data;
  const active = job.status === 'active';
  const done =
    steps !== null &&
    steps.every(({ milestone }) => ['approved', 'cancelled'].includes(milestone.status));
  return (
    <Area id="job" title="The job">
      <p class="meta">
        <span class="status">{JOB_STATUS[job.status]}</span>
        <span>{money(job.amount, job.currency)}</span>
        <span>
          Started <Ago at={job.created_at} now={now} />
        </span>
        {active && job.deadline_at && (
          <span>
            Finish: <Deadline at={job.deadline_at} now={now} />
          </span>
        )}
      </p>
      {job.status === 'cancelled' && job.cancel_reason && (
        <p class="callout">Cancelled: {job.cancel_reason}</p>
      )}
      <LoadError error={work.error} />
      {steps === null && !work.error && <p role="status">Loading the milestones…</p>}
      {steps !== null && steps.length === 0 && (
        <p class="hint">This job has no milestones. Add one for each part the customer approves.</p>
      )}
      {steps !== null && steps.length > 0 && (
        <ol class="milestones">
          {steps.map((step, index) => (
            <MilestoneCard
              key={step.milestone.id}
              step={step}
              number={index + 1}
              currency={job.currency}
              jobActive={active}
              now={now}
              onChanged={work.reload}
            />
          ))}
        </ol>
      )}
      {active && <AddMilestone job={job} onAdded={work.reload} />}
      {active && done && (steps?.length ?? 0) > 0 && (
        <div class="finish">
          <p>Every milestone is approved. When the work is all done, complete the job.</p>
          <ConfirmButton
            label="Complete the job"
            question="Complete the whole job? The request is then closed, and nothing more can be added."
            confirmLabel="Yes, complete it"
            primary
            disabled={complete.busy}
            onConfirm={() =>
              void complete.run(async () => {
                await client.jobs.complete(job.id);
                props.onChanged();
                return 'The job is complete. Thank you!';
              })
            }
          />
        </div>
      )}
      <OutcomeLine outcome={complete.outcome} />
    </Area>
  );
}

function MilestoneCard(props: {
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
        onChanged={() => changed('The link is withdrawn.')}
      />
      {working && (
        <>
          <ReportProgress milestone={milestone} onDone={() => changed('Progress saved.')} />
          <AddLink milestone={milestone} onDone={() => changed('Link added.')} />
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
  if (shown.length === 0) return <p class="hint">No links to your work yet.</p>;
  return (
    <>
      <ul class="links">
        {shown.map((deliverable) => (
          <li key={deliverable.id}>
            {webLink(deliverable.url) ? (
              <a href={deliverable.url} rel="noopener noreferrer" target="_blank">
                {deliverable.title}
              </a>
            ) : (
              deliverable.title
            )}{' '}
            <span class="hint">({DELIVERABLE_STATUS[deliverable.status]})</span>
            {props.canWithdraw && deliverable.status === 'submitted' && (
              <button
                type="button"
                class="quiet small"
                disabled={withdraw.busy}
                onClick={() =>
                  void withdraw.run(async () => {
                    await client.deliverables.withdraw(deliverable.id);
                    props.onChanged();
                    return null;
                  })
                }
              >
                Withdraw<span class="visually-hidden"> {deliverable.title}</span>
              </button>
            )}
          </li>
        ))}
      </ul>
      <OutcomeLine outcome={withdraw.outcome} />
    </>
  );
}

function ReportProgress(props: { milestone: Milestone; onDone: () => void }) {
  const { client } = useSession();
  const { milestone } = props;
  const [form, setForm, clear] = useDraftForm(`progress.${milestone.id}`, {
    progress: String(milestone.progress),
    note: '',
  });
  const save = useAction();
  return (
    <details>
      <summary>Report progress</summary>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          const value = Number(form.progress);
          if (form.progress.trim() === '' || !Number.isInteger(value) || value < 0 || value > 100) {
            save.setOutcome({ ok: false, text: 'Enter a whole number from 0 to 100.' });
            return;
          }
          void save.run(async () => {
            const note = form.note.trim();
            await client.milestones.reportProgress(milestone.id, {
              progress: value,
              ...(note ? { note } : {}),
            });
            clear();
            props.onDone();
            return null;
          });
        }}
      >
        <Field label="Progress, in percent">
          <input
            type="number"
            min={0}
            max={100}
            step={1}
            inputMode="numeric"
            value={form.progress}
            onInput={(event) => setForm({ ...form, progress: event.currentTarget.value })}
          />
        </Field>
        <Field label="Note for the customer" hint="Optional">
          <input
            type="text"
            maxLength={2_000}
            value={form.note}
            onInput={(event) => setForm({ ...form, note: event.currentTarget.value })}
          />
        </Field>
        <OutcomeLine outcome={save.outcome} />
        <button type="submit" disabled={save.busy}>
          {save.busy ? 'Saving…' : 'Save progress'}
        </button>
      </form>
    </details>
  );
}

function AddLink(props: { milestone: Milestone; onDone: () => void }) {
  const { client } = useSession();
  const { milestone } = props;
  const [form, setForm, clear] = useDraftForm(`link.${milestone.id}`, {
    title: '',
    url: '',
    description: '',
  });
  const add = useAction();
  return (
    <details>
      <summary>Add a link to your work</summary>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          const title = form.title.trim();
          const url = form.url.trim();
          if (title === '') {
            add.setOutcome({ ok: false, text: 'Give the link a title.' });
            return;
          }
          if (!webLink(url)) {
            add.setOutcome({
              ok: false,
              text: 'Enter the full address of your work, starting with https://',
            });
            return;
          }
          void add.run(async () => {
            const description = form.description.trim();
            await client.milestones.addDeliverable(milestone.id, {
              title,
              url,
              ...(description ? { description } : {}),
            });
            clear();
            props.onDone();
            return null;
          });
        }}
      >
        <Field label="Link title">
          <input
            type="text"
            maxLength={200}
            value={form.title}
            onInput={(event) => setForm({ ...form, title: event.currentTarget.value })}
          />
        </Field>
        <Field label="Address (URL)">
          <input
            type="url"
            inputMode="url"
            maxLength={2_048}
            placeholder="https://"
            value={form.url}
            onInput={(event) => setForm({ ...form, url: event.currentTarget.value })}
          />
        </Field>
        <Field label="What it is" hint="Optional">
          <textarea
            rows={2}
            maxLength={5_000}
            value={form.description}
            onInput={(event) => setForm({ ...form, description: event.currentTarget.value })}
          />
        </Field>
        <OutcomeLine outcome={add.outcome} />
        <button type="submit" disabled={add.busy}>
          {add.busy ? 'Adding…' : 'Add link'}
        </button>
      </form>
    </details>
  );
}

function Submit(props: { milestone: Milestone; onDone: () => void }) {
  const { client } = useSession();
  const { milestone } = props;
  const [form, setForm, clear] = useDraftForm(`submit.${milestone.id}`, { note: '' });
  const submit = useAction();
  const again = milestone.status === 'changes_requested';
  return (
    <form
      class="submit"
      onSubmit={(event) => {
        event.preventDefault();
        void submit.run(async () => {
          const note = form.note.trim();
          await client.milestones.submit(milestone.id, note ? { note } : {});
          clear();
          props.onDone();
          return null;
        });
      }}
    >
      <Field
        label={again ? 'What you changed' : 'Note for the customer'}
        hint="Optional: sent with the milestone for review"
      >
        <textarea
          rows={2}
          maxLength={2_000}
          value={form.note}
          onInput={(event) => setForm({ note: event.currentTarget.value })}
        />
      </Field>
      <OutcomeLine outcome={submit.outcome} />
      <button type="submit" class="primary" disabled={submit.busy}>
        {submit.busy ? 'Submitting…' : again ? 'Submit again for approval' : 'Submit for approval'}
      </button>
    </form>
  );
}

function AddMilestone(props: { job: Job; onAdded: () => void }) {
  const { client } = useSession();
  const { job } = props;
  const [form, setForm, clear] = useDraftForm(`milestone.${job.id}`, {
    title: '',
    due: '',
    amount: '',
  });
  const add = useAction();
  return (
    <details>
      <summary>Add a milestone</summary>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          const title = form.title.trim();
          if (title === '') {
            add.setOutcome({ ok: false, text: 'Give the milestone a title.' });
            return;
          }
          const amount = form.amount.trim() === '' ? undefined : Number(form.amount.trim());
          if (amount !== undefined && !(amount > 0)) {
            add.setOutcome({ ok: false, text: 'The amount must be a number above zero.' });
            return;
          }
          // The end of the chosen day, where the provider is.
          const due = form.due ? new Date(`${form.due}T23:59:00`) : undefined;
          if (due && due.getTime() <= Date.now()) {
            add.setOutcome({ ok: false, text: 'Choose a due date in the future.' });
            return;
          }
          void add.run(async () => {
            await client.jobs.addMilestone(job.id, {
              title,
              ...(due ? { due_at: due.toISOString() } : {}),
              ...(amount === undefined ? {} : { amount, currency: job.currency as Currency }),
            });
            clear();
            props.onAdded();
            return 'Milestone added.';
          });
        }}
      >
        <Field label="Milestone title">
          <input
            type="text"
            maxLength={200}
            value={form.title}
            onInput={(event) => setForm({ ...form, title: event.currentTarget.value })}
          />
        </Field>
        <Field label="Due date" hint="Optional">
          <input
            type="date"
            value={form.due}
            onInput={(event) => setForm({ ...form, due: event.currentTarget.value })}
          />
        </Field>
        <Field label={`Amount in ${job.currency}`} hint="Optional">
          <input
            type="text"
            inputMode="decimal"
            value={form.amount}
            onInput={(event) => setForm({ ...form, amount: event.currentTarget.value })}
          />
        </Field>
        <OutcomeLine outcome={add.outcome} />
        <button type="submit" disabled={add.busy}>
          {add.busy ? 'Adding…' : 'Add milestone'}
        </button>
      </form>
    </details>
  );
}
