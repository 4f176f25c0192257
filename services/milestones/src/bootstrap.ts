import {
  auditedSequencedEvents,
  auditEndpoints,
  packageVersion,
  runService,
} from '@handoff/runtime';
import type { BootstrapOptions } from '@handoff/runtime';
import { deadlineEndpoints, startDeadlineSweep } from './handlers/deadlines.ts';
import { deliverableEndpoints } from './handlers/deliverables.ts';
import { disputeEndpoints } from './handlers/disputes.ts';
import { jobEndpoints } from './handlers/jobs.ts';
import { milestoneEndpoints } from './handlers/milestones.ts';
import { proposalEndpoints } from './handlers/proposals.ts';
import { startRequestClosureConsumer } from './handlers/request-closure.consumer.ts';
import { readEnv } from './env.ts';
import { collections, COLLECTIONS } from './store/collections.ts';

export const VERSION = packageVersion(import.meta.url);

export async function bootstrap(options: BootstrapOptions = {}) {
  return runService({
    name: 'milestones',
    version: VERSION,
    description:
      'The work on a request: provider proposals, jobs, milestones, deliverables and disputes.',
    env: readEnv(options.env),
    collections,
    outbox: {
      collections: Object.values(COLLECTIONS),
      // Intake owns requests and hands out each request's event sequence numbers; a staff move's
      // audit entry travels with its message and is written just before the publish.
      beforePublish: auditedSequencedEvents('milestones'),
    },
    endpoints: (deps) => ({
      ...proposalEndpoints(deps),
      ...jobEndpoints(deps),
      ...milestoneEndpoints(deps),
      ...deliverableEndpoints(deps),
      ...disputeEndpoints(deps),
      ...deadlineEndpoints(deps),
      ...auditEndpoints('milestones', deps.store),
    }),
    // The deadline sweep, and the consumer that settles a closed request's open proposals.
    background: async (deps) => {
      const stopSweep = startDeadlineSweep(deps);
      const stopConsumer = await startRequestClosureConsumer(deps);
      return async () => {
        await stopConsumer();
        await stopSweep();
      };
    },
    logger: options.logger,
  });
}
