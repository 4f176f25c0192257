// What serves `requestOps` and intake's `deadlines.list`: agents' requests, staff's reads and
// changes of them, what waits on staff, automatic routing, and test clocks' requests.
import type { Endpoint } from '@handoff/bus';
import type { IntakeContext } from './context.ts';
import { agentRequestEndpoints } from './requests/agent.ts';
import { customerCancelEndpoints } from './requests/cancel.ts';
import { requestDeadlineEndpoints } from './requests/deadlines.ts';
import { marketplaceReviewEndpoints } from './requests/marketplace-review.ts';
import { requestMover } from './requests/mover.ts';
import { staffRequestEndpoints } from './requests/staff.ts';
import { testClockEndpoints } from './requests/test-clocks.ts';
import { routingEndpoints } from '../routing/endpoints.ts';

export function requestEndpoints(ctx: IntakeContext): Record<string, Endpoint> {
  const move = requestMover(ctx);
  return {
    ...agentRequestEndpoints(ctx),
    ...customerCancelEndpoints(move),
    ...staffRequestEndpoints(ctx, move),
    ...marketplaceReviewEndpoints(move),
    ...requestDeadlineEndpoints(ctx),
    ...routingEndpoints(ctx, move),
    ...testClockEndpoints(ctx, move),
  };
}
