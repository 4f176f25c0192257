import { toMajorUnits, type Job } from '@handoff/contracts';
import type { StoredDocument } from './stored-document.ts';
import { iso } from './view-values.ts';

export interface JobDoc extends StoredDocument<Job['status']> {
  proposal_id: string;
  provider_id: string;
  amount_minor: number;
  currency: string;
  cancel_reason: string | null;
  cancelled_by: string | null;
  completed_at: Date | null;
}

export function jobView(doc: JobDoc): Job {
  return {
    object: 'job',
    id: doc._id,
    request_id: doc.request_id,
    proposal_id: doc.proposal_id,
    provider_id: doc.provider_id,
    amount: toMajorUnits(doc.amount_minor, doc.currency),
    currency: doc.currency,
    status: doc.status,
    cancel_reason: doc.cancel_reason,
    deadline_at: iso(doc.deadline_at),
    created_at: doc.created_at.toISOString(),
    updated_at: doc.updated_at.toISOString(),
    completed_at: iso(doc.completed_at),
  };
}
