import type { EventType } from '@handoff/contracts';
import type { Move, MovingDocument } from '@handoff/runtime';

// The shape of a move of this service's resources (`handlers/moves.ts` makes it, the one path of
// every state change).

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
  /** Whether the caller may act on the document at all; otherwise its `notFound` code. */
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
  D extends Moving<infer S>
    ? Omit<MoveSpec<D, S, A>, 'collection' | 'machine' | 'view' | 'notFound'>
    : never;
