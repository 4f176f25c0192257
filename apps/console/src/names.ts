import { useEffect, useState } from 'preact/hooks';
import type { Provider, RoutingCandidate, StaffApi } from './api.ts';
import { keptMap } from './memory.ts';

// Providers by name rather than by id: offers name only the provider's id, decisions name the
// candidates they weighed. A name once seen is remembered for the page's life.

const NAMES = 'provider-names';

/** Remembers the names of the candidates a decision or a suggestion lists. */
export function learnNames(candidates: readonly Pick<RoutingCandidate, 'provider_id' | 'name'>[]) {
  const names = keptMap<string>(NAMES);
  for (const c of candidates) names.set(c.provider_id, c.name);
}

/** A provider's name by id; the ids of `wanted` not known yet are looked up (shown as ids meanwhile). */
export function useProviderNames(api: StaffApi, wanted: readonly string[]): (id: string) => string {
  const names = keptMap<string>(NAMES);
  const missing = [...new Set(wanted)].filter((id) => !names.has(id)).sort();
  const key = missing.join(',');
  const [, setLearned] = useState(0);
  useEffect(() => {
    if (!key) return;
    let live = true;
    void Promise.all(
      key.split(',').map((id) =>
        api.get<Provider>(`/providers/${id}`).then(
          (provider) => names.set(id, provider.name),
          () => names.set(id, id),
        ),
      ),
    ).then(() => live && setLearned((n) => n + 1));
    return () => {
      live = false;
    };
  }, [api, key]);
  return (id) => names.get(id) ?? id;
}
