import { implement, type Endpoint } from '@handoff/bus';
import { milestonesDeadlineOps, type DeadlineItem, type StateMachine } from '@handoff/contracts';
import type { Collection } from 'mongodb';
import type { MilestonesDeps } from './deps.ts';
import { resourcesOf } from '../store/collections.ts';
import { sweepDisputes } from './disputes.ts';
import { invalid } from '../domain/refusals.ts';
import { sweepMilestones } from './milestones.ts';
import { materializePending, sweepProposals } from './proposals.ts';

/** How often the deadline sweep runs. */
export const SWEEP_INTERVAL_MS = 60_000;

interface Waiting {
  _id: string;
  request_id: string;
  status: string;
  deadline_at: Date | null;
}

/** Each machine of this service with the collection of its resources. */
function tracked(deps: MilestonesDeps): [StateMachine, Collection<Waiting>][] {
  const pairs: [unknown, unknown][] = Object.values(resourcesOf(deps.store)).map(
    ({ machine, collection }) => [machine, collection],
  );
  return pairs as [StateMachine, Collection<Waiting>][];
}

const soonestFirst = (a: DeadlineItem, b: DeadlineItem) =>
  a.deadline_at < b.deadline_at ? -1 : a.deadline_at > b.deadline_at ? 1 : a.id < b.id ? -1 : 1;

/**
 * Everything of this service sitting in a waiting state of its machine, soonest deadline first,
 * with whom it waits on and what happens when the deadline passes.
 */
export function deadlineEndpoints(deps: MilestonesDeps): Record<string, Endpoint> {
  return implement(milestonesDeadlineOps.list, async ({ before, overdue, limit }) => {
    const now = new Date();
    const range: Record<string, Date | null> = { $ne: null };
    if (before !== undefined) {
      const until = new Date(before);
      if (Number.isNaN(until.getTime())) {
        throw invalid('/before', 'invalid_timestamp', 'not an RFC 3339 timestamp.');
      }
      range.$lt = until;
    }
    if (overdue === true) range.$lte = now;
    if (overdue === false) range.$gt = now;

    const items: DeadlineItem[] = [];
    for (const [machine, collection] of tracked(deps)) {
      const states = Object.keys(machine.waiting);
      // Each collection's `limit + 1` soonest are enough to fill the merged page and know more.
      const rows = await collection
        .find({ status: { $in: states }, deadline_at: range })
        .sort({ deadline_at: 1, _id: 1 })
        .limit(limit + 1)
        .project<Waiting>({ _id: 1, request_id: 1, status: 1, deadline_at: 1 })
        .toArray();
      for (const row of rows) {
        const waiting = machine.waiting[row.status];
        if (!waiting || !row.deadline_at) continue;
        items.push({
          object: 'deadline',
          resource: machine.resource,
          id: row._id,
          request_id: row.request_id,
          state: row.status,
          waiting_on: waiting.waiting_on,
          deadline_at: row.deadline_at.toISOString(),
          overdue: row.deadline_at.getTime() <= now.getTime(),
          consequence: waiting.consequence,
        });
      }
    }
    items.sort(soonestFirst);
    return { object: 'list' as const, data: items.slice(0, limit), has_more: items.length > limit };
  });
}

/**
 * One pass of the deadline work, as of `now`: finish accepted proposals whose job is not
 * created yet, then apply every machine's `on_deadline` action that is due. A failing step is
 * logged and the others still run; the next pass tries again.
 */
export async function sweepOnce(deps: MilestonesDeps, now: Date): Promise<void> {
  const steps: [string, () => Promise<unknown>][] = [
    ['materialize', () => materializePending(deps)],
    ['proposals', () => sweepProposals(deps, now)],
    ['milestones', () => sweepMilestones(deps, now)],
    ['disputes', () => sweepDisputes(deps, now)],
  ];
  for (const [step, run] of steps) {
    try {
      await run();
    } catch (error) {
      deps.logger.error({ err: error, step }, 'deadline sweep step failed');
    }
  }
}

/**
 * Runs the sweep at start and every `intervalMs`, never two at once. The returned function
 * stops the timer and waits for a sweep in progress.
 */
export function startDeadlineSweep(
  deps: MilestonesDeps,
  intervalMs = SWEEP_INTERVAL_MS,
): () => Promise<void> {
  let running: Promise<void> | undefined;
  const tick = () => {
    if (running) return;
    running = sweepOnce(deps, new Date()).finally(() => {
      running = undefined;
    });
  };
  tick();
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
