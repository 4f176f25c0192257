import type { Party } from '@handoff/contracts';
import { paginate, type PageQuery } from '@handoff/store';
import type { Collection, Document, Filter, WithId } from 'mongodb';
import { notFound, partySees } from '../domain/moves.ts';

// The queries every resource of this service shares: scoped to what a party may see.

/** What a party may list: its own request's, its own provider's, or (staff) everything. */
export function partyFilter(party: Party): { request_id?: string; provider_id?: string } {
  switch (party.role) {
    case 'customer':
      return { request_id: party.request_id };
    case 'provider':
      return { provider_id: party.provider_id };
    case 'staff':
      return {};
  }
}

/** One page of a list, newest first, as the resources' views. */
export async function listPage<D extends Document & { _id: string }, V>(
  collection: Collection<D>,
  filter: Filter<D>,
  page: PageQuery,
  view: (doc: WithId<D>) => V,
) {
  const found = await paginate(collection, filter, page);
  return { object: 'list' as const, data: found.data.map(view), has_more: found.has_more };
}

/** The document `id` if `party` may see it; `not_found` otherwise (no existence oracle). */
export async function findFor<
  D extends { _id: string; request_id: string; provider_id: string | null },
>(collection: Collection<D>, resource: string, id: string, party: Party): Promise<WithId<D>> {
  const doc = await collection.findOne({ _id: id } as Filter<D>);
  if (!doc || !partySees(party, doc)) {
    throw notFound(resource);
  }
  return doc;
}
