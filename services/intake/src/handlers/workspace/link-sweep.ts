import type { Store } from '@handoff/store';
import { intakeCollections } from '../../store/collections.ts';
import { hourOf } from '../../store/workspace.ts';

const HOUR_MS = 60 * 60_000;

/** Deletes the sign-in links that expired before this hour (unused ones; used ones are gone). */
export async function sweepExpiredLinks(
  deps: { store: Store },
  now = new Date(),
  hoursBack = 48,
): Promise<number> {
  const links = intakeCollections(deps.store).signInLinks;
  let deleted = 0;
  for (let hours = 1; hours <= hoursBack; hours += 1) {
    const hour = hourOf(new Date(now.getTime() - hours * HOUR_MS));
    deleted += (await links.deleteMany({ expires_hour: hour })).deletedCount;
  }
  return deleted;
}
