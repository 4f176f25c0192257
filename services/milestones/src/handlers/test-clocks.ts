// A test clock's part in milestones (test mode): the deadlines of the clock's requests, moved and
// fired by the same code as the deadline sweep, for those requests only.
import { implement, type Endpoint } from '@handoff/bus';
import { milestonesClockOps } from '@handoff/contracts';
import { nextClockDeadline, shiftClockDeadlines, type ClockTracked } from '@handoff/runtime';
import type { MilestonesDeps } from './deps.ts';
import { resourcesOf } from '../store/collections.ts';
import { sweepDisputes } from './disputes.ts';
import { sweepMilestones } from './milestones.ts';
import { sweepProposals } from './proposals.ts';

/** Every resource of this service, as a clock reads them. */
function tracked(deps: MilestonesDeps): ClockTracked[] {
  return Object.values(resourcesOf(deps.store)).map(
    ({ machine, collection }) => ({ machine, collection }) as unknown as ClockTracked,
  );
}

export function testClockEndpoints(deps: MilestonesDeps): Record<string, Endpoint> {
  return {
    ...implement(milestonesClockOps.next, async ({ request_ids }) => ({
      next: await nextClockDeadline(tracked(deps), request_ids),
    })),
    ...implement(milestonesClockOps.shift, async ({ request_ids, by_ms }) => ({
      shifted: await shiftClockDeadlines(deps.store, tracked(deps), request_ids, by_ms),
    })),
    // The sweep's order: proposals, milestones, disputes.
    ...implement(milestonesClockOps.fire, async ({ request_ids }) => {
      const now = new Date();
      let fired = await sweepProposals(deps, now, request_ids);
      fired += await sweepMilestones(deps, now, request_ids);
      fired += await sweepDisputes(deps, now, request_ids);
      return { fired };
    }),
  };
}
