import { ENGAGEMENT_LIMITS } from '@handoff/contracts';
import type { Currency, Job, Milestone } from './api.ts';
import { FILES_TAKEN, FilePicker, useChosenFiles } from './attach.tsx';
import { DraftForm } from './forms.tsx';
import { useSession } from './session.ts';
import { webLink } from './words.ts';

// What a provider does on the job: add milestones, report progress on one, hand in its work (a
// link, files, or both), and submit it for the customer's approval. Each form is a draft until
// sent.

const OPTIONAL = 'Optional';

export function ReportProgress(props: { milestone: Milestone; onDone: () => void }) {
  const { client } = useSession();
  const { milestone } = props;
  return (
    <DraftForm
      draft={`progress.${milestone.id}`}
      empty={{ progress: String(milestone.progress), note: '' }}
      summary="Report progress"
      fields={[
        { name: 'progress', label: 'Progress, in percent', kind: 'percent' },
        {
          name: 'note',
          label: 'Note for the customer',
          hint: OPTIONAL,
          maxLength: ENGAGEMENT_LIMITS.note,
        },
      ]}
      check={(form) => {
        const value = Number(form.progress);
        if (form.progress.trim() === '' || !Number.isInteger(value) || value < 0 || value > 100) {
          return 'Enter a whole number from 0 to 100.';
        }
        const note = form.note.trim();
        return () =>
          client.milestones.reportProgress(milestone.id, {
            progress: value,
            ...(note ? { note } : {}),
          });
      }}
      onSent={props.onDone}
      send={{ label: 'Save progress', busyLabel: 'Saving…' }}
    />
  );
}

/** What the provider hands in on a milestone: a link to its work, files, or both. */
export function AddWork(props: { milestone: Milestone; onDone: () => void }) {
  const { client } = useSession();
  const { milestone } = props;
  const files = useChosenFiles({ milestoneId: milestone.id });
  return (
    <DraftForm
      draft={`link.${milestone.id}`}
      empty={{ title: '', url: '', description: '' }}
      summary="Add your work: a link or files"
      fields={[
        { name: 'title', label: 'Title of your work', maxLength: ENGAGEMENT_LIMITS.title },
        {
          name: 'url',
          label: 'Address (URL)',
          hint: 'Optional when you add files',
          kind: 'url',
          maxLength: ENGAGEMENT_LIMITS.url,
          placeholder: 'https://',
        },
        {
          name: 'description',
          label: 'What it is',
          hint: OPTIONAL,
          rows: 2,
          maxLength: ENGAGEMENT_LIMITS.text,
        },
      ]}
      check={(form) => {
        const title = form.title.trim();
        const url = form.url.trim();
        const attached = files.chosen.length > 0;
        if (title === '') return 'Give your work a title.';
        if (url === '' && !attached) return 'Give the address of your work, attach files, or both.';
        if (url !== '' && !webLink(url)) {
          return 'Enter the full address of your work, starting with https://';
        }
        const description = form.description.trim();
        return async () => {
          // Uploaded first; a failure keeps the form and every file for another try.
          const ids = await files.uploadAll();
          await client.milestones.addDeliverable(milestone.id, {
            title,
            ...(url ? { url } : {}),
            ...(description ? { description } : {}),
            ...(ids.length > 0 ? { files: ids } : {}),
          });
          files.clear();
        };
      }}
      onSent={props.onDone}
      send={{ label: 'Add work', busyLabel: 'Adding…' }}
    >
      {() => (
        <FilePicker
          files={files}
          label="Files of your work"
          hint={`Optional when you give an address. ${FILES_TAKEN}`}
        />
      )}
    </DraftForm>
  );
}

export function Submit(props: { milestone: Milestone; onDone: () => void }) {
  const { client } = useSession();
  const { milestone } = props;
  const again = milestone.status === 'changes_requested';
  return (
    <DraftForm
      draft={`submit.${milestone.id}`}
      empty={{ note: '' }}
      class="submit"
      fields={[
        {
          name: 'note',
          label: again ? 'What you changed' : 'Note for the customer',
          hint: 'Optional: sent with the milestone for review',
          rows: 2,
          maxLength: ENGAGEMENT_LIMITS.note,
        },
      ]}
      check={(form) => {
        const note = form.note.trim();
        return () => client.milestones.submit(milestone.id, note ? { note } : {});
      }}
      onSent={props.onDone}
      send={{
        label: again ? 'Submit again for approval' : 'Submit for approval',
        busyLabel: 'Submitting…',
        primary: true,
      }}
    />
  );
}

/** The milestone form as the API takes it, or what is wrong with it in words. */
function milestoneOf(form: { title: string; due: string; amount: string }, job: Job) {
  const title = form.title.trim();
  if (title === '') return 'Give the milestone a title.';
  const amount = form.amount.trim() === '' ? undefined : Number(form.amount.trim());
  if (amount !== undefined && !(amount > 0)) return 'The amount must be a number above zero.';
  // The end of the chosen day, where the provider is.
  const due = form.due ? new Date(`${form.due}T23:59:00`) : undefined;
  if (due && due.getTime() <= Date.now()) return 'Choose a due date in the future.';
  return {
    title,
    ...(due ? { due_at: due.toISOString() } : {}),
    ...(amount === undefined ? {} : { amount, currency: job.currency as Currency }),
  };
}

export function AddMilestone(props: { job: Job; onAdded: () => void }) {
  const { client } = useSession();
  const { job } = props;
  return (
    <DraftForm
      draft={`milestone.${job.id}`}
      empty={{ title: '', due: '', amount: '' }}
      summary="Add a milestone"
      fields={[
        { name: 'title', label: 'Milestone title', maxLength: ENGAGEMENT_LIMITS.title },
        { name: 'due', label: 'Due date', hint: OPTIONAL, kind: 'date' },
        { name: 'amount', label: `Amount in ${job.currency}`, hint: OPTIONAL, kind: 'decimal' },
      ]}
      check={(form) => {
        const body = milestoneOf(form, job);
        return typeof body === 'string' ? body : () => client.jobs.addMilestone(job.id, body);
      }}
      sent="Milestone added."
      onSent={props.onAdded}
      send={{ label: 'Add milestone', busyLabel: 'Adding…' }}
    />
  );
}
