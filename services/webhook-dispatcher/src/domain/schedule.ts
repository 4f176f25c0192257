// Retry timing (conventions §3): a schedule of waits between attempts, jittered, honouring
// Retry-After within the schedule's bounds, and the rule that disables an endpoint that has
// failed for days without a single success. The schedule itself is read from
// WEBHOOK_RETRY_SCHEDULE by parseRetrySchedule in @handoff/config, with the rest of the env.
import { WEBHOOK_DEFAULTS } from '@handoff/contracts';

/** Each wait is moved by up to this fraction either way, so retries of many events spread out. */
export const JITTER_RATIO = 0.1;

/**
 * How long to wait before the next attempt, in whole milliseconds, after `attemptsMade`
 * attempts (1 after the first try); null once the schedule is exhausted, so an event gets at most
 * `schedule.length + 1` attempts.
 *
 * The scheduled wait is jittered by ±10 % (uniformly, from `random`). A `Retry-After` from the
 * receiver is a "not before": the wait becomes max(jittered step, Retry-After), but Retry-After
 * is capped at the schedule's longest step so a receiver cannot park deliveries for longer than
 * the schedule would. Retry-After is not jittered down, so it is always honoured in full up to
 * that cap.
 */
export function nextAttemptDelayMs(
  attemptsMade: number,
  schedule: readonly number[],
  retryAfterSeconds: number | null,
  random: () => number = Math.random,
): number | null {
  if (!Number.isInteger(attemptsMade) || attemptsMade < 1) {
    throw new RangeError(`attemptsMade must be a positive integer, got ${attemptsMade}`);
  }
  const step = schedule[attemptsMade - 1];
  if (step === undefined) return null;
  const jitter = 1 + (random() * 2 - 1) * JITTER_RATIO;
  let delayMs = step * 1_000 * jitter;
  if (retryAfterSeconds !== null && Number.isFinite(retryAfterSeconds) && retryAfterSeconds > 0) {
    const longestMs = Math.max(...schedule) * 1_000;
    delayMs = Math.max(delayMs, Math.min(retryAfterSeconds * 1_000, longestMs));
  }
  return Math.max(0, Math.round(delayMs));
}

/**
 * Whether an endpoint should be disabled as failing: it has been failing since
 * `firstFailureAt` (the first failure after its last success; the caller clears it on success),
 * no success came after that, and `disableAfterSeconds` (default 5 days) have passed since.
 */
export function shouldDisable(
  firstFailureAt: Date | null,
  lastSuccessAt: Date | null,
  now: Date,
  disableAfterSeconds: number = WEBHOOK_DEFAULTS.disableAfterSeconds,
): boolean {
  if (firstFailureAt === null) return false;
  if (lastSuccessAt !== null && lastSuccessAt.getTime() >= firstFailureAt.getTime()) return false;
  return now.getTime() - firstFailureAt.getTime() >= disableAfterSeconds * 1_000;
}
