import { BusError } from '@handoff/bus';
import {
  deadlineFor,
  trimmedText,
  type EventType,
  type Actor,
  type Party,
  type StateMachine,
} from '@handoff/contracts';
import {
  applyMove,
  changedMeanwhile,
  auditMessage,
  domainEvent,
  type AuditRecord,
  type OutboxMessage,
  pushOutbox,
  type OutboxFields,
} from '@handoff/runtime';
import type { Collection, Filter, UpdateFilter } from 'mongodb';
import type { MilestonesDeps } from './deps.ts';

// What every resource of this service shares: errors, text and money checks, party scoping,
// and `move`, the one path of every state change.

export const notFound = (resource: string) =>
  new BusError('not_found', `No such ${resource.replaceAll('_', ' ')}.`);

/** A guard that is not a state move: HTTP 409 with `code`. */
export const conflict = (code: string, message: string, details: Record<string, unknown> = {}) =>
  new BusError('conflict', message, { details: { code, ...details } });

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

/** The fields every document that moves through a state machine has. */
interface Moving<S extends string> extends OutboxFields {
  _id: string;
  request_id: string;
  status: S;
  deadline_at: Date | null;
  updated_at: Date;
}

export interface MoveSpec<D extends Moving<S>, S extends string, A extends string> {
  collection: Collection<D>;
  machine: StateMachine<S, A, EventType>;
  id: string;
  action: A;
  /** Whether the caller may act on the document at all; otherwise `not_found`. */
  visible: (doc: D) => boolean;
  /** Checks beyond the machine, made once the move is known to be legal (conflicts). */
  guard?: (doc: D) => void | Promise<void>;
  /** The fields the move sets besides `status`, `deadline_at` and `updated_at`. */
  change?: (doc: D, now: Date) => Partial<D>;
  view: (doc: D) => Record<string, unknown>;
  /**
   * A follow-up after the write, still in the document's turn (e.g. moving its deliverables).
   * The move is durable by then, so a failure is logged and left for the sweep to repair.
   */
  then?: (doc: D, now: Date) => Promise<void>;
  /** When the move happens (the deadline sweep passes its own `now`). */
  now?: Date;
  /**
   * The staff member who acts: the move is then recorded in the audit log, with the resource
   * before and after, through the same outbox message (or an audit-only one without an event).
   */
  actor?: string;
  /**
   * The party that acts, when one action is open to several (a dispute's comment): a refusal
   * then lists only that party's moves. Without it, the action's own actors stand for the caller.
   */
  by?: Actor;
}

/**
 * Moves one document along its machine: `applyMove` decides the next state, the machine's
 * `events[action]` the event, which is written into the document's outbox in the same
 * compare-and-set update and published after. Entering a waiting state sets `deadline_at`; a
 * move that keeps the state keeps it.
 */
export async function move<D extends Moving<S>, S extends string, A extends string>(
  deps: MilestonesDeps,
  spec: MoveSpec<D, S, A>,
): Promise<D> {
  const { collection, machine, id, action } = spec;
  const byId = { _id: id } as Filter<D>;
  const { updated, message } = await deps.store.serialize(collection, id, async () => {
    const before = (await collection.findOne(byId)) as D | null;
    if (!before || !spec.visible(before)) throw notFound(machine.resource);
    const next = applyMove(machine, before.status, action, spec.by);
    await spec.guard?.(before);
    const now = spec.now ?? new Date();
    const set = {
      ...spec.change?.(before, now),
      status: next,
      deadline_at: next === before.status ? before.deadline_at : deadlineFor(machine, next, now),
      updated_at: now,
    } as Partial<D>;
    const event = machine.events[action];
    const after = spec.view({ ...before, ...set });
    const audit: AuditRecord | undefined = spec.actor
      ? {
          actor: spec.actor,
          action: `${machine.resource}.${action}`,
          target_type: machine.resource,
          target_id: id,
          at: now,
          request_id: null,
          before: spec.view(before),
          after,
        }
      : undefined;
    const eventMessage = event ? domainEvent(event, before.request_id, after) : undefined;
    const message: OutboxMessage | undefined =
      eventMessage && audit
        ? { ...eventMessage, local: { audit } }
        : (eventMessage ?? (audit ? auditMessage('milestones', audit.action, audit) : undefined));
    const update = pushOutbox({ $set: set }, message ? [message] : []);
    // Status and updated_at make this a compare-and-set on MongoDB (a move that keeps the state
    // still changes updated_at); the serializer gives one replica on FerretDB the same guarantee.
    const updated = (await collection.findOneAndUpdate(
      { _id: id, status: before.status, updated_at: before.updated_at } as Filter<D>,
      update as unknown as UpdateFilter<D>,
      { returnDocument: 'after' },
    )) as D | null;
    if (!updated) {
      const current = (await collection.findOne(byId)) as D | null;
      throw changedMeanwhile(machine, current?.status, action);
    }
    await spec.then?.(updated, now).catch((error: unknown) => {
      deps.logger.warn(
        { err: error, resource: machine.resource, id, action },
        'follow-up of a move failed; left for the sweep',
      );
    });
    return { updated, message };
  });
  if (message) await deps.outbox.publishOrLeave(collection, id, [message]);
  return updated;
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
