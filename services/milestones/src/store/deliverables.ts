import type { Deliverable, FileMeta } from '@handoff/contracts';
import type { StoredDocument } from './stored-document.ts';
import { iso } from './view-values.ts';

export interface DeliverableDoc extends StoredDocument<Deliverable['status']> {
  job_id: string;
  milestone_id: string;
  provider_id: string;
  title: string;
  url: string | null;
  description: string | null;
  files?: FileMeta[];
}

export function deliverableView(doc: DeliverableDoc): Deliverable {
  return {
    object: 'deliverable',
    id: doc._id,
    request_id: doc.request_id,
    job_id: doc.job_id,
    milestone_id: doc.milestone_id,
    provider_id: doc.provider_id,
    title: doc.title,
    url: doc.url,
    description: doc.description,
    ...(doc.files?.length ? { files: doc.files } : {}),
    status: doc.status,
    deadline_at: iso(doc.deadline_at),
    created_at: doc.created_at.toISOString(),
    updated_at: doc.updated_at.toISOString(),
  };
}
