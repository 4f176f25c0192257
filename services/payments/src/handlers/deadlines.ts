import { BusError, implement, type Endpoint } from '@handoff/bus';
import { paymentRecordOps, type DeadlineItem, type StateMachine } from '@handoff/contracts';
import type { Collection } from 'mongodb';
import { movePayment, moveRequest } from './moves.ts';
import { PAYMENT_MACHINE, PAYMENT_REQUEST_MACHINE } from '../domain/states.ts';
import type { PaymentContext } from './context.ts';
import { recoverPayments } from './payments.ts';

/** The part of a document a deadline reads. */
interface Waiting {
  _id: string;
  request_id: string;
  status: string;
  deadline_at?: Date | null;
}

export interface DeadlineQuery {
  before?: string | undefined;
  overdue?: boolean | undefined;
  limit: number;
}

const SWEEP_BATCH = 200;

/** The `deadline_at` range a query asks for, evaluated at `now`. */
function deadlineRange(query: DeadlineQuery, now: Date) {
  const range: { $gte: Date; $lt?: Date; $lte?: Date; $gt?: Date } = { $gte: new Date(0) };
  if (query.before !== undefined) {
    const before = new Date(query.before);
    if (Number.isNaN(before.getTime())) {
      throw new BusError('validation_failed', '`before` must be an RFC 3339 time.', {
        details: {
          errors: [{ pointer: '/before', code: 'invalid_timestamp', detail: 'not a time' }],
        },
      });
    }
    range.$lt = before;
  }
  if (query.overdue === true) range.$lte = now;
  if (query.overdue === false) range.$gt = now;
  return range;
}

/**
 * Everything of this service waiting on a deadline, soonest first: pending payment requests
 * (staff must decide) and pending payments (the processor must report).
 */
export async function listDeadlines(
  ctx: PaymentContext,
  query: DeadlineQuery,
  now: Date = new Date(),
): Promise<{ object: 'list'; data: DeadlineItem[]; has_more: boolean }> {
  const range = deadlineRange(query, now);
  const sources: [StateMachine, Collection<Waiting>][] = [
    [
      PAYMENT_REQUEST_MACHINE as unknown as StateMachine,
      ctx.requests as unknown as Collection<Waiting>,
    ],
    [PAYMENT_MACHINE as unknown as StateMachine, ctx.payments as unknown as Collection<Waiting>],
  ];
  const items: DeadlineItem[] = [];
  for (const [machine, collection] of sources) {
    for (const [state, waiting] of Object.entries(machine.waiting)) {
      if (!waiting) continue;
      const rows = await collection
        .find({ status: state, deadline_at: range })
        .sort({ deadline_at: 1, _id: 1 })
        .limit(query.limit + 1)
        .toArray();
      for (const row of rows) {
        if (!row.deadline_at) continue;
        items.push({
          object: 'deadline',
          resource: machine.resource,
          id: row._id,
          request_id: row.request_id,
          state,
          waiting_on: waiting.waiting_on,
          deadline_at: row.deadline_at.toISOString(),
          overdue: row.deadline_at.getTime() <= now.getTime(),
          consequence: waiting.consequence,
        });
      }
    }
  }
  items.sort((a, b) => a.deadline_at.localeCompare(b.deadline_at) || a.id.localeCompare(b.id));
  return {
    object: 'list',
    data: items.slice(0, query.limit),
    has_more: items.length > query.limit,
  };
}

/** A 409 (an illegal move, a guard, a concurrent change): somebody decided it meanwhile. */
const raced = (error: unknown) => error instanceof BusError && error.status === 409;

/**
 * Applies `move` to every document of `collection` in `state` whose deadline is at or before
 * `now` (of `requestIds` only, when given), a batch at a time. A document decided meanwhile is
 * left as it is. Returns how many moved.
 */
async function drain(
  collection: Collection<Waiting>,
  state: string,
  now: Date,
  move: (id: string) => Promise<unknown>,
  requestIds?: readonly string[],
): Promise<number> {
  const scope = requestIds ? { request_id: { $in: [...requestIds] } } : {};
  let moved = 0;
  for (;;) {
    const due = await collection
      .find({ status: state, deadline_at: { $lte: now }, ...scope })
      .sort({ deadline_at: 1, _id: 1 })
      .limit(SWEEP_BATCH)
      .toArray();
    let progress = 0;
    for (const doc of due) {
      try {
        await move(doc._id);
        progress += 1;
      } catch (error) {
        if (!raced(error)) throw error;
      }
    }
    moved += progress;
    if (due.length < SWEEP_BATCH || progress === 0) return moved;
  }
}

/**
 * Applies each machine's `on_deadline` action to what is past its deadline at `now`: pending
 * payment requests expire (audit entry, no event), pending payments fail with
 * `failure_reason: "deadline_passed"`. With `requestIds`, only those requests' (a test clock's).
 */
export async function sweepDeadlines(
  ctx: PaymentContext,
  now: Date = new Date(),
  requestIds?: readonly string[],
) {
  const system = { actor: 'system', call_id: null };
  let expired = 0;
  let failed = 0;
  for (const [state, waiting] of Object.entries(PAYMENT_REQUEST_MACHINE.waiting)) {
    const action = waiting?.on_deadline;
    if (!action) continue;
    expired += await drain(
      ctx.requests as unknown as Collection<Waiting>,
      state,
      now,
      (id) => moveRequest(ctx, id, action, system),
      requestIds,
    );
  }
  for (const [state, waiting] of Object.entries(PAYMENT_MACHINE.waiting)) {
    const action = waiting?.on_deadline;
    if (!action) continue;
    failed += await drain(
      ctx.payments as unknown as Collection<Waiting>,
      state,
      now,
      (id) => movePayment(ctx, id, action, { ...system, failure_reason: 'deadline_passed' }),
      requestIds,
    );
  }
  return { expired, failed };
}

/** This service's deadlines, as `paymentRecordOps.deadlines` asks for them. */
export function deadlineEndpoints(ctx: PaymentContext): Record<string, Endpoint> {
  return {
    ...implement(paymentRecordOps.deadlines, (query) => listDeadlines(ctx, query)),
  };
}

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
