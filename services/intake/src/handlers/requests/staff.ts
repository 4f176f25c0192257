// `requests.get_as_staff`, `.update`: staff read a request and change its status or routing (the
// list is routing's: `routing.requests`).
import { BusError, implement, type Endpoint } from '@handoff/bus';
import {
  actionInto,
  REQUEST_MACHINE,
  requestOps,
  type RequestAction,
  type RequestStatus,
} from '@handoff/contracts';
import { requestView, type RequestDoc } from '../../store/requests.ts';
import { autoRoutingOf, closePending, staffRequestView } from '../../store/routing.ts';
import type { InputOf, IntakeContext } from '../context.ts';
import type { MoveRequest } from './mover.ts';

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
async function checkRoutedProviders(
  ctx: IntakeContext,
  providerIds: readonly string[],
): Promise<void> {
  if (providerIds.length === 0) return;
  const found = await ctx.collections.providers
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

/** Where automatic routing stands once staff route a request by hand. */
function byHand(doc: RequestDoc, actor: string): Partial<RequestDoc> {
  if (doc.auto_routing === undefined) return {};
  const auto = autoRoutingOf(doc);
  return {
    auto_routing: {
      ...auto,
      state: 'manual',
      queue_reason: null,
      offers: closePending(auto.offers, 'withdrawn', new Date(), `${actor} routed it by hand.`),
    },
  };
}

async function updateRequest(
  ctx: IntakeContext,
  move: MoveRequest,
  { id, patch, actor }: InputOf<typeof requestOps.update>,
  call_id: string | null,
) {
  if (patch.routing !== undefined) {
    // The request first (404 for an unknown one), then the providers it names (422).
    if ((await ctx.collections.requests.countDocuments({ _id: id }, { limit: 1 })) === 0) {
      throw new BusError('request_not_found', 'No such request.');
    }
    await checkRoutedProviders(ctx, patch.routing.provider_ids);
  }
  const { routing, status } = patch;
  await move(
    id,
    { actor, call_id },
    {
      audit: 'request.updated',
      // The status it has already: a change of routing only.
      action: (doc) =>
        status === undefined || status === doc.status ? 'update' : actionTo(status),
      // Routed by hand: the rules step aside, and a pending offer is withdrawn.
      change: (doc) => (routing === undefined ? {} : { routing, ...byHand(doc, actor) }),
    },
  );
  const after = await ctx.collections.requests.findOne({ _id: id }, { projection: { outbox: 0 } });
  if (!after) throw new BusError('request_not_found', 'No such request.');
  return staffRequestView(after);
}

export function staffRequestEndpoints(
  ctx: IntakeContext,
  move: MoveRequest,
): Record<string, Endpoint> {
  return {
    ...implement(requestOps.getAsStaff, async ({ id }) => {
      const doc = await ctx.collections.requests.findOne({ _id: id });
      if (!doc) throw new BusError('request_not_found', 'No such request.');
      return requestView(doc);
    }),
    ...implement(requestOps.update, (input, { callId }) => updateRequest(ctx, move, input, callId)),
  };
}
