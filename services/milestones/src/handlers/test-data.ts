// `test_data.purge`: intake deletes an integration's test data; here, its requests' engagement
// (proposals, jobs, milestones, deliverables, disputes with their comments). The audit log keeps
// what staff did on them.
import { implement, type Endpoint } from '@handoff/bus';
import { testDataOps } from '@handoff/contracts';
import { removeRequestFiles, type FileServiceDeps } from '@handoff/files';
import { deleteEach } from '@handoff/store';
import { collectionsOf } from '../store/collections.ts';
import type { MilestonesDeps } from './deps.ts';

export function testDataEndpoints(
  deps: MilestonesDeps,
  files: Pick<FileServiceDeps, 'catalog' | 'store'>,
): Record<string, Endpoint> {
  const c = collectionsOf(deps.store);
  return implement(testDataOps.milestones, async ({ request_ids }) => {
    const deliverable_files = await removeRequestFiles(files, request_ids);
    // Every document here carries its request's id; the leaves first, so a purge cut short
    // leaves nothing that points at a deleted parent before it is asked again.
    const deliverables = await deleteEach(c.deliverables, 'request_id', request_ids);
    const disputes = await deleteEach(c.disputes, 'request_id', request_ids);
    const milestones = await deleteEach(c.milestones, 'request_id', request_ids);
    const jobs = await deleteEach(c.jobs, 'request_id', request_ids);
    const proposals = await deleteEach(c.proposals, 'request_id', request_ids);
    return { proposals, jobs, milestones, deliverables, deliverable_files, disputes };
  });
}
