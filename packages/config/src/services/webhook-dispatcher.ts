// The variables of services/webhook-dispatcher. The schema lives in this package rather than in the service so
// that the dev stack (which checks a stack's settings before it starts anything) and the deploy
// checks read the same schema without importing a service. The service reads it in src/env.ts.
import { WEBHOOK_DEFAULTS, WEBHOOK_MAX_ENDPOINTS_DEFAULT } from '@handoff/contracts';
import { z } from 'zod';
import { baseServiceEnv, durationMs, envBoolean } from '../index.ts';

const NUMBER = /^(?:\d+(?:\.\d*)?|\.\d+)$/;

/**
 * Reads `WEBHOOK_RETRY_SCHEDULE`: comma-separated seconds between attempts ("5,300,1800");
 * decimals are allowed so tests can compress the schedule. Undefined or blank gives the default
 * schedule. Anything else that is not a list of positive finite numbers throws an Error saying
 * what is wrong (fit for a zod `transform` that turns it into an issue).
 */
export function parseRetrySchedule(text: string | undefined): number[] {
  if (text === undefined || text.trim() === '') return [...WEBHOOK_DEFAULTS.retryScheduleSeconds];
  const steps = text.split(',').map((part) => part.trim());
  const schedule: number[] = [];
  for (const [index, step] of steps.entries()) {
    const value = Number(step);
    if (!NUMBER.test(step) || !Number.isFinite(value) || value <= 0) {
      throw new Error(
        `retry schedule must be comma-separated positive numbers of seconds (e.g. "5,300,1800"); ` +
          `item ${index + 1} is ${step === '' ? 'empty' : JSON.stringify(step)}`,
      );
    }
    schedule.push(value);
  }
  return schedule;
}

const count = (what: string) =>
  z.coerce
    .number({ error: `must be a whole number of ${what}` })
    .int()
    .min(1)
    .max(10_000);

export const webhookDispatcherEnv = baseServiceEnv.extend({
  /** Seconds between attempts, comma-separated (e.g. `5,300,1800`); compresses days in tests. */
  WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .optional()
    .transform((text, ctx) => {
      try {
        return parseRetrySchedule(text);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    }),
  /**
   * Longest one attempt may take, connect and response included. Plus 5 s, it is also how long
   * the jobs of a replica that died wait before another replica takes them (the ack wait).
   */
  WEBHOOK_TIMEOUT_MS: durationMs.default(WEBHOOK_DEFAULTS.timeoutMs),
  /** `true` lets endpoints on private and loopback addresses (and plain http) through. */
  WEBHOOK_ALLOW_PRIVATE_TARGETS: envBoolean.default(false),
  /** base64 of 32 bytes: encrypts endpoint secrets at rest (they sign, so they cannot be hashed). */
  WEBHOOK_SECRETS_KEY: z.string().refine((value) => Buffer.from(value, 'base64').length === 32, {
    message: 'must be base64 of exactly 32 bytes',
  }),
  /**
   * Deliveries at work at once (sending, or recording an attempt before acknowledging its job):
   * also the most a crash of this replica can make it send twice.
   */
  WEBHOOK_CONCURRENCY: count('deliveries at once').default(32),
  /**
   * Requests open to one endpoint at first, and while it answers at its usual speed, so a slow
   * one cannot hold up others; an overloaded one (429, 5xx, timeouts) gets fewer, down to one.
   */
  WEBHOOK_ENDPOINT_CONCURRENCY: count('deliveries at once').default(4),
  /**
   * The most requests open to one endpoint that answers 2xx as fast as ever while all its slots
   * are in use: it gains a slot per round of such answers. At or below
   * WEBHOOK_ENDPOINT_CONCURRENCY, the slots stay fixed at that number.
   */
  WEBHOOK_ENDPOINT_CONCURRENCY_MAX: count('deliveries at once').default(16),
  WEBHOOK_DISABLE_AFTER_S: z.coerce
    .number()
    .int()
    .positive()
    .default(WEBHOOK_DEFAULTS.disableAfterSeconds),
  /** Most endpoints one integration may register. */
  WEBHOOK_MAX_ENDPOINTS: count('endpoints').default(WEBHOOK_MAX_ENDPOINTS_DEFAULT),
  /**
   * `true` holds every delivery (they wait in the queue, due, until it is `false` again): an operator's
   * switch during an incident, and what the API check uses so that generated endpoint URLs are
   * never contacted.
   */
  WEBHOOK_DELIVERIES_PAUSED: envBoolean.default(false),
});
export type WebhookDispatcherEnv = z.output<typeof webhookDispatcherEnv>;
