import { adoptOnce, packageVersion, runAuditedService, stopInReverse } from '@handoff/runtime';
import type { BootstrapOptions } from '@handoff/runtime';
import { deadlineEndpoints, startDeadlineSweep } from './handlers/deadlines.ts';
import { deliverableEndpoints } from './handlers/deliverables.ts';
import { disputeEndpoints } from './handlers/disputes.ts';
import { jobEndpoints } from './handlers/jobs.ts';
import { milestoneEndpoints } from './handlers/milestones.ts';
import { adoptProposalSlots, proposalEndpoints } from './handlers/proposals.ts';
import { startRequestClosureConsumer } from './handlers/request-closure.consumer.ts';
import { testDataEndpoints } from './handlers/test-data.ts';
import { testClockEndpoints } from './handlers/test-clocks.ts';
import { readEnv } from './env.ts';
import { collections, COLLECTIONS } from './store/collections.ts';

export const VERSION = packageVersion(import.meta.url);

export async function bootstrap(options: BootstrapOptions = {}) {
  return runAuditedService({
    name: 'milestones',
    version: VERSION,
    description:
      'The work on a request: provider proposals, jobs, milestones, deliverables and disputes.',
    env: readEnv(options.env),
    collections,
    outbox: Object.values(COLLECTIONS),
    // Every document here keeps the events of its recent writes: no second write per event.
    kept: Object.values(COLLECTIONS),
    endpoints: (deps) => ({
      ...proposalEndpoints(deps),
      ...jobEndpoints(deps),
      ...milestoneEndpoints(deps),
      ...deliverableEndpoints(deps),
      ...disputeEndpoints(deps),
      ...deadlineEndpoints(deps),
      ...testClockEndpoints(deps),
      ...testDataEndpoints(deps),
    }),
    // Slots for proposals from before them first (until a start finds none); then the deadline
    // sweep, and the consumer that settles a closed request's open proposals.
    background: async (deps) => {
      await adoptOnce(deps.store, 'proposal_slots', () => adoptProposalSlots(deps));
      return stopInReverse(startDeadlineSweep(deps), await startRequestClosureConsumer(deps));
    },
    logger: options.logger,
  });
}
