import { BusError, implement, type Endpoint } from '@handoff/bus';
import {
  digestsEqual,
  intakeDeadlineOps,
  newId,
  REQUEST_MOVES,
  REQUEST_WAITS,
  requestOps,
  type DeadlineItem,
  type Request,
  type RequestStatus,
  type Routing,
} from '@handoff/contracts';
import {
  domainEvent,
  type Outbox,
  type OutboxDocument,
  type OutboxMessage,
  withOutbox,
  pushOutbox,
  type OutboxFields,
} from '@handoff/runtime';
import { paginate, type Store } from '@handoff/store';
import type { Collection, Document, Filter } from 'mongodb';
import { providerCollections } from '../providers/documents.ts';

export interface RequestDoc extends OutboxFields {
  _id: string;
  /** The owning integration: every agent read is scoped by it. */
  integration_id: string;
  /** SHA-256 of the request token; the token itself is never stored. */
  token_hash: string;
  status: RequestStatus;
  routing: Routing;
  message: string;
  category: string | null;
  subject: string | null;
  customer: {
    name: string | null;
    email: string | null;
    company: string | null;
    website: string | null;
  };
  contact_permission: boolean;
  marketplace: Request['marketplace'];
  budget_min: number | null;
  budget_max: number | null;
  /**
   * The provider whose proposal was accepted (set by the engagement consumer). Absent on requests
   * stored before the work lifecycle existed, which read as null.
   */
  engaged_provider_id?: string | null;
  created_at: Date;
  updated_at: Date;
}

export function requestView(doc: RequestDoc): Request {
  return {
    object: 'request',
    id: doc._id,
    status: doc.status,
    routing: doc.routing,
    message: doc.message,
    category: doc.category,
    subject: doc.subject,
    customer: doc.customer,
    contact_permission: doc.contact_permission,
    marketplace: doc.marketplace,
    budget_min: doc.budget_min,
    budget_max: doc.budget_max,
    engaged_provider_id: doc.engaged_provider_id ?? null,
    created_at: doc.created_at.toISOString(),
    updated_at: doc.updated_at.toISOString(),
  };
}

const MAX_ATTEMPTS = 20;

/** Who changes a request: a staff member, or `system` for moves the engagement causes. */
export interface RequestActor {
  actor: string;
  request_id: string | null;
}

function illegal(current: RequestStatus, wanted: string): BusError {
  return new BusError(
    'invalid_state_transition',
    `A ${current} request cannot move to ${wanted}.`,
    {
      details: { current_state: current, allowed_transitions: REQUEST_MOVES[current] },
    },
  );
}

export interface RequestDeps {
  store: Store;
  outbox: Outbox;
}

export function requestCollection(store: Store): Collection<RequestDoc> {
  return store.db.collection<RequestDoc>('requests');
}

const asOutbox = <T extends Document>(collection: Collection<T>) =>
  collection as unknown as Collection<OutboxDocument>;

/**
 * What a change wants: the fields to set, or null when the request is already as wanted (then
 * nothing is written and no event is published).
 */
export type RequestChange = (doc: RequestDoc) => Partial<RequestDoc> | null;

/**
 * Applies a change with its `request.updated` event in one single-document update; the event
 * takes its `sequence` when it is published. The filter on the old `updated_at` makes the
 * read-modify-write safe against a concurrent change (then it reads again and retries). Staff
 * changes and the engagement's moves both come through here, so every move of a request is
 * announced and audited alike.
 */
export function requestChanger(deps: RequestDeps) {
  const requests = requestCollection(deps.store);
  return async (
    id: string,
    who: RequestActor,
    action: string,
    next: RequestChange,
  ): Promise<Request> => {
    const result = await deps.store.serialize(requests, id, async () => {
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
        const before = await requests.findOne({ _id: id });
        if (!before) throw new BusError('not_found', 'No such request.');
        const wanted = next(before);
        if (wanted === null) return { updated: before, message: undefined };
        // Strictly later than the stored one: `updated_at` is the compare-and-set token below.
        const updatedAt = new Date(Math.max(Date.now(), before.updated_at.getTime() + 1));
        const patch = { ...wanted, updated_at: updatedAt };
        const after: RequestDoc = { ...before, ...patch };
        const event = domainEvent('request.updated', id, requestView(after), before.integration_id);
        const message: OutboxMessage = {
          ...event,
          local: {
            audit: {
              actor: who.actor,
              action: `request.${action}`,
              target_type: 'request',
              target_id: id,
              at: new Date(),
              request_id: who.request_id,
              before: requestView(before),
              after: requestView(after),
            },
          },
        };
        const updated = await requests.findOneAndUpdate(
          { _id: id, updated_at: before.updated_at },
          pushOutbox({ $set: patch }, [message]),
          { returnDocument: 'after' },
        );
        if (!updated) continue;
        return { updated, message };
      }
      throw new BusError('unavailable', 'The request is changing too often; try again.');
    });
    if (result.message) await deps.outbox.publish(asOutbox(requests), id, [result.message]);
    return requestView(result.updated);
  };
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
  const change = requestChanger(deps);

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
      await requests.insertOne(withOutbox(doc, [message]));
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

    ...implement(requestOps.update, async ({ id, patch, actor, request_id }) => {
      if (patch.routing !== undefined) {
        // The request first (404 for an unknown one), then the providers it names (422).
        if ((await requests.countDocuments({ _id: id }, { limit: 1 })) === 0) {
          throw new BusError('not_found', 'No such request.');
        }
        await checkRoutedProviders(deps.store, patch.routing.provider_ids);
      }
      return change(id, { actor, request_id }, 'updated', (doc) => {
        if (
          patch.status !== undefined &&
          patch.status !== doc.status &&
          !REQUEST_MOVES[doc.status].includes(patch.status)
        ) {
          throw illegal(doc.status, patch.status);
        }
        if (patch.routing !== undefined && REQUEST_MOVES[doc.status].length === 0) {
          throw illegal(doc.status, 'a new routing');
        }
        return {
          ...(patch.status === undefined ? {} : { status: patch.status }),
          ...(patch.routing === undefined ? {} : { routing: patch.routing }),
        };
      });
    }),

    ...implement(requestOps.decideMarketplace, async ({ id, decision, actor, request_id }) =>
      change(id, { actor, request_id }, `marketplace_${decision.decision}`, (doc) => {
        if (doc.marketplace.review !== 'pending_review') {
          throw new BusError(
            'invalid_state_transition',
            `The marketplace review is ${doc.marketplace.review}; only a pending review can be decided.`,
            { details: { current_state: doc.marketplace.review, allowed_transitions: [] } },
          );
        }
        return {
          marketplace: {
            ...doc.marketplace,
            review: decision.decision,
            reason: decision.reason ?? null,
          },
          ...(decision.decision === 'approved' && doc.routing.mode === 'unassigned'
            ? { routing: { mode: 'marketplace' as const, provider_ids: [] } }
            : {}),
        };
      }),
    ),
  };
}
