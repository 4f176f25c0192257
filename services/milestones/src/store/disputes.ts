import type { Dispute } from '@handoff/contracts';
import type { StoredDocument } from './stored-document.ts';
import { iso, major } from './view-values.ts';

export interface DisputeCommentDoc {
  author_role: 'customer' | 'provider' | 'staff';
  /** Staff's actor id, kept for the record; not shown to agents or providers. */
  author: string | null;
  message: string;
  created_at: Date;
}

export interface DisputeDoc extends StoredDocument<Dispute['status']> {
  job_id: string | null;
  milestone_id: string | null;
  provider_id: string | null;
  kind: Dispute['kind'];
  reason: string;
  amount_minor: number | null;
  currency: string | null;
  comments: DisputeCommentDoc[];
  resolution: {
    outcome: 'customer' | 'provider' | 'split';
    reason: string;
    customer_share_percent: number | null;
    resolved_by: string;
    resolved_at: Date;
  } | null;
}

export function disputeView(doc: DisputeDoc): Dispute {
  return {
    object: 'dispute',
    id: doc._id,
    request_id: doc.request_id,
    job_id: doc.job_id,
    milestone_id: doc.milestone_id,
    provider_id: doc.provider_id,
    kind: doc.kind,
    reason: doc.reason,
    amount: major(doc.amount_minor, doc.currency),
    currency: doc.currency,
    status: doc.status,
    comments: doc.comments.map((c) => ({
      author_role: c.author_role,
      message: c.message,
      created_at: c.created_at.toISOString(),
    })),
    resolution: doc.resolution && {
      outcome: doc.resolution.outcome,
      reason: doc.resolution.reason,
      customer_share_percent: doc.resolution.customer_share_percent,
      resolved_at: doc.resolution.resolved_at.toISOString(),
    },
    deadline_at: iso(doc.deadline_at),
    created_at: doc.created_at.toISOString(),
    updated_at: doc.updated_at.toISOString(),
  };
}
