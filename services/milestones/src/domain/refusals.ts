import { BusError } from '@handoff/bus';
import type { ConflictCode, NotFoundCode } from '@handoff/contracts';

// The refusals of this service that are not state moves (those are `invalidTransition`'s): what
// is missing, a rule of the resource, bad input the schemas cannot see. Each is a code of the
// catalogue that the gateway answers with as it is.

/**
 * The answer for each resource of this service that is missing or that the caller may not see
 * (the same answer: no existence oracle).
 */
export const NOT_FOUND = {
  proposal: 'proposal_not_found',
  job: 'job_not_found',
  milestone: 'milestone_not_found',
  deliverable: 'deliverable_not_found',
  dispute: 'dispute_not_found',
} as const satisfies Record<string, NotFoundCode>;

export const notFound = (resource: keyof typeof NOT_FOUND) =>
  new BusError(NOT_FOUND[resource], `No such ${resource}.`);

/** A guard that is not a state move: HTTP 409 with `code`. */
export const conflict = (
  code: ConflictCode,
  message: string,
  details: Record<string, unknown> = {},
) => new BusError(code, message, { details });

/** Bad input the schema cannot see, pointing at the field (problem+json `errors`). */
export function invalid(pointer: string, code: string, detail: string): BusError {
  return new BusError('validation_failed', `${pointer.slice(1)}: ${detail}`, {
    details: { errors: [{ pointer, code, detail }] },
  });
}
