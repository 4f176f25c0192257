// The variables of services/intake. The schema lives in this package rather than in the service so
// that the dev stack (which checks a stack's settings before it starts anything) and the deploy
// checks read the same schema without importing a service. The service reads it in src/env.ts.
import type { z } from 'zod';
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
});
export type IntakeEnv = z.output<typeof intakeEnv>;
