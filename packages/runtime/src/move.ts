import { BusError, currentOperation } from '@handoff/bus';
import {
  deadlineFor,
  nextState,
  type Actor,
  type AUDITED_SERVICES,
  type EventType,
  type MachineEvent,
  type NotFoundCode,
  type StateMachine,
} from '@handoff/contracts';
import { byIdWhere, type Store } from '@handoff/store';
import type { Collection } from 'mongodb';
import { auditMessage, type AuditRecord } from './audit.ts';
import { domainEvent } from './events.ts';
import { applyMove, concurrentChange } from './lifecycle.ts';
import { pushOutbox, type Outbox, type OutboxFields, type OutboxMessage } from './outbox.ts';

/**
 * Lost compare-and-set writes a move reads again and retries before it answers 409
 * `concurrent_change`. Within one process the store's serializer already orders a document's
 * writes, so a write is lost only to another replica.
 */
export const MOVE_ATTEMPTS = 10;

/** What every document that moves along a machine has. */
export interface MovingDocument<S extends string> extends OutboxFields {
  _id: string;
  status: S;
  /**
   * Where the document has it, every move sets it (strictly later than before) and compares it,
   * so that a move that keeps the state is a compare-and-set too.
   */
  updated_at?: Date;
  /** Where the machine has waiting states: when the current one runs out. */
  deadline_at?: Date | null;
  /**
   * The operation (`Handoff-Operation`: a call's `Idempotency-Key`, hashed by the gateway) that
   * last moved the document, when its call named one.
   */
  last_operation?: string;
}

export interface MoveDeps {
  store: Pick<Store, 'serialize' | 'db'>;
  /**
   * How the move's message leaves once it is written: the outbox's `publishOrLeave`, or a
   * publish whose failure fails the call.
   */
  publish: Outbox['publishOrLeave'];
  /**
   * The service's outbox: a move of a document of a kept collection keeps its message in the
   * document after the publish (`keepUpdate`). Without it, every move's message is removed.
   */
  outbox?: Pick<Outbox, 'keeps' | 'keepUpdate'>;
}

/** A move that the audit log records, with the document before and after. */
export interface MoveAudit {
  service: (typeof AUDITED_SERVICES)[number];
  /** Staff's `sub`, or `system`. */
  actor: string;
  /** The call that made the move; null for sweeps and consumers. */
  call_id: string | null;
  /** How the log names the action; `<resource>.<action>` by default. */
  action?: string;
}

export interface Move<
  D extends MovingDocument<S>,
  S extends string,
  A extends string,
  E extends MachineEvent,
> {
  machine: StateMachine<S, A, E>;
  collection: Collection<D>;
  id: string;
  /** The action, or how to choose it from the document as read (a `PATCH` names a target state). */
  action: A | ((before: D) => A);
  /**
   * The party that acts, when one action is open to several (a dispute's comment): a refusal
   * then lists only that party's moves. Without it, the action's own actors stand for the caller.
   */
  by?: Actor;
  /** Whether the caller may act on the document at all; otherwise {@link notFound}. */
  visible?: (doc: D) => boolean;
  /** The code of the answer when the document is missing or not visible (`milestone_not_found`). */
  notFound: NotFoundCode;
  /** Its message (by default "No such <resource>."). */
  notFoundMessage?: string;
  /** Refusals that come before the machine's: they win over an illegal move. */
  refuse?: (doc: D) => void;
  /** The document already is where the caller wants it: answered as it is, nothing written. */
  unchanged?: (doc: D) => boolean;
  /** Checks beyond the machine, made once the move is known to be legal. */
  guard?: (doc: D) => void | Promise<void>;
  /**
   * The fields the move sets besides `status`, `updated_at` and `deadline_at`, given the document
   * before, the time of the move and the state it enters.
   */
  change?: (doc: D, now: Date, next: S) => Partial<D>;
  /** Conditions of the compare-and-set beyond the state and `updated_at` (a key not claimed yet). */
  expect?: Record<string, unknown>;
  view: (doc: D) => Record<string, unknown>;
  /** How the audit log records the document before and after, when not as `view` shows it. */
  auditView?: (doc: D) => Record<string, unknown>;
  /** The message of the action's event (`machine.events[action]`), without the audit entry. */
  announce: (type: E, after: Record<string, unknown>, before: D) => OutboxMessage;
  audit?: MoveAudit;
  /**
   * A follow-up after the write, still in the document's turn (e.g. moving its deliverables).
   * The move is durable by then; a failure fails the call, and the message is left to the sweep.
   */
  then?: (doc: D, now: Date) => Promise<void>;
  /** When the move happens (a deadline sweep passes its own clock). */
  now?: Date;
}

/** The usual announcement: a domain event of the document's request, carrying its view. */
export const announceToRequest = (
  type: EventType,
  after: Record<string, unknown>,
  before: { request_id: string },
): OutboxMessage => domainEvent(type, before.request_id, after);

