// Staff's hand in one request's routing, audited with their reason: offer it to a provider of
// their choice, run the rules again from the start, or stop automatic routing of it.
import { BusError } from '@handoff/bus';
import type { RoutingOverride } from '@handoff/contracts';
import { invalidTransition } from '@handoff/runtime';
import type { RequestDoc } from '../store/requests.ts';
import { staffRequestView } from '../store/routing.ts';
import { decisionOf, weighRequest, type RoutingDeps } from './decide.ts';
import { hold, release } from './holds.ts';
import { asMove, endOfferChange, offerChange, ROUTABLE } from './moves.ts';
import { countOffer } from './offer-metrics.ts';

/** Only a request not yet started, completed or cancelled is routed. */
function refuseClosed(doc: RequestDoc, action: string): void {
  if (ROUTABLE.includes(doc.status)) return;
  throw invalidTransition(
    { resource: 'request', current_state: doc.status, action, allowed_actions: [] },
    { reason: 'only a submitted or routed request is routed' },
  );
}

async function activeProvider(deps: RoutingDeps, providerId: string) {
  const provider = await deps.ctx.collections.providers.findOne(
    { _id: providerId },
    { projection: { name: 1, status: 1 } },
  );
  if (provider?.status === 'active') return provider;
  const code = provider ? 'provider_suspended' : 'unknown_provider';
  const detail = provider ? `Provider ${providerId} is suspended.` : `No provider ${providerId}.`;
  throw new BusError('validation_failed', 'A request can be offered only to an active provider.', {
    details: { errors: [{ pointer: '/provider_id', code, detail }] },
  });
}

async function offerByStaff(
  deps: RoutingDeps,
  doc: RequestDoc,
  who: { actor: string; call_id: string | null },
  override: Extract<RoutingOverride, { action: 'offer' }>,
) {
  const provider = await activeProvider(deps, override.provider_id);
  const settings = doc.category === null ? null : await deps.settings.of(doc.category);
  const now = new Date();
  const decision = decisionOf(
    await weighRequest(deps.ctx, doc),
    { id: provider._id, name: provider.name },
    {
      by: 'staff',
      actor: who.actor,
      summary: `Offered to ${provider.name} by ${who.actor}: ${override.reason}`,
    },
    now,
  );
  // Staff's choice stands whatever the provider's capacity: it is held all the same.
  await hold(deps.ctx, provider._id, doc._id, { unbounded: true });
  const offering = asMove('request.routing_overridden', (fresh) => {
    refuseClosed(fresh, 'offer');
    return offerChange(
      fresh,
      {
        providerId: provider._id,
        by: 'staff',
        responseSeconds: settings?.responseSeconds ?? deps.ctx.env.ROUTING_RESPONSE_SECONDS,
        maxOffers: settings?.maxOffers ?? deps.ctx.env.ROUTING_MAX_OFFERS,
        decision,
        withdrawReason: `${who.actor} offered it to ${provider.name} instead: ${override.reason}`,
      },
      now,
    );
  });
  try {
    const after = await deps.move(doc._id, who, offering.move);
    countOffer('offered');
    return after;
  } catch (error) {
    await release(deps.ctx, provider._id, doc._id);
    throw error;
  }
}

export async function overrideRouting(
  deps: RoutingDeps,
  id: string,
  who: { actor: string; call_id: string | null },
  override: RoutingOverride,
) {
  const doc = await deps.ctx.collections.requests.findOne(
    { _id: id },
    { projection: { outbox: 0 } },
  );
  if (!doc) throw new BusError('request_not_found', 'No such request.');
  refuseClosed(doc, override.action);
  if (override.action === 'offer') await offerByStaff(deps, doc, who, override);
  else {
    const now = new Date();
    const withdrawn = `${who.actor}: ${override.reason}`;
    const { move } = asMove(
      override.action === 'rerun' ? 'request.routing_rerun' : 'request.routing_stopped',
      (fresh) => {
        refuseClosed(fresh, override.action);
        return endOfferChange(
          fresh,
          { status: 'withdrawn', reason: withdrawn },
          {
            ...(override.action === 'rerun'
              ? { state: 'routing', queue_reason: null, offers_made: 0, tried: [] }
              : { state: 'manual', queue_reason: null }),
            decision: decisionOf(
              null,
              null,
              {
                by: 'staff',
                actor: who.actor,
                summary:
                  override.action === 'rerun'
                    ? `The rules run again from the start, by ${who.actor}: ${override.reason}`
                    : `Automatic routing stopped by ${who.actor}: ${override.reason}`,
              },
              now,
            ),
          },
          now,
        );
      },
    );
    await deps.move(id, who, move);
  }
  const after = await deps.ctx.collections.requests.findOne(
    { _id: id },
    { projection: { outbox: 0 } },
  );
  if (!after) throw new BusError('request_not_found', 'No such request.');
  return staffRequestView(after);
}
