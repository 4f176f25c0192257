import { listQueryWith, type ListQuery } from '@handoff/contracts';
import type { z } from 'zod';

/** A list query with extra filters (conventions §1 paging plus, e.g., `status`). */
export const listQuery = listQueryWith;

/** The paging part of a validated list query, as the bus operations take it. */
export function page(query: { limit: number; starting_after?: string; ending_before?: string }) {
  return {
    limit: query.limit,
    ...(query.starting_after ? { starting_after: query.starting_after } : {}),
    ...(query.ending_before ? { ending_before: query.ending_before } : {}),
  };
}

/** Keeps the filters that were given (the bus schemas take absent, not `undefined`). */
export function given<T extends Record<string, unknown>>(filters: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(filters).filter(([, value]) => value !== undefined),
  ) as Partial<T>;
}

/**
 * A list's query, conventions §1 paging plus `filters`, and the bus input made of the validated
 * query: its page and the filters that were given.
 */
export function filteredList<F extends z.ZodRawShape>(filters: F) {
  const query = listQuery(filters);
  const keys = Object.keys(filters);
  return {
    query,
    input: (valid: z.output<typeof query>) => ({
      // The paging fields are there whatever the filters (TypeScript cannot see it through F).
      ...page(valid as ListQuery),
      ...(given(
        Object.fromEntries(keys.map((key) => [key, (valid as Record<string, unknown>)[key]])),
      ) as Partial<z.output<z.ZodObject<F>>>),
    }),
  };
}
