import { implement, type Endpoint } from '@handoff/bus';
import { createdEarlier, creatingOperation } from '@handoff/runtime';
import {
  deadlineFor,
  type EventType,
  type NotFoundCode,
  type Operation,
  type Party,
  type StateMachine,
} from '@handoff/contracts';
import { groupedInserts, type GroupedInserts, type PageQuery } from '@handoff/store';
import type { Collection, Document, Filter, WithId } from 'mongodb';
import type { z } from 'zod';
import { creationMessages } from '../domain/creation-events.ts';
import { findFor, listFilter, listPage } from '../store/queries.ts';
import type { MilestonesDeps } from './deps.ts';

// What every resource of this service (`resourcesOf`) does alike: its creation, and its two
// reads for a party.

type PartyDoc = Document & { _id: string; request_id: string; provider_id: string | null };

export interface Resource<D extends Document, V> {
  collection: Collection<D>;
  machine: StateMachine<string, string, EventType>;
  view: (doc: WithId<D>) => V;
  /** The answer when a document is missing or the caller may not see it. */
  notFound: NotFoundCode;
}

/** The fields of a document entering `machine`'s first state at `now`. */
export function opening<S extends string, A extends string>(
  machine: StateMachine<S, A, EventType>,
  now: Date,
) {
  const status = machine.initial;
  return {
    status,
    deadline_at: deadlineFor(machine, status, now),
    created_at: now,
    updated_at: now,
  };
}

/**
 * Each collection's inserts of new documents, grouped: creations of different requests that
 * arrive together are written as one command ({@link groupedInserts}).
 */
const inserts = new WeakMap<Collection<Document>, GroupedInserts<Document>>();
function insertInto<D extends Document>(collection: Collection<D>, doc: D): Promise<void> {
  const key = collection as unknown as Collection<Document>;
  let grouped = inserts.get(key);
  if (!grouped) {
    grouped = groupedInserts(key);
    inserts.set(key, grouped);
  }
  return grouped.insert(doc);
}

/**
 * Creates a resource in the turn of the document it depends on (so that no move of that one
 * slips in between): `build` checks and makes it, it is written with its machine's creation
 * event in its outbox (kept there: together with the creations of other requests under way),
 * then the event is published. Returns its view.
 */
export async function create<D extends PartyDoc, V extends Record<string, unknown>>(
  deps: MilestonesDeps,
  { collection, machine, view }: Resource<D, V>,
  turn: { of: { collectionName: string }; id: string },
  build: () => Promise<WithId<D>>,
): Promise<V> {
  // A retry whose first answer was lost: what that attempt made (a proposal, a deliverable).
  const earlier = await createdEarlier(collection);
  if (earlier && earlier.request_id !== undefined) return view(earlier);
  const { doc, messages } = await deps.store.serialize(turn.of, turn.id, async () => {
    const doc = { ...(await build()), ...creatingOperation() };
    const messages = creationMessages(machine, doc.request_id, view(doc));
    await insertInto(collection, deps.outbox.withMessages(collection, doc, messages) as D);
    return { doc, messages };
  });
  await deps.outbox.publishOrLeave(collection, doc._id, messages);
  return view(doc);
}

/** The operations of contracts' `partyReads`: a page of a resource, narrowed by filters, and one item. */
interface PartyReadOps<V> {
  list: Operation<
    z.ZodType<PageQuery & { party: Party }>,
    z.ZodType<unknown, { object: 'list'; data: V[]; has_more: boolean }>
  >;
  get: Operation<z.ZodType<{ id: string; party: Party }>, z.ZodType<unknown, V>>;
}

/**
 * The list and get of a resource, each scoped to what the party may see. The list's filters
 * (`status`, `job_id`, …) are the other fields of its input, each a field of the document of the
 * same name; one left out does not narrow.
 */
export function partyReads<D extends PartyDoc, V>(
  ops: PartyReadOps<V>,
  resource: Resource<D, V>,
): Record<string, Endpoint> {
  const { collection, view } = resource;
  return {
    ...implement(ops.list, async (input) => {
      const { party, limit, starting_after, ending_before, ...filters } = input;
      const filter = listFilter(party, filters as Record<string, string | undefined>);
      if (filter === null) return { object: 'list' as const, data: [], has_more: false };
      return listPage(
        collection,
        filter as Filter<D>,
        { limit, starting_after, ending_before },
        view,
      );
    }),
    ...implement(ops.get, async ({ id, party }) => view(await findFor(resource, id, party))),
  };
}
