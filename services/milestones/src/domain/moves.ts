import { BusError } from '@handoff/bus';
import {
  trimmedText,
  type ConflictCode,
  type EventType,
  type Party,
  type StateMachine,
} from '@handoff/contracts';
import { domainEvent, type Move, type MovingDocument, type OutboxMessage } from '@handoff/runtime';

// What every resource of this service shares: errors, text and money checks, what a party may
// see, and the shape of a move (`handlers/moves.ts` makes it, the one path of every state change).

export const notFound = (resource: string) =>
  new BusError('not_found', `No such ${resource.replaceAll('_', ' ')}.`);

/** A guard that is not a state move: HTTP 409 with `code`. */
export const conflict = (
  code: ConflictCode,
  message: string,
  details: Record<string, unknown> = {},
) => new BusError('conflict', message, { details: { code, ...details } });

/** Bad input the schema cannot see, pointing at the field (problem+json `errors`). */
export function invalid(pointer: string, code: string, detail: string): BusError {
  return new BusError('validation_failed', `${pointer.slice(1)}: ${detail}`, {
    details: { errors: [{ pointer, code, detail }] },
  });
}

/** Free text the bus carries as a plain string: trimmed, not blank, at most `max` characters. */
export function text(value: string, max: number, pointer: string): string {
  const parsed = trimmedText(max).safeParse(value);
  if (parsed.success) return parsed.data;
  throw invalid(pointer, 'invalid_text', parsed.error.issues[0]?.message ?? 'invalid text');
}

/** Amounts of a job's work are in the job's currency. */
export function jobCurrency(given: string | undefined, job: { currency: string }): string {
  if (given !== undefined && given !== job.currency) {
    throw invalid(
      '/currency',
      'currency_mismatch',
      `the job is in ${job.currency}; give the amount in ${job.currency}.`,
    );
  }
  return job.currency;
}

export function partySees(
  party: Party,
  doc: { request_id: string; provider_id: string | null },
): boolean {
  switch (party.role) {
    case 'customer':
      return doc.request_id === party.request_id;
    case 'provider':
      return doc.provider_id === party.provider_id;
    case 'staff':
      return true;
  }
}

/** The messages that announce a new resource: the machine's `created_event`, if it has one. */
export function creationMessages<S extends string, A extends string>(
  machine: StateMachine<S, A, EventType>,
  requestId: string,
  view: Record<string, unknown>,
): OutboxMessage[] {
  return machine.created_event ? [domainEvent(machine.created_event, requestId, view)] : [];
}

/** The fields every document of this service that moves through a state machine has. */
export interface Moving<S extends string> extends MovingDocument<S> {
  request_id: string;
  deadline_at: Date | null;
  updated_at: Date;
}

export type MoveSpec<D extends Moving<S>, S extends string, A extends string> = Omit<
  Move<D, S, A, EventType>,
  'announce' | 'audit' | 'visible'
> & {
  /** Whether the caller may act on the document at all; otherwise `not_found`. */
  visible: (doc: D) => boolean;
  /**
   * The staff member who acts: the move is then recorded in the audit log, with the resource
   * before and after, through the same outbox message (or an audit-only one without an event).
   */
  actor?: string;
  /** The call id of the staff call (its `Request-Id`), kept in the audit entry; null: no call. */
  call_id?: string | null;
};

/** A move of one of this service's resources, whose collection, machine and view `resourcesOf` gives. */
export type ResourceMove<D extends Moving<string>, A extends string> =
  D extends Moving<infer S> ? Omit<MoveSpec<D, S, A>, 'collection' | 'machine' | 'view'> : never;
