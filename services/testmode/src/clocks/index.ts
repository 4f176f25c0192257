// Test clocks (test mode): what the testmode service's bootstrap takes of them.
export { clockEndpoints, type ClockDeps } from './endpoints.ts';
export { CLOCK_COLLECTIONS } from './store.ts';
