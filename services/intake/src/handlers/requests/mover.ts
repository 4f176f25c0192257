import { REQUEST_MACHINE, type Actor, type Request, type RequestAction } from '@handoff/contracts';
import { domainEvent, moveDocument, outboxCollection, type Outbox } from '@handoff/runtime';
import type { Store } from '@handoff/store';
import { requestCollection, requestView, type RequestDoc } from '../../store/requests.ts';
import { staffRequestView } from '../../store/routing.ts';
import { refuseMixedRouting } from '../../routing/test-mode.ts';

/** Who moves a request: a staff member, or `system` for moves the engagement causes. */
export interface RequestActor {
  actor: string;
  call_id: string | null;
}

export interface RequestDeps {
  store: Store;
  outbox: Outbox;
}

/** A move of a request, beside what the machine says. */
export interface RequestMove {
  /** The action, or (a `PATCH`, which names the state it wants) how to choose it. */
  action: RequestAction | ((before: RequestDoc) => RequestAction);
  /** How the audit log names it (`request.updated` for a staff `PATCH`). */
  audit: string;
  /** The party that moves it, where the machine limits that party (the customer's cancel). */
  by?: Actor;
  /** Whether the mover may see the request at all (its owner only); otherwise not found. */
  visible?: (before: RequestDoc) => boolean;
  /** The request already is where the mover wants it: nothing is written or announced. */
  unchanged?: (before: RequestDoc) => boolean;
  /** Refusals that come before the machine's. */
  refuse?: (before: RequestDoc) => void;
  change?: (before: RequestDoc) => Partial<RequestDoc>;
}

/** Moves a request (see `requestMover`). */
export type MoveRequest = (id: string, who: RequestActor, move: RequestMove) => Promise<Request>;

/**
 * Moves a request along REQUEST_MACHINE through `moveDocument`, announced as `request.updated`
 * (the event takes its `sequence` when it is published) and audited. Staff changes and the
 * engagement's moves both come through here. A failed publish fails the call, so the engagement
 * consumer retries the event; the outbox sweep publishes what was written.
 */
export function requestMover(deps: RequestDeps): MoveRequest {
  const requests = requestCollection(deps.store);
  const outbox = outboxCollection(deps.store, requests.collectionName);
  return async (id, who, move) => {
    const { change } = move;
    const doc = await moveDocument(
      {
        store: deps.store,
        publish: (_collection, documentId, messages) =>
          deps.outbox.publish(outbox, documentId, messages),
        outbox: deps.outbox,
      },
      {
        machine: REQUEST_MACHINE,
        collection: requests,
        id,
        action: move.action,
        notFound: 'request_not_found',
        view: requestView,
        // The log records where automatic routing stands too (staff's reasons, the decision).
        auditView: staffRequestView,
        // The owner travels with the event, so the webhook dispatcher need not ask intake.
        announce: (type, after, before) =>
          domainEvent(type, before._id, after, before.integration_id),
        audit: { service: 'intake', actor: who.actor, call_id: who.call_id, action: move.audit },
        ...(move.by ? { by: move.by } : {}),
        ...(move.visible ? { visible: move.visible } : {}),
        ...(move.unchanged ? { unchanged: move.unchanged } : {}),
        ...(move.refuse ? { refuse: move.refuse } : {}),
        // Whoever routes it (the rules, staff), a test request reaches no real provider.
        ...(change
          ? {
              change: (before: RequestDoc) => {
                const changed = change(before);
                if (changed.routing) refuseMixedRouting(before, changed.routing.provider_ids);
                return changed;
              },
            }
          : {}),
      },
    );
    return requestView(doc);
  };
}
