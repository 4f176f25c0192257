// The Requests screen's filters: what staff choose, how it is written in a link between screens
// (`routing_state=queued&category=plumbing`), and the query of the staff API it becomes.

const HOUR = 60 * 60 * 1000;

/** Ages as people pick them, each a bound on when the request was created. */
export const AGES = {
  '': { words: 'Any age' },
  'newer-1h': { words: 'Newer than 1 hour', after: HOUR },
  'newer-1d': { words: 'Newer than 1 day', after: 24 * HOUR },
  'older-1h': { words: 'Older than 1 hour', before: HOUR },
  'older-1d': { words: 'Older than 1 day', before: 24 * HOUR },
  'older-1w': { words: 'Older than 1 week', before: 7 * 24 * HOUR },
} as const satisfies Record<string, { words: string; after?: number; before?: number }>;
export type Age = keyof typeof AGES;

export interface Filters {
  status: string;
  routing_state: string;
  category: string;
  age: Age;
}

export const NO_FILTERS: Filters = { status: '', routing_state: '', category: '', age: '' };

export const isAge = (value: string): value is Age => Object.hasOwn(AGES, value);

/** Filters written as a screen's parameter (`go('requests', 'routing_state=queued')`). */
export function parseFilters(param: string): Filters {
  const read = new URLSearchParams(param);
  const age = read.get('age') ?? '';
  return {
    status: read.get('status') ?? '',
    routing_state: read.get('routing_state') ?? '',
    category: read.get('category') ?? '',
    age: isAge(age) ? age : '',
  };
}

/** The staff API's query of `filters` at `now`, without the dimensions named in `without`. */
export function filterQuery(
  filters: Filters,
  now: number,
  without: readonly ('status' | 'routing_state')[] = [],
): Record<string, string | undefined> {
  const age: { words: string; after?: number; before?: number } = AGES[filters.age];
  const at = (ms: number | undefined) =>
    ms === undefined ? undefined : new Date(now - ms).toISOString();
  return {
    status: without.includes('status') ? undefined : filters.status,
    routing_state: without.includes('routing_state') ? undefined : filters.routing_state,
    category: filters.category,
    created_after: at(age.after),
    created_before: at(age.before),
  };
}
