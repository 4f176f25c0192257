import { z } from 'zod';

/** Bounds of the long-poll `GET /v1/request/{id}/events`, also published in capabilities docs. */
export const UPDATES_LIMITS = {
  /** The longest `wait`, below common 30 s proxy and load-balancer idle timeouts. */
  maxWaitSeconds: 25,
  /** Long-polls one gateway process holds at once; past it new ones get 429. */
  maxWaitersPerProcess: 2_000,
  /** Long-polls one agent key holds at once on one gateway process. */
  maxWaitersPerKey: 20,
} as const;

const queryInteger = (value: unknown) =>
  typeof value === 'string' && /^[+-]?[0-9]+$/.test(value) ? Number(value) : value;

/** The query of the long-poll for a request's updates. */
export const RequestUpdatesQuery = z.strictObject({
  /** Only events with a higher `sequence` (0: from the first event). */
  after: z.preprocess(
    queryInteger,
    z
      .number()
      .int()
      .min(0)
      .default(0)
      .describe('Answer only events whose `sequence` is higher (0: from the first event).'),
  ),
  /** Seconds to wait for such an event when there is none yet (0: answer at once). */
  wait: z.preprocess(
    queryInteger,
    z
      .number()
      .int()
      .min(0)
      .max(UPDATES_LIMITS.maxWaitSeconds)
      .default(0)
      .describe(
        `Seconds to wait for a newer event when there is none yet, at most ${UPDATES_LIMITS.maxWaitSeconds} (0: answer at once).`,
      ),
  ),
  limit: z.preprocess(
    queryInteger,
    z
      .number()
      .int()
      .min(1)
      .max(100)
      .default(100)
      .describe('Most events in one answer; `has_more` says when more are waiting.'),
  ),
});
export type RequestUpdatesQuery = z.output<typeof RequestUpdatesQuery>;
