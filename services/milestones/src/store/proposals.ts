import { toMajorUnits, type Proposal } from '@handoff/contracts';
import { OPEN_STATES } from '../domain/proposals.ts';
import type { StoredDocument } from './stored-document.ts';
import { iso, major } from './view-values.ts';

export interface PlanItemDoc {
  title: string;
  description: string | null;
  amount_minor: number | null;
  due_in_days: number | null;
}

export interface ProposalDoc extends StoredDocument<Proposal['status']> {
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
  /**
   * What the proposal holds in its request, under a unique index ({@link proposalSlot}): the
   * provider's place while it is open, the request once accepted, nothing (its own id) once
   * declined, withdrawn or expired. Absent on proposals stored before it until
   * `adoptProposalSlots` has run.
   */
  slot?: string;
}

/**
 * The slot of a proposal in `status`. While open: `<request_id>/<provider_id>`, so a provider
 * has one open proposal per request. Accepted: `<request_id>`, so a request has one accepted
 * proposal, and a new proposal finds it by one exact lookup. Otherwise its own id, which holds
 * nothing. The unique index enforces both rules on every replica, and each check reads at most
 * one document instead of the request's proposals (FerretDB decodes every document a query
 * reads; a request routed to 50 providers may have 50).
 */
export function proposalSlot(
  doc: Pick<ProposalDoc, '_id' | 'request_id' | 'provider_id'>,
  status: Proposal['status'],
): string {
  if (OPEN_STATES.includes(status)) return openSlot(doc.request_id, doc.provider_id);
  return status === 'accepted' ? doc.request_id : doc._id;
}

/** The slot of a provider's open proposal on a request. */
export function openSlot(requestId: string, providerId: string): string {
  return `${requestId}/${providerId}`;
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
