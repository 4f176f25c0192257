// The files of deliverables: a provider uploads them for its own milestone while the milestone
// takes deliverables, then attaches them to one (`deliverables.create` with `files`).
import type { Endpoint } from '@handoff/bus';
import { deliverableFileOps, MILESTONE_MACHINE } from '@handoff/contracts';
import { fileEndpoints, type FileServiceDeps } from '@handoff/files';
import { applyMove } from '@handoff/runtime';
import { notFound } from '../domain/refusals.ts';
import { collectionsOf } from '../store/collections.ts';
import type { MilestonesDeps } from './deps.ts';

export function deliverableFileEndpoints(
  deps: MilestonesDeps,
  files: FileServiceDeps,
): Record<string, Endpoint> {
  const { milestones } = collectionsOf(deps.store);
  return fileEndpoints(files, {
    ops: deliverableFileOps,
    ownerOf: async ({ milestone_id, provider_id }) => {
      const milestone = await milestones.findOne(
        { _id: milestone_id },
        { projection: { request_id: 1, provider_id: 1, status: 1 } },
      );
      if (!milestone || milestone.provider_id !== provider_id) throw notFound('milestone');
      // Uploading is the first half of adding a deliverable: refused where adding one would be.
      applyMove(MILESTONE_MACHINE, milestone.status, 'add_deliverable');
      return {
        request_id: milestone.request_id,
        purpose: 'deliverable',
        milestone_id,
        uploaded_by: 'provider',
        provider_id,
      };
    },
  });
}
