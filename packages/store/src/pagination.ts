import type { Collection, Document, Filter, WithId } from 'mongodb';

export interface PageQuery {
  limit: number;
  starting_after?: string | undefined;
  ending_before?: string | undefined;
}

export interface Page<T> {
  data: T[];
  has_more: boolean;
}

/**
 * Newest-first cursor pagination over a collection whose `_id`s sort by creation time (our ids
 * do). `starting_after` pages towards older items, `ending_before` towards newer ones; `has_more`
 * says whether another page exists in the direction of travel.
 */
export async function paginate<T extends Document & { _id: string }>(
  collection: Collection<T>,
  filter: Filter<T>,
  query: PageQuery,
): Promise<Page<WithId<T>>> {
  const towardsNewer = query.ending_before !== undefined;
  const cursor = towardsNewer ? query.ending_before : query.starting_after;
  const range =
    cursor === undefined ? {} : { _id: towardsNewer ? { $gt: cursor } : { $lt: cursor } };
  const rows = await collection
    .find({ $and: [filter, range] } as Filter<T>)
    .sort({ _id: towardsNewer ? 1 : -1 })
    .limit(query.limit + 1)
    .toArray();
  const has_more = rows.length > query.limit;
  const data = rows.slice(0, query.limit);
  return { data: towardsNewer ? data.reverse() : data, has_more };
}
