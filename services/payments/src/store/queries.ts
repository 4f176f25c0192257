import { narrowedFirst, paginate, type PageQuery } from '@handoff/store';
import type { Collection, Filter, WithId } from 'mongodb';

/** What staff's lists of this service's resources narrow by. */
export interface ListQuery extends PageQuery {
  status?: string | undefined;
  request_id?: string | undefined;
}

/** One page of a list, newest first, narrowed by `status` and `request_id` when given. */
export async function listPage<D extends { _id: string; status: string; request_id: string }, V>(
  collection: Collection<D>,
  query: ListQuery,
  view: (doc: WithId<D>) => V,
) {
  // With a request, its status is checked on the request's documents (narrowedFirst).
  const filter = narrowedFirst(
    {
      ...(query.status ? { status: query.status } : {}),
      ...(query.request_id ? { request_id: query.request_id } : {}),
    } as Filter<D>,
    ['status'],
  );
  const page = await paginate(collection, filter, query);
  return { object: 'list' as const, data: page.data.map(view), has_more: page.has_more };
}
