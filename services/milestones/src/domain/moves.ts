import { BusError } from '@handoff/bus';
import {
  trimmedText,
  type ConflictCode,
  type EventType,
  type Party,
  type StateMachine,
} from '@handoff/contracts';
import {
  announceToRequest,
  domainEvent,
  moveDocument,
  type Move,
  type MovingDocument,
  type OutboxMessage,
} from '@handoff/runtime';
import { paginate, type PageQuery } from '@handoff/store';
import type { Collection, Document, Filter, WithId } from 'mongodb';
import type { MilestonesDeps } from './deps.ts';

// What every resource of this service shares: errors, text and money checks, party scoping,
// and `move`, the one path of every state change.

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

/** What a party may list: its own request's, its own provider's, or (staff) everything. */
export function partyFilter(party: Party): { request_id?: string; provider_id?: string } {
  switch (party.role) {
    case 'customer':
      return { request_id: party.request_id };
    case 'provider':
      return { provider_id: party.provider_id };
    case 'staff':
      return {};
  }
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

/** The document `id` if `party` may see it; `not_found` otherwise (no existence oracle). */
/** One page of a list, newest first, as the resources' views. */
export async function listPage<D extends Document & { _id: string }, V>(
  collection: Collection<D>,
  filter: Filter<D>,
  page: PageQuery,
  view: (doc: WithId<D>) => V,
) {
  const found = await paginate(collection, filter, page);
  return { object: 'list' as const, data: found.data.map(view), has_more: found.has_more };
}

export async function findFor<D extends { _id: string; request_id: string }>(
  collection: Collection<D>,
  resource: string,
  id: string,
  party: Party,
  providerOf: (doc: D) => string | null,
): Promise<D> {
  const doc = (await collection.findOne({ _id: id } as Filter<D>)) as D | null;
  if (!doc || !partySees(party, { request_id: doc.request_id, provider_id: providerOf(doc) })) {
    throw notFound(resource);
  }
  return doc;
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
interface Moving<S extends string> extends MovingDocument<S> {
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
  /** The `Request-Id` of the staff call, kept in the audit entry as `call_id`. */
  call_id?: string;
};

/**
 * Moves one document along its machine through `moveDocument`: the event goes to the document's
 * request, a staff move is audited, and a follow-up that fails is logged and left for the sweep
 * (the move itself is durable by then).
 */
export function move<D extends Moving<S>, S extends string, A extends string>(
  deps: MilestonesDeps,
  spec: MoveSpec<D, S, A>,
): Promise<D> {
  const { actor, call_id, then, ...rest } = spec;
  return moveDocument(
    { store: deps.store, publish: deps.outbox.publishOrLeave },
    {
      ...rest,
      announce: announceToRequest,
      ...(actor ? { audit: { service: 'milestones', actor, call_id: call_id ?? null } } : {}),
      ...(then
        ? {
            then: (doc: D, now: Date) =>
              then(doc, now).catch((error: unknown) => {
                deps.logger.warn(
                  { err: error, resource: spec.machine.resource, id: spec.id, action: spec.action },
                  'follow-up of a move failed; left for the sweep',
                );
              }),
          }
        : {}),
    },
  );
}

const SWEEP_BATCH = 100;

/**
 * Applies the machine's `on_deadline` actions to the documents whose deadline has passed by
 * `now`, through `act` (the same domain code as the API, actor `system`). A document somebody
 * moved meanwhile is skipped; other failures are logged and left for the next sweep.
 */
export async function sweepDeadlines<D extends Moving<S>, S extends string, A extends string>(
  deps: MilestonesDeps,
  collection: Collection<D>,
  machine: StateMachine<S, A>,
  now: Date,
  act: (id: string, action: A) => Promise<unknown>,
): Promise<number> {
  let moved = 0;
  for (const state of machine.states) {
    const action = machine.waiting[state]?.on_deadline;
    if (!action) continue;
    const failed = new Set<string>();
    for (;;) {
      const due = (await collection
        .find({
          status: state,
          deadline_at: { $lte: now },
          _id: { $nin: [...failed] },
        } as Filter<D>)
        .sort({ deadline_at: 1, _id: 1 })
        .limit(SWEEP_BATCH)
        .project<{ _id: string }>({ _id: 1 })
        .toArray()) as { _id: string }[];
      for (const { _id } of due) {
        try {
          await act(_id, action);
          moved += 1;
        } catch (error) {
          failed.add(_id);
          const code = error instanceof BusError ? error.code : undefined;
          if (code !== 'invalid_state_transition' && code !== 'conflict') {
            deps.logger.error(
              { err: error, resource: machine.resource, id: _id, action },
              'deadline action failed; left for the next sweep',
            );
          }
        }
      }
      if (due.length < SWEEP_BATCH) break;
    }
  }
  return moved;
}
