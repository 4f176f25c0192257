import type { Provider } from '@handoff/contracts';
import { providerView, type ProviderDoc } from '../../store/providers.ts';
import { findOr404 } from '../../store/single-document.ts';
import type { IntakeContext } from '../context.ts';

/** How many of a provider's keys its view lists, newest first. */
export const KEYS_SHOWN = 100;

export const findProvider = (ctx: IntakeContext, id: string) =>
  findOr404(ctx.collections.providers, id, 'provider_not_found', 'No such provider.');

/** The provider as staff see it: with its newest keys. */
export async function providerWithKeys(ctx: IntakeContext, doc: ProviderDoc): Promise<Provider> {
  const keys = await ctx.collections.providerKeys
    .find({ provider_id: doc._id })
    .sort({ _id: -1 })
    .limit(KEYS_SHOWN)
    .toArray();
  return providerView(doc, keys);
}
