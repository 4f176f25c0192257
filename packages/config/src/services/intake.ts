// The variables of services/intake. The schema lives in this package rather than in the service so
// that the dev stack (which checks a stack's settings before it starts anything) and the deploy
// checks read the same schema without importing a service. The service reads it in src/env.ts.
import { z as zod } from 'zod';
import { baseServiceEnv, durationMs } from '../index.ts';

/**
 * Intake reads what every backend service reads, how long it trusts a cached provider and how
 * long a workspace session lasts.
 */
export const intakeEnv = baseServiceEnv.extend({
  /** How long a replica trusts a provider it read (changes arrive sooner, over the bus). */
  ACCESS_CACHE_TTL_MS: durationMs.default(30_000),
  /** How long a provider's workspace session lasts from its sign-in (7 days by default). */
  WORKSPACE_SESSION_TTL_MS: durationMs.default(7 * 24 * 60 * 60 * 1000),
  /**
   * How long a provider has to accept or decline an offer before it lapses and the request moves
   * on, in seconds, where its category sets no window of its own (2 hours by default).
   */
  ROUTING_RESPONSE_SECONDS: zod.coerce.number().int().min(1).max(604_800).default(7_200),
  /** Offers of one request before it goes to the staff queue, where its category sets none. */
  ROUTING_MAX_OFFERS: zod.coerce.number().int().min(1).max(10).default(3),
});
export type IntakeEnv = zod.output<typeof intakeEnv>;
