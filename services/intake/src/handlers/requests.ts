import { BusError, implement, type Endpoint } from '@handoff/bus';
import {
  actionInto,
  digestsEqual,
  intakeDeadlineOps,
  newId,
  REQUEST_MACHINE,
  REQUEST_WAITS,
  requestOps,
  type DeadlineItem,
  type Request,
  type RequestAction,
  type RequestStatus,
} from '@handoff/contracts';
import {
  domainEvent,
  invalidTransition,
  moveDocument,
  outboxCollection,
  type Outbox,
} from '@handoff/runtime';
import { groupedInserts, paginate, type Store } from '@handoff/store';
import type { Collection, Filter } from 'mongodb';
import { providerCollections } from '../store/providers.ts';
import { requestCollection, requestView, type RequestDoc } from '../store/requests.ts';

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
  /** The request already is where the mover wants it: nothing is written or announced. */
  unchanged?: (before: RequestDoc) => boolean;
  /** Refusals that come before the machine's. */
  refuse?: (before: RequestDoc) => void;
  change?: (before: RequestDoc) => Partial<RequestDoc>;
}

/**
 * Moves a request along REQUEST_MACHINE through `moveDocument`, announced as `request.updated`
 * (the event takes its `sequence` when it is published) and audited. Staff changes and the
 * engagement's moves both come through here. A failed publish fails the call, so the engagement
 * consumer retries the event; the outbox sweep publishes what was written.
 */
export function requestMover(deps: RequestDeps) {
  const requests = requestCollection(deps.store);
  const outbox = outboxCollection(deps.store, requests.collectionName);
  return async (id: string, who: RequestActor, move: RequestMove): Promise<Request> => {
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
        view: requestView,
        // The owner travels with the event, so the webhook dispatcher need not ask intake.
        announce: (type, after, before) =>
          domainEvent(type, before._id, after, before.integration_id),
        audit: { service: 'intake', actor: who.actor, call_id: who.call_id, action: move.audit },
        ...(move.unchanged ? { unchanged: move.unchanged } : {}),
        ...(move.refuse ? { refuse: move.refuse } : {}),
        ...(move.change ? { change: move.change } : {}),
      },
    );
    return requestView(doc);
  };
}

/** The action a `PATCH` to `status` takes: the one that leads there. */
function actionTo(status: RequestStatus): RequestAction {
  const action = actionInto(REQUEST_MACHINE, status);
  if (action === undefined) {
    throw new BusError('internal_error', `No move of a request leads to ${status}.`);
  }
  return action;
}

/**
 * Staff may route only to providers that exist and are active: each other id is refused with a
 * pointer to it in the PATCH body.
 */
async function checkRoutedProviders(store: Store, providerIds: readonly string[]): Promise<void> {
  if (providerIds.length === 0) return;
  const { providers } = providerCollections(store);
  const found = await providers
    .find({ _id: { $in: [...new Set(providerIds)] } }, { projection: { status: 1 } })
    .toArray();
  const status = new Map(found.map((doc) => [doc._id, doc.status]));
  const errors = providerIds.flatMap((providerId, index) => {
    const current = status.get(providerId);
    if (current === 'active') return [];
    return [
      {
        pointer: `/routing/provider_ids/${index}`,
        code: current === undefined ? 'unknown_provider' : 'provider_suspended',
        detail:
          current === undefined
            ? `No provider ${providerId}.`
            : `Provider ${providerId} is suspended.`,
      },
    ];
  });
  if (errors.length > 0) {
    throw new BusError('validation_failed', 'A request can be routed only to active providers.', {
      details: { errors },
    });
  }
}

