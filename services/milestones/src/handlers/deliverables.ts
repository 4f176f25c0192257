import { implement, type Endpoint } from '@handoff/bus';
import { DELIVERABLE_MACHINE, deliverableOps, MILESTONE_MACHINE, newId } from '@handoff/contracts';
import { attachable, type Catalog } from '@handoff/files';
import { applyMove } from '@handoff/runtime';
import type { MilestonesDeps } from './deps.ts';
import { collectionsOf, resourcesOf } from '../store/collections.ts';
import { deliverableView } from '../store/deliverables.ts';
import { conflict, notFound } from '../domain/refusals.ts';
import { jobActive } from './jobs.ts';
import { move } from './moves.ts';
import { create, opening, partyReads } from './resources.ts';

/**
 * Deliverables belong to a milestone. The provider adds them while the milestone allows
 * `add_deliverable`, and withdraws them while it is not under review; accepting them and asking
 * for a revision follow the milestone's review (see `milestones.ts`).
 */
export function deliverableEndpoints(
  deps: MilestonesDeps,
  /** The deliverables' files, which a new deliverable attaches. */
  files: Catalog,
): Record<string, Endpoint> {
  const { milestones, deliverables } = collectionsOf(deps.store);
  const resources = resourcesOf(deps.store);

  return {
    ...implement(deliverableOps.create, ({ milestone_id, provider_id, input }) =>
      // In the milestone's turn, so a submission or review cannot slip in between the check and
      // the insert.
      create(deps, resources.deliverables, { of: milestones, id: milestone_id }, async () => {
        const milestone = await milestones.findOne({ _id: milestone_id });
        if (!milestone || milestone.provider_id !== provider_id) throw notFound('milestone');
        // Adding a deliverable is a move of the milestone (it keeps its state); the machine
        // says in which states it is allowed and names the allowed actions otherwise.
        applyMove(MILESTONE_MACHINE, milestone.status, 'add_deliverable');
        await jobActive(deps, milestone.job_id);
        // Before the deliverable exists, so that a review never misses it for want of the flag.
        const attached = input.files?.length
          ? await attachable(files, input.files, {
              request_id: milestone.request_id,
              uploaded_by: 'provider',
              provider_id,
              milestone_id,
            })
          : [];
        if (milestone.has_deliverables !== true) {
          await milestones.updateOne({ _id: milestone_id }, { $set: { has_deliverables: true } });
        }
        return {
          _id: newId('dlv'),
          request_id: milestone.request_id,
          job_id: milestone.job_id,
          milestone_id,
          provider_id,
          title: input.title,
          url: input.url ?? null,
          description: input.description ?? null,
          ...(attached.length > 0 ? { files: attached } : {}),
          ...opening(DELIVERABLE_MACHINE, new Date()),
        };
      }),
    ),

    ...partyReads(deliverableOps, resources.deliverables),

    ...implement(deliverableOps.withdraw, async ({ id, provider_id }) => {
      const found = await deliverables.findOne({ _id: id });
      if (!found || found.provider_id !== provider_id) throw notFound('deliverable');
      // In the milestone's turn (then the deliverable's), the same order as a review takes.
      const doc = await deps.store.serialize(milestones, found.milestone_id, () =>
        move(deps, {
          ...resources.deliverables,
          id,
          action: 'withdraw',
          visible: (before) => before.provider_id === provider_id,
          guard: async (before) => {
            const milestone = await milestones.findOne(
              { _id: before.milestone_id },
              { projection: { status: 1 } },
            );
            if (milestone?.status === 'submitted') {
              throw conflict(
                'milestone_under_review',
                'The milestone is under review; its deliverables can be withdrawn once it is reviewed.',
              );
            }
          },
        }),
      );
      return deliverableView(doc);
    }),
  };
}
