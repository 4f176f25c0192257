// A category's routing settings: staff pause it, and set its response window and offer limit.
import type { CategoryRoutingPatch } from '@handoff/contracts';
import { categoryCollection, categoryView, type CategoryDoc } from '../store/routing.ts';
import type { IntakeContext } from '../handlers/context.ts';

export interface CategorySettings {
  paused: boolean;
  maxOffers: number;
  responseSeconds: number;
}

export function categorySettings(ctx: IntakeContext) {
  const categories = categoryCollection(ctx.store);
  const defaults = {
    maxOffers: ctx.env.ROUTING_MAX_OFFERS,
    responseSeconds: ctx.env.ROUTING_RESPONSE_SECONDS,
  };
  const settingsOf = (doc: CategoryDoc | null): CategorySettings => ({
    paused: doc?.paused ?? false,
    maxOffers: doc?.max_offers ?? defaults.maxOffers,
    responseSeconds: doc?.response_seconds ?? defaults.responseSeconds,
  });
  return {
    categories,
    defaults,
    async of(category: string): Promise<CategorySettings> {
      return settingsOf(await categories.findOne({ _id: category }));
    },
    view: (category: string, doc: CategoryDoc | null) => categoryView(category, doc, defaults),
    /** Applies a patch; answers the settings before and after. */
    async update(category: string, actor: string, patch: CategoryRoutingPatch) {
      const now = new Date();
      const before = await categories.findOne({ _id: category });
      const pausing = patch.paused === true && before?.paused !== true;
      const set: Partial<CategoryDoc> = {
        updated_at: now,
        ...(patch.max_offers === undefined ? {} : { max_offers: patch.max_offers }),
        ...(patch.response_seconds === undefined
          ? {}
          : { response_seconds: patch.response_seconds }),
        ...(patch.paused === undefined
          ? {}
          : patch.paused
            ? {
                paused: true,
                pause_reason: patch.reason ?? null,
                ...(pausing ? { paused_by: actor, paused_at: now } : {}),
              }
            : { paused: false, pause_reason: null, paused_by: null, paused_at: null }),
      };
      const after = await categories.findOneAndUpdate(
        { _id: category },
        {
          $set: set,
          $setOnInsert: {
            ...(set.paused === undefined ? { paused: false, pause_reason: null } : {}),
            ...(set.paused_by === undefined ? { paused_by: null, paused_at: null } : {}),
            ...(set.max_offers === undefined ? { max_offers: null } : {}),
            ...(set.response_seconds === undefined ? { response_seconds: null } : {}),
          },
        },
        { upsert: true, returnDocument: 'after' },
      );
      return { before, after };
    },
  };
}
export type CategorySettingsStore = ReturnType<typeof categorySettings>;
