// The rules' turn on a request waiting for them: weigh the providers of its category, hold the
// first able to take it, and offer it to them; or, when none can, put it in the staff queue.
import {
  SIMULATED_PROVIDER_ID,
  SIMULATED_PROVIDER_NAME,
  type QueueReason,
} from '@handoff/contracts';
import { candidatesOf, evaluate, profileOf, type Evaluation } from '../domain/routing-rules.ts';
import { strideOf } from '../domain/routing-score.ts';
import type { IntakeContext } from '../handlers/context.ts';
import type { MoveRequest } from '../handlers/requests/mover.ts';
import type { ProviderDoc } from '../store/providers.ts';
import type { RequestDoc } from '../store/requests.ts';
import { autoRoutingOf, QUEUE_DETAILS, type DecisionDoc } from '../store/routing.ts';
import { hold, release } from './holds.ts';
import { asMove, offerChange, queueChange, ROUTABLE } from './moves.ts';
import { countOffer } from './offer-metrics.ts';
import type { CategorySettingsStore } from './settings.ts';
import { isTestRequest } from './test-mode.ts';

const SYSTEM = { actor: 'system', call_id: null };
/** The most providers of one category the rules weigh (the lowest turns first). */
const WEIGHED_AT_MOST = 1_000;

export interface RoutingDeps {
  ctx: IntakeContext;
  move: MoveRequest;
  settings: CategorySettingsStore;
}

/** The providers of a category, the lowest turn first. */
export function categoryProviders(ctx: IntakeContext, category: string): Promise<ProviderDoc[]> {
  return ctx.collections.providers
    .find({ categories: category }, { projection: { outbox: 0, email: 0, email_key: 0 } })
    .sort({ turn: 1, _id: 1 })
    .limit(WEIGHED_AT_MOST)
    .toArray();
}

/** The rules' weighing of a request now, or null when it names no category. */
export async function weighRequest(
  ctx: IntakeContext,
  doc: RequestDoc,
): Promise<Evaluation | null> {
  if (doc.category === null) return null;
  return evaluate(await categoryProviders(ctx, doc.category), {
    category: doc.category,
    language: doc.language ?? null,
    tried: autoRoutingOf(doc).tried,
  });
}

export function decisionOf(
  evaluation: Evaluation | null,
  chosen: { id: string; name: string } | null,
  who: { by: 'rules' | 'staff'; actor: string; summary: string },
  now: Date,
): DecisionDoc {
  return {
    decided_at: now,
    by: who.by,
    actor: who.actor,
    provider_id: chosen?.id ?? null,
    summary: who.summary,
    candidates: evaluation ? candidatesOf(evaluation, chosen?.id ?? null) : [],
    excluded: evaluation ? { ...evaluation.excludedCounts } : {},
  };
}

const stillRouting = (doc: RequestDoc) =>
  ROUTABLE.includes(doc.status) && autoRoutingOf(doc).state === 'routing';

/**
 * The request waits for staff. Nothing the agent reads changes (it stays submitted and unrouted),
 * so this is no move of its machine: no `request.updated`, no audit entry, `updated_at` kept; the
 * write is a compare-and-set on the request as read, and a request moved meanwhile is left to the
 * settle its move causes.
 */
async function queue(
  deps: RoutingDeps,
  doc: RequestDoc,
  reason: QueueReason,
  evaluation: Evaluation | null,
  maxOffers: number,
): Promise<boolean> {
  const summary = { by: 'rules' as const, actor: 'system', summary: QUEUE_DETAILS[reason] };
  const decision =
    reason === 'no_eligible_provider' ? decisionOf(evaluation, null, summary, new Date()) : null;
  const { requests } = deps.ctx.collections;
  const written = await deps.ctx.store.serialize(requests, doc._id, () =>
    requests.updateOne(
      {
        _id: doc._id,
        status: doc.status,
        updated_at: doc.updated_at,
        'auto_routing.state': 'routing',
      },
      { $set: { auto_routing: queueChange(doc, reason, decision, maxOffers) } },
    ),
  );
  return written.modifiedCount === 1;
}

/** Rounds of weighing before a provider whose turn moved on meanwhile may be taken anyway. */
const FAIR_ROUNDS = 3;

/**
 * Weighs the providers and holds the first eligible one. A hold takes a provider only at the turn
 * it was weighed at: when requests arrive together, the provider another request just took has
 * moved on in the rotation, and this one goes to the next in line (weighed afresh when all moved
 * on), so a burst is shared out as a trickle would be. The last round takes whom it can.
 */
