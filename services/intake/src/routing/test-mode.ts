// Test requests (made with a `hk_test_` key) are offered to the simulated provider only, and the
// simulated provider is offered nothing else: real providers never see test data and the
// simulated provider never holds live work.
import { BusError } from '@handoff/bus';
import {
  SIMULATED_PROVIDER_EMAIL,
  SIMULATED_PROVIDER_ID,
  SIMULATED_PROVIDER_NAME,
} from '@handoff/contracts';
import type { IntakeContext } from '../handlers/context.ts';
import type { RequestDoc } from '../store/requests.ts';

export const isTestRequest = (doc: Pick<RequestDoc, 'livemode'>): boolean => doc.livemode === false;

/**
 * The simulated provider's record, made once (by its fixed id, so replicas and restarts agree):
 * active, in no category (the rules never weigh it for a live request), holding nothing.
 */
export async function ensureSimulatedProvider(ctx: IntakeContext): Promise<void> {
  const now = new Date();
  try {
    await ctx.collections.providers.insertOne({
      _id: SIMULATED_PROVIDER_ID,
      name: SIMULATED_PROVIDER_NAME,
      email: SIMULATED_PROVIDER_EMAIL,
      email_key: SIMULATED_PROVIDER_EMAIL,
      categories: [],
      status: 'active',
      capacity: 0,
      languages: [],
      availability: 'available',
      held: [],
      turn: 0,
      outcomes: [],
      created_at: now,
      updated_at: now,
    });
  } catch (error) {
    // Made before (another replica, an earlier start).
    if ((error as { code?: number }).code !== DUPLICATE_KEY) throw error;
  }
}

const DUPLICATE_KEY = 11000;

/**
 * Refuses routing that would mix the modes: a test request routed to a real provider, or a live
 * one to the simulated provider (409 `routing_mode_mismatch`).
 */
export function refuseMixedRouting(
  doc: Pick<RequestDoc, 'livemode'>,
  providerIds: readonly string[],
) {
  const test = isTestRequest(doc);
  const mixed = providerIds.some((id) => (id === SIMULATED_PROVIDER_ID) !== test);
  if (!mixed) return;
  throw new BusError(
    'routing_mode_mismatch',
    test
      ? 'A test request goes only to the simulated provider; real providers never see test data.'
      : 'The simulated provider takes test requests only.',
  );
}