export function requestEndpoints(deps: RequestDeps): Record<string, Endpoint> {
  const requests = requestCollection(deps.store);
  // Requests created at once are inserted together: one command and one commit for all of them.
  const newRequests = groupedInserts(requests);
  const asOutbox = (collection: Collection<RequestDoc>) =>
    outboxCollection(deps.store, collection.collectionName);
  const move = requestMover(deps);

  const find = async (id: string) => {
    const doc = await requests.findOne({ _id: id });
    if (!doc) throw new BusError('not_found', 'No such request.');
    return doc;
  };

  return {
    ...implement(requestOps.create, async ({ integration_id, token_hash, input }) => {
      const now = new Date();
      const id = newId('req');
      const optedIn = input.marketplace_opt_in ?? false;
      const doc: RequestDoc = {
        _id: id,
        integration_id,
        token_hash,
        status: 'submitted',
        routing: { mode: 'unassigned', provider_ids: [] },
        message: input.message,
        category: input.category ?? null,
        subject: input.subject ?? null,
        customer: {
          name: input.name ?? null,
          email: input.email ?? null,
          company: input.company ?? null,
          website: input.website ?? null,
        },
        contact_permission: input.contact_permission ?? false,
        marketplace: {
          opted_in: optedIn,
          review: optedIn ? 'pending_review' : 'not_requested',
          reason: null,
        },
        budget_min: input.budget_min ?? null,
        budget_max: input.budget_max ?? null,
        engaged_provider_id: null,
        created_at: now,
        updated_at: now,
      };
      const message = domainEvent('request.created', id, requestView(doc), integration_id);
      await newRequests.insert(deps.outbox.withMessages(requests, doc, [message]));
      await deps.outbox.publish(asOutbox(requests), id, [message]);
      return requestView(doc);
    }),

    ...implement(requestOps.get, async ({ request_id, integration_id, token_hash }) => {
      const doc = await requests.findOne({ _id: request_id });
      // Another integration's request looks exactly like a missing one: no existence oracle.
      if (!doc || doc.integration_id !== integration_id)
        throw new BusError('not_found', 'No such request.');
      if (!digestsEqual(doc.token_hash, token_hash)) {
        throw new BusError('forbidden', 'The request token does not match this request.');
      }
      return requestView(doc);
    }),

    ...implement(requestOps.authorize, async ({ request_id }) => {
      const doc = await requests.findOne(
        { _id: request_id },
        { projection: { integration_id: 1, token_hash: 1 } },
      );
      if (!doc) throw new BusError('not_found', 'No such request.');
      return { integration_id: doc.integration_id, token_hash: doc.token_hash };
    }),

    ...implement(requestOps.status, async ({ request_id }) => {
      const doc = await requests.findOne({ _id: request_id }, { projection: { status: 1 } });
      if (!doc) throw new BusError('not_found', 'No such request.');
      return { status: doc.status };
    }),

    ...implement(requestOps.getAsStaff, async ({ id }) => requestView(await find(id))),

    ...implement(
      requestOps.listAsStaff,
      async ({ status, routing, marketplace_review, integration_id, ...page }) => {
        const filter: Filter<RequestDoc> = {};
        if (status) filter.status = status;
        if (routing) filter['routing.mode'] = routing;
        if (marketplace_review) filter['marketplace.review'] = marketplace_review;
        if (integration_id) filter.integration_id = integration_id;
        const result = await paginate(requests, filter, page);
        return {
          object: 'list' as const,
          data: result.data.map(requestView),
          has_more: result.has_more,
        };
      },
    ),

    ...implement(intakeDeadlineOps.list, async ({ before, overdue, limit }) => {
      const now = Date.now();
      const day = 24 * 60 * 60 * 1000;
      // Each wait's deadline is `created_at` plus its days, so the filters become ranges on it.
      const createdRange = (days: number) => {
        const range: { $lt?: Date; $lte?: Date; $gt?: Date } = {};
        if (before !== undefined) range.$lt = new Date(Date.parse(before) - days * day);
        if (overdue === true) range.$lte = new Date(now - days * day);
        if (overdue === false) range.$gt = new Date(now - days * day);
        return Object.keys(range).length > 0 ? { created_at: range } : {};
      };
      const waits = [
        {
          resource: 'request' as const,
          wait: REQUEST_WAITS.routing,
          filter: { status: 'submitted', 'routing.mode': 'unassigned' } as Filter<RequestDoc>,
          consequence:
            'Nothing happens by itself: the request waits unrouted until staff route it ' +
            '(`PATCH /v1/staff/requests/{id}` with `routing`); it shows as overdue here meanwhile.',
        },
        {
          resource: 'marketplace_review' as const,
          wait: REQUEST_WAITS.marketplace_review,
          filter: { 'marketplace.review': 'pending_review' } as Filter<RequestDoc>,
          consequence:
            'Nothing happens by itself: the request stays off the marketplace until staff review ' +
            'it (`POST /v1/staff/requests/{id}/marketplace-review`); it shows as overdue here meanwhile.',
        },
      ];
      const lists = await Promise.all(
        waits.map(async ({ resource, wait, filter, consequence }) => {
          const rows = await requests
            .find({ $and: [filter, createdRange(wait.days)] } as Filter<RequestDoc>, {
              projection: { _id: 1, created_at: 1 },
            })
            .sort({ created_at: 1, _id: 1 })
            .limit(limit + 1)
            .toArray();
          return {
            more: rows.length > limit,
            items: rows.slice(0, limit).map((row): DeadlineItem => {
              const deadline = row.created_at.getTime() + wait.days * day;
              return {
                object: 'deadline',
                resource,
                id: row._id,
                request_id: row._id,
                state: wait.state,
                waiting_on: wait.waiting_on,
                deadline_at: new Date(deadline).toISOString(),
                overdue: deadline <= now,
                consequence,
              };
            }),
          };
        }),
      );
      const merged = lists
        .flatMap((list) => list.items)
        .sort(
          (a, b) => Date.parse(a.deadline_at) - Date.parse(b.deadline_at) || (a.id < b.id ? -1 : 1),
        );
      return {
        object: 'list' as const,
        data: merged.slice(0, limit),
        has_more: lists.some((list) => list.more) || merged.length > limit,
      };
    }),

    ...implement(requestOps.owner, async ({ request_id }) => {
      const doc = await requests.findOne(
        { _id: request_id },
        { projection: { integration_id: 1 } },
      );
      if (!doc) throw new BusError('not_found', 'No such request.');
      return { integration_id: doc.integration_id };
    }),

    ...implement(requestOps.update, async ({ id, patch, actor }, { callId: call_id }) => {
      if (patch.routing !== undefined) {
        // The request first (404 for an unknown one), then the providers it names (422).
        if ((await requests.countDocuments({ _id: id }, { limit: 1 })) === 0) {
          throw new BusError('not_found', 'No such request.');
        }
        await checkRoutedProviders(deps.store, patch.routing.provider_ids);
      }
      const { routing, status } = patch;
      return move(
        id,
        { actor, call_id },
        {
          audit: 'request.updated',
          // The status it has already: a change of routing only.
          action: (doc) =>
            status === undefined || status === doc.status ? 'update' : actionTo(status),
          change: () => (routing === undefined ? {} : { routing }),
        },
      );
    }),

    ...implement(
      requestOps.decideMarketplace,
      async ({ id, decision, actor }, { callId: call_id }) =>
        move(
          id,
          { actor, call_id },
          {
            audit: `request.marketplace_${decision.decision}`,
            action: 'review_marketplace',
            refuse: (doc) => {
              if (doc.marketplace.review === 'pending_review') return;
              throw invalidTransition(
                {
                  resource: 'marketplace_review',
                  current_state: doc.marketplace.review,
                  action: decision.decision === 'approved' ? 'approve' : 'reject',
                  allowed_actions: [],
                },
                { final: true, reason: 'only a pending review can be decided' },
              );
            },
            change: (doc) => ({
              marketplace: {
                ...doc.marketplace,
                review: decision.decision,
                reason: decision.reason ?? null,
              },
              ...(decision.decision === 'approved' && doc.routing.mode === 'unassigned'
                ? { routing: { mode: 'marketplace' as const, provider_ids: [] } }
                : {}),
            }),
          },
        ),
    ),
  };
}
