import { ConfirmButton, LoadError, OutcomeLine } from '@handoff/web-ui';
import { all, type Job } from './api.ts';
import { Ago, Deadline } from './clock.tsx';
import { useAction, useLoad, type AreaProps } from './hooks.ts';
import { AddMilestone } from './milestone-forms.tsx';
import { MilestoneCard, type Step } from './milestone.tsx';
import { Area } from './screen.tsx';
import { useSession } from './session.ts';
import { JOB_STATUS, money } from './words.ts';

/** The job the customer's acceptance started, with its milestones and their links. */
export function WorkArea(props: AreaProps) {
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
            action={complete}
            work={async () => {
              await client.jobs.complete(job.id);
              props.onChanged();
              return 'The job is complete. Thank you!';
            }}
          />
        </div>
      )}
      <OutcomeLine outcome={complete.outcome} />
    </Area>
  );
}
