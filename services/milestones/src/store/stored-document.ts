import type { OutboxFields } from '@handoff/runtime';

/**
 * What every stored document of this service has. Money is kept as integer minor units of
 * `currency`; times as Dates. `request_id`, `status` and `deadline_at` (set on entering a waiting
 * state, null otherwise) are what the deadline sweep and `deadlines.list` read across all five
 * collections.
 */
export interface StoredDocument<S extends string> extends OutboxFields {
  _id: string;
  request_id: string;
  status: S;
  deadline_at: Date | null;
  created_at: Date;
  updated_at: Date;
}
