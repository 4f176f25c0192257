import { toMajorUnits } from '@handoff/contracts';
import type { OutboxFields } from '@handoff/runtime';

/**
 * The stored documents of this service and their API views. Money is kept as integer minor
 * units of `currency`; times as Dates. Every document has `request_id`, `status` and
 * `deadline_at` (set on entering a waiting state, null otherwise), which the deadline sweep and
 * `deadlines.list` read across all five collections.
 */
export interface Common<S extends string> extends OutboxFields {
  _id: string;
  request_id: string;
  status: S;
  deadline_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export const iso = (d: Date | null) => d?.toISOString() ?? null;
export const major = (minor: number | null, currency: string | null) =>
  minor === null || currency === null ? null : toMajorUnits(minor, currency);
