import type { PaymentContext } from './context.ts';
import { sweepDeadlines } from './deadlines.ts';
import { recoverPayments } from '../domain/payments.ts';

/** How often each replica looks for passed deadlines and unfinished approvals. */
export const SWEEP_INTERVAL_MS = 60_000;

/**
 * One round of the background work, as if the clock read `now` (tests pass a future time):
 * deadlines first, then payments that a crash left uncreated or uncharged.
 */
export async function runSweeps(ctx: PaymentContext, now: Date = new Date()) {
  const deadlines = await sweepDeadlines(ctx, now);
  const recovery = await recoverPayments(ctx, now);
  return { ...deadlines, ...recovery };
}

/** Runs the sweeps every `intervalMs`; the returned stop waits for a running round and charges. */
export function startSweeps(
  ctx: PaymentContext,
  intervalMs = SWEEP_INTERVAL_MS,
): () => Promise<void> {
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = running
      .then(() => runSweeps(ctx))
      .catch((error: unknown) => {
        ctx.logger.warn({ err: error }, 'payments sweep failed; will retry');
      });
  }, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
    await ctx.idle();
  };
}
