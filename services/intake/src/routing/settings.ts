// A category's routing settings: staff pause it, and set its response window and offer limit.
import type { CategoryRoutingPatch } from '@handoff/contracts';
import { categoryCollection, categoryView, type CategoryDoc } from '../store/routing.ts';
import type { IntakeContext } from '../handlers/context.ts';

export interface CategorySettings {
  paused: boolean;
  maxOffers: number;
  responseSeconds: number;
}

/**
 * How long a category's settings are used without reading them again: the rules read them for
 * every new request, and they change only when staff change them. A change made through this
 * process counts at once; through another replica, within this.
 */
export const SETTINGS_HELD_MS = 1_000;

/** The settings read lately, by category, shared by every user of the settings in this process. */
const held = new Map<string, { settings: CategorySettings; until: number }>();

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
      const kept = held.get(category);
      if (kept && kept.until > Date.now()) return kept.settings;
      const settings = settingsOf(await categories.findOne({ _id: category }));
      held.set(category, { settings, until: Date.now() + SETTINGS_HELD_MS });
      return settings;
    },
    view: (category: string, doc: CategoryDoc | null) => categoryView(category, doc, defaults),
    /** Applies a patch; answers the settings before and after. */
    async update(category: string, actor: string, patch: CategoryRoutingPatch) {
      const now = new Date();
      held.delete(category);
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
      held.delete(category);
      return { before, after };
    },
  };
}
export type CategorySettingsStore = ReturnType<typeof categorySettings>;
