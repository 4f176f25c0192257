// What the gateway's limits do, for the health port's /metrics: the calls each rate limit refused
// (`handoff.rate_limit.refusals`), and the long-polls held under UPDATES_MAX_WAITERS_PER_PROCESS
// (`handoff.long_polls.waiting`).
import { handoffMeter, lazyCounter, type Attributes } from '@handoff/observability';

/**
 * The limits that answer 429: the rate-limit policies by name (`ratePolicies`: per key, per
 * address for public calls and sign-in asks, failed authentications per address and per key
 * prefix), and the long-poll bounds per process and per key. Any other name is `_OTHER`.
 */
export const RATE_LIMITS = [
  'key',
  'public',
  'sign_in',
  'auth_failures',
  'auth_failures_prefix',
  'long_polls_per_process',
  'long_polls_per_key',
] as const;

const OTHER_LIMIT = '_OTHER';

const refusals = lazyCounter(
  'handoff.rate_limit.refusals',
  'Calls the gateway refused with 429, by the limit they were over.',
  '{request}',
);

/** Each limit's label set, made once: counting a refusal allocates nothing. */
const attributeSets = new Map<string, Attributes>(
  [...RATE_LIMITS, OTHER_LIMIT].map((limit) => [limit, { limit }]),
);
const otherLimit: Attributes = { limit: OTHER_LIMIT };

/**
 * Makes every declared limit's series exist at 0 from the start (not `_OTHER`), so a scrape shows
 * them before the first refusal and `increase()` sees the first one. Called once the meter
 * provider is named.
 */
export function countFromZero(): void {
  for (const limit of RATE_LIMITS) {
    const attributes = attributeSets.get(limit);
    if (attributes !== undefined) refusals().add(0, attributes);
  }
}

/** Counts a call refused for being over `limit` (a policy's name, or a long-poll bound). */
export function countRefusal(limit: string): void {
  refusals().add(1, attributeSets.get(limit) ?? otherLimit);
}

/** How many long-polls each live update hub of this process holds now. */
const holders = new Set<() => number>();
let gaugeMade = false;

/**
 * Reports the long-polls `waiting()` holds in `handoff.long_polls.waiting`, read at each scrape
 * (nothing is recorded per poll); answers the function that stops it. A process normally has one
 * hub; the tests' several gateways in one process add up.
 */
export function reportLongPolls(waiting: () => number): () => void {
  if (!gaugeMade) {
    gaugeMade = true;
    handoffMeter()
      .createObservableGauge('handoff.long_polls.waiting', {
        description: 'Long-polls for request updates this gateway holds open now.',
        unit: '{request}',
      })
      .addCallback((result) => {
        let held = 0;
        for (const count of holders) held += count();
        result.observe(held);
      });
  }
  holders.add(waiting);
  return () => holders.delete(waiting);
}
