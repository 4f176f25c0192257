// `requests.create`, `.get`, `.authorize`, `.status`, `.owner`: an agent's requests, and what the
// gateway and the other services ask of one.
import { BusError, implement, type Endpoint } from '@handoff/bus';
import { newId, requestOps, scenarioOf } from '@handoff/contracts';
import { createdEarlier, creatingOperation, domainEvent, outboxCollection } from '@handoff/runtime';
import { groupedInserts } from '@handoff/store';
import { requestView, type RequestDoc } from '../../store/requests.ts';
import type { InputOf, IntakeContext } from '../context.ts';

const notFound = () => new BusError('request_not_found', 'No such request.');

/**
 * A new request as stored: submitted, unrouted, its marketplace review pending if opted in, and
 * waiting for the rules (the offer limit shown until they run is the deployment's default).
 */
function newRequest(
  { integration_id, token_hash, input, livemode }: InputOf<typeof requestOps.create>,
  maxOffers: number,
): RequestDoc {
  const test = livemode === false;
  const now = new Date();
  const optedIn = input.marketplace_opt_in ?? false;
  return {
    _id: newId('req'),
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
    language: input.language ?? null,
    // The rules take it from here (intake's routing consumer hears `request.created`); without a
    // category they cannot choose, so it waits for staff at once. A test request goes to the
    // simulated provider, whatever its category.
    auto_routing: {
      state: input.category === undefined && !test ? 'queued' : 'routing',
      queue_reason: input.category === undefined && !test ? 'no_category' : null,
      offers_made: 0,
      max_offers: maxOffers,
      tried: [],
      offers: [],
      decision: null,
    },
    engaged_provider_id: null,
    // A test request runs a scenario (`test_scenario`, else one named in its message) and is
    // offered only to the simulated provider.
    ...(test ? { livemode: false as const, test_scenario: scenarioOf(input) } : {}),
    // Its deadlines move when the clock advances (the gateway reserved its place on the clock).
    ...(test && input.test_clock !== undefined ? { test_clock: input.test_clock } : {}),
    created_at: now,
    updated_at: now,
  };
}

export function agentRequestEndpoints(ctx: IntakeContext): Record<string, Endpoint> {
  const { requests } = ctx.collections;
  // Requests created at once are inserted together: one command and one commit for all of them.
  const newRequests = groupedInserts(requests);
  const outbox = outboxCollection(ctx.store, requests.collectionName);
  return {
    ...implement(requestOps.create, async (input) => {
      const earlier = await createdEarlier(requests);
      if (earlier && earlier.integration_id === input.integration_id) {
        // A retry whose first answer was lost: that request, with the token this answer gives
        // (the first attempt's was never delivered).
        await ctx.store.serialize(requests, earlier._id, () =>
          requests.updateOne({ _id: earlier._id }, { $set: { token_hash: input.token_hash } }),
        );
        return requestView(earlier);
      }
      const doc = { ...newRequest(input, ctx.env.ROUTING_MAX_OFFERS), ...creatingOperation() };
      const message = domainEvent('request.created', doc._id, requestView(doc), doc.integration_id);
      await newRequests.insert(ctx.outbox.withMessages(requests, doc, [message]));
      await ctx.outbox.publish(outbox, doc._id, [message]);
      return requestView(doc);
    }),

    // The gateway checked the request token before asking; the owner is checked again here.
    ...implement(requestOps.get, async ({ request_id, integration_id }) => {
      const doc = await requests.findOne({ _id: request_id });
      // Another integration's request looks exactly like a missing one: no existence oracle.
      if (!doc || doc.integration_id !== integration_id) throw notFound();
      return requestView(doc);
    }),

    ...implement(requestOps.authorize, async ({ request_id }) => {
      const doc = await requests.findOne(
        { _id: request_id },
        { projection: { integration_id: 1, token_hash: 1 } },
      );
      if (!doc) throw notFound();
      return { integration_id: doc.integration_id, token_hash: doc.token_hash };
    }),

    ...implement(requestOps.status, async ({ request_id }) => {
      const doc = await requests.findOne({ _id: request_id }, { projection: { status: 1 } });
      if (!doc) throw notFound();
      return { status: doc.status };
    }),

    ...implement(requestOps.owner, async ({ request_id }) => {
      const doc = await requests.findOne(
        { _id: request_id },
        { projection: { integration_id: 1 } },
      );
      if (!doc) throw notFound();
      return { integration_id: doc.integration_id };
    }),
  };
}
