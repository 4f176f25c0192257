// `routing.*`: staff's requests and routing (lists, counts, overrides, suggestions, category
// settings) and the providers' answers to offers and their own profile.
import { BusError, implement, type Endpoint } from '@handoff/bus';
import { routingOps } from '@handoff/contracts';
import type { IntakeContext } from '../handlers/context.ts';
import type { MoveRequest } from '../handlers/requests/mover.ts';
import { providerWithKeys } from '../handlers/providers/lookups.ts';
import { providerRequestView } from '../store/providers.ts';
import type { RequestDoc } from '../store/requests.ts';
import { staffRequestView } from '../store/routing.ts';
import { acceptOffer, declineOffer } from './answers.ts';
import { categoryList, resumeQueued } from './categories.ts';
import { overrideRouting } from './override.ts';
import { applyProviderPatch } from '../handlers/providers/update.ts';
import { categorySettings } from './settings.ts';
import { countForStaff, listForStaff, requestForStaff, suggestionsFor } from './staff-reads.ts';

/** The request as the answering provider now sees it. */
async function answeredView(ctx: IntakeContext, requestId: string, providerId: string) {
  const doc = (await ctx.collections.requests.findOne(
    { _id: requestId },
    { projection: { outbox: 0 } },
  )) as RequestDoc | null;
  if (!doc) throw new BusError('request_not_found', 'No such request.');
  const relation = doc.routing.provider_ids.includes(providerId) ? 'routed' : 'marketplace';
  return providerRequestView(
    doc,
    doc.engaged_provider_id === providerId ? 'engaged' : relation,
    providerId,
  );
}

export function routingEndpoints(ctx: IntakeContext, move: MoveRequest): Record<string, Endpoint> {
  const settings = categorySettings(ctx);
  const deps = { ctx, move, settings };
  return {
    ...implement(routingOps.list, (input) => listForStaff(ctx, input)),
    ...implement(routingOps.counts, (input) => countForStaff(ctx, input)),
    ...implement(routingOps.get, async ({ id }) =>
      staffRequestView(await requestForStaff(ctx, id)),
    ),
    ...implement(routingOps.override, ({ id, actor, override }, { callId }) =>
      overrideRouting(deps, id, { actor, call_id: callId }, override),
    ),
    ...implement(routingOps.suggestions, ({ id }) => suggestionsFor(ctx, settings, id)),
    ...implement(routingOps.categories, () => categoryList(ctx, settings)),
    ...implement(routingOps.updateCategory, async ({ category, actor, patch }, { callId }) => {
      const { before, after } = await settings.update(category, actor, patch);
      if (before?.paused === true && after?.paused === false) {
        await resumeQueued(deps, category, { actor, call_id: callId });
      }
      return settings.view(category, after);
    }),
    ...implement(routingOps.accept, async ({ provider_id, request_id }) => {
      await acceptOffer(move, request_id, provider_id);
      return answeredView(ctx, request_id, provider_id);
    }),
    ...implement(routingOps.decline, async ({ provider_id, request_id, input }) => {
      await declineOffer(move, request_id, provider_id, input.reason ?? null);
      return answeredView(ctx, request_id, provider_id);
    }),
    ...implement(routingOps.updateSelf, async ({ provider_id, patch }) => {
      const who = { actor: `provider:${provider_id}`, callId: null };
      return providerWithKeys(ctx, await applyProviderPatch(ctx, provider_id, patch, who));
    }),
  };
}