async function chooseAndHold(deps: RoutingDeps, doc: RequestDoc) {
  let evaluation: Evaluation | null = null;
  for (let round = 0; round < FAIR_ROUNDS; round += 1) {
    evaluation = await weighRequest(deps.ctx, doc);
    const eligible = evaluation?.eligible ?? [];
    if (eligible.length === 0) break;
    const fair = round < FAIR_ROUNDS - 1;
    for (const candidate of eligible) {
      const stride = strideOf(candidate.score);
      const turn = profileOf(candidate.provider).turn;
      const options = fair ? { stride, expectTurn: turn } : { stride };
      if (await hold(deps.ctx, candidate.provider._id, doc._id, options)) {
        return { evaluation, chosen: candidate.provider as ProviderDoc };
      }
    }
  }
  return { evaluation, chosen: null };
}

/**
 * Routes a request whose automatic routing waits for the rules. The hold comes before the offer
 * is written, so a provider is never offered more than it can hold; should the write not happen
 * (another writer moved the request first), the hold is let go again unless the request is now
 * that provider's anyway. A hold left by a crash in between is let go by the next settle. True when
 * the request now waits in the staff queue (a write no event follows: the caller settles the rest).
 */
export async function decide(deps: RoutingDeps, doc: RequestDoc): Promise<boolean> {
  if (!stillRouting(doc)) return false;
  if (isTestRequest(doc)) return offerToSimulated(deps, doc);
  const settings = doc.category === null ? null : await deps.settings.of(doc.category);
  const maxOffers = settings?.maxOffers ?? deps.ctx.env.ROUTING_MAX_OFFERS;
  if (settings === null) return queue(deps, doc, 'no_category', null, maxOffers);
  if (settings.paused) return queue(deps, doc, 'paused', null, maxOffers);
  if (autoRoutingOf(doc).offers_made >= maxOffers) {
    return queue(deps, doc, 'offers_exhausted', null, maxOffers);
  }
  const { evaluation, chosen } = await chooseAndHold(deps, doc);
  if (chosen === null) return queue(deps, doc, 'no_eligible_provider', evaluation, maxOffers);

  const now = new Date();
  const providerId = chosen._id;
  const decision = decisionOf(
    evaluation,
    { id: providerId, name: chosen.name },
    { by: 'rules', actor: 'system', summary: `Offered to ${chosen.name} by the rules.` },
    now,
  );
  const offer = { providerId, responseSeconds: settings.responseSeconds, maxOffers, decision };
  const { written, after } = await offerByRules(deps, doc, offer, now);
  if (!written && !after.routing.provider_ids.includes(providerId)) {
    await release(deps.ctx, providerId, doc._id);
  }
  return false;
}

/** The rules' offer, written only while the request still waits for them. */
async function offerByRules(
  deps: RoutingDeps,
  doc: RequestDoc,
  offer: { providerId: string; responseSeconds: number; maxOffers: number; decision: DecisionDoc },
  now: Date,
) {
  const offering = asMove('request.routing_offered', (fresh) =>
    stillRouting(fresh) ? offerChange(fresh, { ...offer, by: 'rules' }, now) : null,
  );
  const after = await deps.move(doc._id, SYSTEM, offering.move);
  const written = offering.changed();
  if (written) countOffer('offered');
  return { written, after };
}

/**
 * A test request's turn: it is offered to the simulated provider, once (a test request it
 * declined, or let lapse, waits in the staff queue as a live one would), whatever its category.
 */
async function offerToSimulated(deps: RoutingDeps, doc: RequestDoc): Promise<boolean> {
  const auto = autoRoutingOf(doc);
  if (auto.tried.includes(SIMULATED_PROVIDER_ID)) {
    return queue(deps, doc, 'offers_exhausted', null, auto.max_offers);
  }
  const settings = doc.category === null ? null : await deps.settings.of(doc.category);
  const now = new Date();
  const decision = decisionOf(
    null,
    { id: SIMULATED_PROVIDER_ID, name: SIMULATED_PROVIDER_NAME },
    { by: 'rules', actor: 'system', summary: 'A test request: offered to the simulated provider.' },
    now,
  );
  const responseSeconds = settings?.responseSeconds ?? deps.ctx.env.ROUTING_RESPONSE_SECONDS;
  const offer = {
    providerId: SIMULATED_PROVIDER_ID,
    responseSeconds,
    maxOffers: auto.max_offers,
    decision,
  };
  await offerByRules(deps, doc, offer, now);
  return false;
}
