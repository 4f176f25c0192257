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
  const { where, towardsNewer } = pageFilter(filter, query);
  const rows = await collection
    .find(where)
    .sort({ _id: towardsNewer ? 1 : -1 })
    .limit(query.limit + 1)
    .toArray();
  const has_more = rows.length > query.limit;
  const data = rows.slice(0, query.limit);
  return { data: towardsNewer ? data.reverse() : data, has_more };
}

/**
 * The filter of one page: the caller's, with the cursor's `_id` range beside it. One flat object
 * whenever the range does not meet an `_id` condition of the caller's: the same query to MongoDB,
 * but a backend that serves only top-level equalities from an index (FerretDB) would read every
 * document of the collection under an `$and`, and so every list would slow down as data grew.
 */
export function pageFilter<T extends Document>(
  filter: Filter<T>,
  query: PageQuery,
): { where: Filter<T>; towardsNewer: boolean } {
  const towardsNewer = query.ending_before !== undefined;
  const cursor = towardsNewer ? query.ending_before : query.starting_after;
  if (cursor === undefined) return { where: filter, towardsNewer };
  const range = { _id: towardsNewer ? { $gt: cursor } : { $lt: cursor } };
  const where = '_id' in filter ? { $and: [filter, range] } : { ...filter, ...range };
  return { where: where as Filter<T>, towardsNewer };
}
