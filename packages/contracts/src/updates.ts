import { z } from 'zod';
import { UPDATES_LIMITS } from './limits.ts';

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
