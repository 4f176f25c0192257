// The categories as routing staff see them, and the requests a resumed category lets go again.
import type { IntakeContext } from '../handlers/context.ts';
import { autoRoutingOf } from '../store/routing.ts';
import type { RoutingDeps } from './decide.ts';
import { asMove, ROUTABLE } from './moves.ts';
import type { CategorySettingsStore } from './settings.ts';

/** The most requests one resume hands back to the rules at once (the rest: a `rerun` each). */
const RESUMED_AT_MOST = 500;

/**
 * Every category that providers name or that has settings, with its settings, how many providers
 * it has (and how many of them take requests now), and how many of its requests wait for staff.
 */
export async function categoryList(ctx: IntakeContext, settings: CategorySettingsStore) {
  const { providers, requests } = ctx.collections;
  const [named, configured] = await Promise.all([
    providers.distinct('categories'),
    settings.categories.find({}).toArray(),
  ]);
  const docs = new Map(configured.map((doc) => [doc._id, doc]));
  const names = [...new Set([...named, ...docs.keys()])].sort();
  const data = await Promise.all(
    names.map(async (category) => {
      const [all, available, queued] = await Promise.all([
        providers.countDocuments({ categories: category }),
        providers.countDocuments({
          categories: category,
          status: 'active',
          availability: { $ne: 'away' },
        }),
        requests.countDocuments({ category, 'auto_routing.state': 'queued' }),
      ]);
      return {
        ...settings.view(category, docs.get(category) ?? null),
        providers: all,
        available_providers: available,
        queued_requests: queued,
      };
    }),
  );
  return { object: 'list' as const, data, has_more: false };
}

/** A category resumed: its requests queued because it was paused go back to the rules. */
export async function resumeQueued(
  deps: RoutingDeps,
  category: string,
  who: { actor: string; call_id: string | null },
): Promise<void> {
  const waiting = await deps.ctx.collections.requests
    .find(
      { category, 'auto_routing.state': 'queued', 'auto_routing.queue_reason': 'paused' },
      { projection: { _id: 1 } },
    )
    .sort({ created_at: 1 })
    .limit(RESUMED_AT_MOST)
    .toArray();
  for (const { _id } of waiting) {
    const { move } = asMove('request.routing_resumed', (doc) => {
      const auto = autoRoutingOf(doc);
      if (!ROUTABLE.includes(doc.status) || auto.state !== 'queued') return null;
      return {
        action: 'update' as const,
        change: { auto_routing: { ...auto, state: 'routing' as const, queue_reason: null } },
      };
    });
    await deps.move(_id, who, move);
  }
}
