// A provider's capacity: the requests it holds, kept in its document and changed one provider at
// a time (its turn in this process, a compare-and-set on `routing_version` against another
// replica), so that two requests routed at once never push it over its capacity.
import type { Filter } from 'mongodb';
import { profileOf, type ProviderDoc } from '../store/providers.ts';
import type { Outcome } from '../domain/routing-score.ts';
import { withOutcome } from '../domain/routing-score.ts';
import type { IntakeContext } from '../handlers/context.ts';

const ATTEMPTS = 10;

/** The compare-and-set of a provider's holds: the version it was read at. */
const atVersion = (doc: ProviderDoc): Filter<ProviderDoc> => ({
  _id: doc._id,
  routing_version: doc.routing_version ?? { $exists: false },
});

/** Changes a provider's routing fields in its turn; `change` says what, or null for nothing. */
async function changeProvider(
  ctx: IntakeContext,
  providerId: string,
  change: (doc: ProviderDoc) => Record<string, unknown> | null,
): Promise<boolean> {
  const { providers } = ctx.collections;
  return ctx.store.serialize(providers, providerId, async () => {
    for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
      const doc = await providers.findOne({ _id: providerId }, { projection: { outbox: 0 } });
      if (!doc) return false;
      const update = change(doc);
      if (update === null) return false;
      const result = await providers.updateOne(atVersion(doc), {
        ...update,
        $inc: { routing_version: 1 },
      });
      if (result.modifiedCount === 1) return true;
    }
    return false;
  });
}

export interface HoldOptions {
  /** Staff's choice, or an engagement: the capacity, status and availability do not apply. */
  unbounded?: boolean;
  /** How far the offer moves the provider on in the rotation (none for a hold kept again). */
  stride?: number;
  /** Only while the provider is at this turn (it was weighed there): not once it moved on. */
  expectTurn?: number;
}

/**
 * The provider takes the request into its holds when it is active, available and under its
 * capacity (or unbounded): true when it holds it now, also when it already did.
 */
export async function hold(
  ctx: IntakeContext,
  providerId: string,
  requestId: string,
  options: HoldOptions = {},
): Promise<boolean> {
  let already = false;
  const taken = await changeProvider(ctx, providerId, (doc) => {
    const profile = profileOf(doc);
    if (profile.held.includes(requestId)) {
      already = true;
      return null;
    }
    const open =
      doc.status === 'active' &&
      profile.availability === 'available' &&
      profile.held.length < profile.capacity;
    if (!open && !options.unbounded) return null;
    if (options.expectTurn !== undefined && profile.turn !== options.expectTurn) return null;
    return {
      $push: { held: requestId },
      ...(options.stride === undefined ? {} : { $set: { turn: profile.turn + options.stride } }),
    };
  });
  return taken || already;
}

/** The provider lets the request go (nothing when it does not hold it). */
export async function release(
  ctx: IntakeContext,
  providerId: string,
  requestId: string,
): Promise<void> {
  await changeProvider(ctx, providerId, (doc) =>
    profileOf(doc).held.includes(requestId) ? { $pull: { held: requestId } } : null,
  );
}

/** The provider lets every one of these requests go that it holds (deleted test requests). */
export async function releaseEach(
  ctx: IntakeContext,
  providerId: string,
  requestIds: readonly string[],
): Promise<void> {
  const gone = new Set(requestIds);
  await changeProvider(ctx, providerId, (doc) => {
    const held = profileOf(doc).held;
    const kept = held.filter((id) => !gone.has(id));
    return kept.length === held.length ? null : { $set: { held: kept } };
  });
}

/** The providers holding a request. */
export async function holdersOf(ctx: IntakeContext, requestId: string): Promise<string[]> {
  const docs = await ctx.collections.providers
    .find({ held: requestId }, { projection: { _id: 1 } })
    .toArray();
  return docs.map((doc) => doc._id);
}

/** Counts an outcome in the provider's score, once however often it is recorded. */
export async function recordOutcome(
  ctx: IntakeContext,
  providerId: string,
  outcome: Outcome,
): Promise<void> {
  await changeProvider(ctx, providerId, (doc) => {
    const outcomes = profileOf(doc).outcomes;
    if (outcomes.some((kept) => kept.key === outcome.key)) return null;
    return { $set: { outcomes: withOutcome(outcomes, outcome) } };
  });
}
