import {
  fileCollectionPlan,
  filesOf,
  startUploadSweep,
  type FileServiceDeps,
} from '@handoff/files';
import { adoptOnce, packageVersion, runAuditedService, stopInReverse } from '@handoff/runtime';
import type { BootstrapOptions, ServiceDeps } from '@handoff/runtime';
import { deliverableFileEndpoints } from './handlers/deliverable-files.ts';
import { deadlineEndpoints, startDeadlineSweep } from './handlers/deadlines.ts';
import { deliverableEndpoints } from './handlers/deliverables.ts';
import { disputeEndpoints } from './handlers/disputes.ts';
import { jobEndpoints } from './handlers/jobs.ts';
import { milestoneEndpoints } from './handlers/milestones.ts';
import { adoptProposalSlots, proposalEndpoints } from './handlers/proposals.ts';
import { startRequestClosureConsumer } from './handlers/request-closure.consumer.ts';
import { testDataEndpoints } from './handlers/test-data.ts';
import { testClockEndpoints } from './handlers/test-clocks.ts';
import { readEnv, type Env } from './env.ts';
import { collections, COLLECTIONS } from './store/collections.ts';

export const VERSION = packageVersion(import.meta.url);

/** The GridFS bucket (and S3 prefix) of deliverables' files. */
export const FILES_BUCKET = 'deliverable_files';

export async function bootstrap(options: BootstrapOptions = {}) {
  let files: FileServiceDeps | undefined;
  const filesOfService = (deps: ServiceDeps<Env>) =>
    (files ??= filesOf(deps.env, deps.store, FILES_BUCKET, deps.logger));
  return runAuditedService({
    name: 'milestones',
    version: VERSION,
    description:
      'The work on a request: provider proposals, jobs, milestones, deliverables and disputes.',
    env: readEnv(options.env),
    collections: { ...collections, ...fileCollectionPlan(FILES_BUCKET) },
    outbox: Object.values(COLLECTIONS),
    // Every document here keeps the events of its recent writes: no second write per event.
    kept: Object.values(COLLECTIONS),
    endpoints: (deps) => {
      const fileService = filesOfService(deps);
      return {
        ...proposalEndpoints(deps),
        ...jobEndpoints(deps),
        ...milestoneEndpoints(deps),
        ...deliverableEndpoints(deps, fileService.catalog),
        ...disputeEndpoints(deps),
        ...deadlineEndpoints(deps),
        ...testClockEndpoints(deps),
        ...testDataEndpoints(deps, fileService),
        ...deliverableFileEndpoints(deps, fileService),
      };
    },
    // Slots for proposals from before them first (until a start finds none); then the deadline
    // sweep, and the consumer that settles a closed request's open proposals.
    background: async (deps) => {
      const fileService = filesOfService(deps);
      await adoptOnce(deps.store, 'proposal_slots', () => adoptProposalSlots(deps));
      await fileService.store.prepare();
      return stopInReverse(
        startDeadlineSweep(deps),
        await startRequestClosureConsumer(deps),
        startUploadSweep(fileService, deps.env),
      );
    },
    logger: options.logger,
  });
}
