import type { CollectionPlan } from '@handoff/store';

/**
 * The collections this service owns. The simulated provider keeps no copy of anyone's state:
 * every act reads the services it acts through first (handlers/provider.ts). It keeps only who
 * is acting on which test request now, so that two replicas never act on one request at once.
 */
export const SIMULATION_LEASES = 'simulation_leases';

export const collections: CollectionPlan = {
  [SIMULATION_LEASES]: [],
};
