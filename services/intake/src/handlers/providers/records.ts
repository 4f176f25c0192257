// `providers.create`, `.list`, `.get`: staff add providers and read them with their keys.
import { implement, type Endpoint } from '@handoff/bus';
import {
  emailKey,
  newId,
  providerOps,
  ROUTING_LIMITS,
  SIMULATED_PROVIDER_ID,
} from '@handoff/contracts';
import { paginate } from '@handoff/store';
import type { Filter } from 'mongodb';
import { providerSnapshot, providerView, type ProviderDoc } from '../../store/providers.ts';
import { insertAnnounced } from '../../store/single-document.ts';
import type { InputOf, IntakeContext } from '../context.ts';
import { audited } from './audit.ts';
import { findProvider, KEYS_SHOWN, providerWithKeys } from './lookups.ts';

/**
 * A new provider's routing profile: its capacity, languages and availability as given (or the
 * defaults), and a turn in the rotation level with the providers of its categories, so that it
 * takes its share of new requests from now on rather than every request until it catches up.
 */
async function routingProfile(
  ctx: IntakeContext,
  input: InputOf<typeof providerOps.create>['input'],
): Promise<Partial<ProviderDoc>> {
  const first = await ctx.collections.providers
    .find({ categories: { $in: input.categories }, status: 'active' }, { projection: { turn: 1 } })
    .sort({ turn: 1 })
    .limit(1)
    .toArray();
  return {
    capacity: input.capacity ?? ROUTING_LIMITS.defaultCapacity,
    languages: input.languages ?? [],
    availability: input.availability ?? 'available',
    held: [],
    turn: first[0]?.turn ?? 0,
    outcomes: [],
  };
}

async function createProvider(
  ctx: IntakeContext,
  { actor, input }: InputOf<typeof providerOps.create>,
  callId: string | null,
) {
  const now = new Date();
  const doc: ProviderDoc = {
    ...(await routingProfile(ctx, input)),
    _id: newId('prv'),
    name: input.name,
    email: input.email,
    email_key: emailKey(input.email),
    categories: input.categories,
    status: 'active',
    created_at: now,
    updated_at: now,
  };
  const message = audited(
    { actor, callId },
    'provider.created',
    { type: 'provider', id: doc._id },
    null,
    providerSnapshot(doc),
  );
  await insertAnnounced(ctx, ctx.collections.providers, doc, message);
  return providerView(doc, []);
}

/** One page of providers, each with its newest keys (read for the whole page at once). */
async function listProviders(
  ctx: IntakeContext,
  { status, category, ...page }: InputOf<typeof providerOps.list>,
) {
  // The simulated provider (test mode) is the system's, not a provider staff manage.
  const filter: Filter<ProviderDoc> = { _id: { $ne: SIMULATED_PROVIDER_ID } };
  if (status) filter.status = status;
  if (category) filter.categories = category;
  const result = await paginate(ctx.collections.providers, filter, page);
  const keys = await ctx.collections.providerKeys
    .find({ provider_id: { $in: result.data.map((doc) => doc._id) } })
    .sort({ _id: -1 })
    .toArray();
  return {
    object: 'list' as const,
    data: result.data.map((doc) =>
      providerView(doc, keys.filter((key) => key.provider_id === doc._id).slice(0, KEYS_SHOWN)),
    ),
    has_more: result.has_more,
  };
}

export function providerRecordEndpoints(ctx: IntakeContext): Record<string, Endpoint> {
  return {
    ...implement(providerOps.create, (input, { callId }) => createProvider(ctx, input, callId)),
    ...implement(providerOps.list, (input) => listProviders(ctx, input)),
    ...implement(providerOps.get, async ({ id }) =>
      providerWithKeys(ctx, await findProvider(ctx, id)),
    ),
  };
}