/**
 * Moves one document along its machine. In the document's turn (`store.serialize`: FerretDB does
 * not apply conditional updates atomically), it reads the document, lets `applyMove` decide the
 * next state (409 `invalid_state_transition` otherwise), and writes the change with the action's
 * event (and audit entry) in the document's outbox as one compare-and-set on the state and
 * `updated_at`. Entering a waiting state sets `deadline_at`; a move that keeps the state keeps it.
 * A write lost to another writer is read again and retried, up to MOVE_ATTEMPTS times, then
 * answered with 409 `concurrent_change`. The message is published after the turn.
 */
export async function moveDocument<
  D extends MovingDocument<S>,
  S extends string,
  A extends string,
  E extends MachineEvent,
>(deps: MoveDeps, move: Move<D, S, A, E>): Promise<D> {
  const { machine, collection, id } = move;
  // The same collection as the driver can type a filter and an update of: over the fields every
  // moving document has, not over a generic one.
  const documents = deps.store.db.collection<MovingDocument<string>>(collection.collectionName);
  const keeping = deps.outbox?.keeps(collection.collectionName) ?? false;
  const operation = currentOperation();
  const { doc, message } = await deps.store.serialize(collection, id, async () => {
    for (let attempt = 0; attempt < MOVE_ATTEMPTS; attempt += 1) {
      const before = (await documents.findOne({ _id: id })) as D | null;
      if (!before || !(move.visible?.(before) ?? true)) {
        throw new BusError(
          move.notFound,
          move.notFoundMessage ?? `No such ${machine.resource.replaceAll('_', ' ')}.`,
        );
      }
      move.refuse?.(before);
      if (move.unchanged?.(before)) return { doc: before, message: undefined };
      const action = typeof move.action === 'function' ? move.action(before) : move.action;
      // This very operation moved the document already (a retry whose first answer was lost):
      // answered as it is, where the first attempt left it, rather than as an illegal move.
      if (operation !== undefined && before.last_operation === operation) {
        if (nextState(machine, before.status, action) === undefined) {
          return { doc: before, message: undefined };
        }
      }
      const next = applyMove(machine, before.status, action, move.by);
      await move.guard?.(before);
      const now = laterThan(move.now ?? new Date(), before.updated_at);
      const set: Record<string, unknown> = {
        ...move.change?.(before, now, next),
        status: next,
        ...(operation === undefined ? {} : { last_operation: operation }),
        ...(before.updated_at === undefined ? {} : { updated_at: now }),
        ...(Object.keys(machine.waiting).length === 0
          ? {}
          : {
              deadline_at:
                next === before.status
                  ? (before.deadline_at ?? null)
                  : deadlineFor(machine, next, now),
            }),
      };
      const afterDoc = { ...before, ...set } as D;
      const after = move.view(afterDoc);
      const message = moveMessage(move, action, { before, afterDoc }, after, now);
      const messages = message ? [message] : [];
      const kept = keeping
        ? deps.outbox?.keepUpdate(collection.collectionName, before, { $set: set }, messages)
        : undefined;
      const updated = (await documents.findOneAndUpdate(
        byIdWhere<MovingDocument<string>>(id, {
          ...move.expect,
          status: before.status,
          ...(before.updated_at === undefined ? {} : { updated_at: before.updated_at }),
          ...kept?.unchanged,
        }),
        kept ? kept.update : pushOutbox({ $set: set }, messages),
        { returnDocument: 'after' },
      )) as D | null;
      // Another writer changed the document between the read and the write: read it again.
      if (!updated) continue;
      await move.then?.(updated, now);
      return { doc: updated, message };
    }
    throw concurrentChange(machine.resource);
  });
  if (message) await deps.publish(collection, id, [message]);
  return doc;
}

/** `now`, or just after `previous` when the clock has not passed it (the compare-and-set token). */
function laterThan(now: Date, previous: Date | undefined): Date {
  return previous === undefined || now > previous ? now : new Date(previous.getTime() + 1);
}

/**
 * The message a move writes beside its change: the machine's event for the action (with the
 * audit entry riding along), or, when the action has none, an audit-stream message alone.
 */
function moveMessage<
  D extends MovingDocument<S>,
  S extends string,
  A extends string,
  E extends MachineEvent,
>(
  move: Move<D, S, A, E>,
  action: A,
  { before, afterDoc }: { before: D; afterDoc: D },
  after: Record<string, unknown>,
  now: Date,
): OutboxMessage | undefined {
  const { machine, audit } = move;
  const record: AuditRecord | undefined = audit && {
    actor: audit.actor,
    action: audit.action ?? `${machine.resource}.${action}`,
    target_type: machine.resource,
    target_id: move.id,
    at: now,
    call_id: audit.call_id,
    before: (move.auditView ?? move.view)(before),
    after: move.auditView ? move.auditView(afterDoc) : after,
  };
  const type = machine.events[action];
  const event = type === null ? undefined : move.announce(type, after, before);
  if (event) return record ? { ...event, local: { ...event.local, audit: record } } : event;
  return audit && record ? auditMessage(audit.service, record.action, record) : undefined;
}
