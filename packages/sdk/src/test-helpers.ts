import type { ListOption, Operations } from './operations.ts';

/**
 * Test mode (a `hk_test_` key): test clocks, which move the deadlines of the test requests made
 * on them (`requests.create({ ..., test_clock })`) as if time had passed.
 */
export function testHelpers(calls: Operations<[], ListOption>, apiKey: string) {
  return {
    /** Whether this client's key is live (false for a test key, `hk_test_…`). */
    livemode: !apiKey.startsWith('hk_test_'),
    testClocks: {
      create: calls.send('/v1/test-clocks', {}),
      list: () => calls.pages('/v1/test-clocks')(),
      get: calls.get('/v1/test-clocks/{id}'),
      /** Moves the clock to `frozen_time`: every deadline it passes fires, in order, with its events. */
      advance: calls.send('/v1/test-clocks/{id}/advance'),
      delete: calls.delete('/v1/test-clocks/{id}'),
    },
  };
}
