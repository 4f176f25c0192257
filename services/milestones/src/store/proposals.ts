import { toMajorUnits, type Proposal } from '@handoff/contracts';
import { type Common, iso, major } from './documents.ts';

export interface PlanItemDoc {
  title: string;
  description: string | null;
  amount_minor: number | null;
  due_in_days: number | null;
}

export interface ProposalDoc extends Common<Proposal['status']> {
  provider_id: string;
  provider_name: string;
  message: string;
  amount_minor: number;
  currency: string;
  estimated_days: number | null;
  milestones: PlanItemDoc[];
  job_id: string | null;
  /** The milestone ids the acceptance planned, fixed in the same write as the acceptance. */
  planned_milestone_ids: string[];
  /** True once the job and planned milestones of an accepted proposal exist. */
  materialized: boolean;
  decline_reason: string | null;
  decided_at: Date | null;
}

export function proposalView(doc: ProposalDoc): Proposal {
  return {
    object: 'proposal',
    id: doc._id,
    request_id: doc.request_id,
    provider_id: doc.provider_id,
    provider_name: doc.provider_name,
    message: doc.message,
    amount: toMajorUnits(doc.amount_minor, doc.currency),
    currency: doc.currency,
    estimated_days: doc.estimated_days,
    milestones: doc.milestones.map((item) => ({
      title: item.title,
      description: item.description,
      amount: major(item.amount_minor, doc.currency),
      due_in_days: item.due_in_days,
    })),
    status: doc.status,
    job_id: doc.job_id,
    decline_reason: doc.decline_reason,
    deadline_at: iso(doc.deadline_at),
    created_at: doc.created_at.toISOString(),
    updated_at: doc.updated_at.toISOString(),
    decided_at: iso(doc.decided_at),
  };
}
