import { deadlineFor, MILESTONE_MACHINE, type Milestone } from '@handoff/contracts';
import type { StoredDocument } from './stored-document.ts';
import { iso, major } from './view-values.ts';

export interface MilestoneDoc extends StoredDocument<Milestone['status']> {
  job_id: string;
  provider_id: string;
  title: string;
  description: string | null;
  amount_minor: number | null;
  currency: string | null;
  progress: number;
  progress_note: string | null;
  revision: number;
  submission_note: string | null;
  change_request_reason: string | null;
  approved_by: 'customer' | 'deadline' | null;
  /** Set by a staff cancel: why, and who. */
  cancel_reason?: string | null;
  cancelled_by?: string | null;
  due_at: Date | null;
  submitted_at: Date | null;
  approved_at: Date | null;
  /**
   * Whether a deliverable was ever added: false from creation until the first one, so that a
   * review looks for deliverables to follow only where there can be some. Set in the milestone's
   * turn before the deliverable is written, and never unset. Absent on milestones made before it
   * was kept: a review of those always looks.
   */
  has_deliverables?: boolean;
}

/** A new milestone in the machine's first state, not yet worked on: its deadline is the due date, if any. */
export function openMilestone(
  fields: Pick<
    MilestoneDoc,
    | '_id'
    | 'request_id'
    | 'job_id'
    | 'provider_id'
    | 'title'
    | 'description'
    | 'amount_minor'
    | 'currency'
    | 'due_at'
  >,
  at: Date,
): MilestoneDoc {
  const status = MILESTONE_MACHINE.initial;
  return {
    ...fields,
    status,
    progress: 0,
    progress_note: null,
    revision: 0,
    submission_note: null,
    change_request_reason: null,
    approved_by: null,
    deadline_at: fields.due_at ?? deadlineFor(MILESTONE_MACHINE, status, at),
    created_at: at,
    updated_at: at,
    submitted_at: null,
    approved_at: null,
    has_deliverables: false,
  };
}

export function milestoneView(doc: MilestoneDoc): Milestone {
  return {
    object: 'milestone',
    id: doc._id,
    request_id: doc.request_id,
    job_id: doc.job_id,
    provider_id: doc.provider_id,
    title: doc.title,
    description: doc.description,
    amount: major(doc.amount_minor, doc.currency),
    currency: doc.currency,
    status: doc.status,
    progress: doc.progress,
    progress_note: doc.progress_note,
    revision: doc.revision,
    submission_note: doc.submission_note,
    change_request_reason: doc.change_request_reason,
    approved_by: doc.approved_by,
    due_at: iso(doc.due_at),
    deadline_at: iso(doc.deadline_at),
    created_at: doc.created_at.toISOString(),
    updated_at: doc.updated_at.toISOString(),
    submitted_at: iso(doc.submitted_at),
    approved_at: iso(doc.approved_at),
  };
}
