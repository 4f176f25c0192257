import { BusError } from '@handoff/bus';
import type { NotFoundCode, Party } from '@handoff/contracts';
import { narrowedFirst, paginate, type PageQuery } from '@handoff/store';
import type { Collection, Document, Filter, WithId } from 'mongodb';
import { partySees } from '../domain/parties.ts';

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

/**
 * Equalities that match many documents: every document in a status, every document of a
 * provider (its whole history). A list's other equalities (a request's, a job's, a milestone's)
 * find few, so they are its lookup and these are checked on what they find.
 */
const BROAD = ['status', 'provider_id'];

/**
 * The filter of a party's list with `filters` (equalities on the document's fields of the same
 * names; one left out does not narrow), or null when they ask for what the party may not see (a
 * customer naming another request). The narrowest equalities are the lookup and the rest are
 * checked on what they find ({@link narrowedFirst}): a provider's list of one request reads that
 * request's few documents, never the provider's whole history; without a request, job or
 * milestone the provider is the lookup, and a status alone only for staff's list by status.
 */
export function listFilter(
  party: Party,
  filters: Record<string, string | undefined>,
): Record<string, unknown> | null {
  const scope: Record<string, string> = partyFilter(party);
  const given = Object.entries(filters).filter(
    (entry): entry is [string, string] => entry[1] !== undefined,
  );
  if (given.some(([field, value]) => field in scope && scope[field] !== value)) return null;
  const filter: Record<string, string> = { ...scope, ...Object.fromEntries(given) };
  const narrow = Object.keys(filter).some((field) => !BROAD.includes(field));
  return narrowedFirst(filter, narrow ? BROAD : ['status']);
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

/** The document `id` if `party` may see it; the 404 `notFound` otherwise (no existence oracle). */
export async function findFor<
  D extends { _id: string; request_id: string; provider_id: string | null },
>(
  resource: { collection: Collection<D>; machine: { resource: string }; notFound: NotFoundCode },
  id: string,
  party: Party,
): Promise<WithId<D>> {
  const doc = await resource.collection.findOne({ _id: id } as Filter<D>);
  if (!doc || !partySees(party, doc)) {
    throw new BusError(resource.notFound, `No such ${resource.machine.resource}.`);
  }
  return doc;
}
