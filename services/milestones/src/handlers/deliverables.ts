import { implement, type Endpoint } from '@handoff/bus';
import {
  deadlineFor,
  DELIVERABLE_MACHINE,
  deliverableOps,
  MILESTONE_MACHINE,
  newId,
} from '@handoff/contracts';
import { applyMove, withOutbox } from '@handoff/runtime';
import type { Filter } from 'mongodb';
import type { MilestonesDeps } from './deps.ts';
import { collectionsOf } from '../store/collections.ts';
import { deliverableView, type DeliverableDoc } from '../store/deliverables.ts';
import { conflict, creationMessages, notFound } from '../domain/moves.ts';
import { findFor, listPage, partyFilter } from '../store/queries.ts';
import { move } from './moves.ts';

/**
 * Deliverables belong to a milestone. The provider adds them while the milestone allows
 * `add_deliverable`, and withdraws them while it is not under review; accepting them and asking
 * for a revision follow the milestone's review (see `milestones.ts`).
 */
export function deliverableEndpoints(deps: MilestonesDeps): Record<string, Endpoint> {
  const { milestones, jobs, deliverables } = collectionsOf(deps.store);
  const publish = deps.outbox.publishOrLeave;

  return {
    ...implement(deliverableOps.create, async ({ milestone_id, provider_id, input }) => {
      // In the milestone's turn, so a submission or review cannot slip in between the check
      // and the insert.
      const { doc, messages } = await deps.store.serialize(milestones, milestone_id, async () => {
        const milestone = await milestones.findOne({ _id: milestone_id });
        if (!milestone || milestone.provider_id !== provider_id) throw notFound('milestone');
        // Adding a deliverable is a move of the milestone (it keeps its state); the machine
        // says in which states it is allowed and names the allowed actions otherwise.
        applyMove(MILESTONE_MACHINE, milestone.status, 'add_deliverable');
        const job = await jobs.findOne({ _id: milestone.job_id }, { projection: { status: 1 } });
        if (job?.status !== 'active') {
          throw conflict(
            'job_not_active',
            `The job is ${job?.status ?? 'gone'}; work is added only to an active job.`,
          );
        }
        const now = new Date();
        const status = DELIVERABLE_MACHINE.initial;
        const doc: DeliverableDoc = {
          _id: newId('dlv'),
          request_id: milestone.request_id,
          job_id: milestone.job_id,
          milestone_id,
          provider_id,
          title: input.title,
          url: input.url,
          description: input.description ?? null,
          status,
          deadline_at: deadlineFor(DELIVERABLE_MACHINE, status, now),
          created_at: now,
          updated_at: now,
        };
        const messages = creationMessages(
          DELIVERABLE_MACHINE,
          doc.request_id,
          deliverableView(doc),
        );
        await deliverables.insertOne(withOutbox(doc, messages));
        return { doc, messages };
      });
      await publish(deliverables, doc._id, messages);
      return deliverableView(doc);
    }),

    ...implement(deliverableOps.list, async ({ party, milestone_id, status, ...page }) => {
      const filter: Filter<DeliverableDoc> = {
        ...partyFilter(party),
        ...(milestone_id === undefined ? {} : { milestone_id }),
        ...(status === undefined ? {} : { status }),
      };
      return listPage(deliverables, filter, page, deliverableView);
    }),

    ...implement(deliverableOps.get, async ({ id, party }) =>
      deliverableView(
        await findFor(deliverables, 'deliverable', id, party, (doc) => doc.provider_id),
      ),
    ),

    ...implement(deliverableOps.withdraw, async ({ id, provider_id }) => {
      const found = await deliverables.findOne({ _id: id });
      if (!found || found.provider_id !== provider_id) throw notFound('deliverable');
      // In the milestone's turn (then the deliverable's), the same order as a review takes.
      const doc = await deps.store.serialize(milestones, found.milestone_id, () =>
        move(deps, {
          collection: deliverables,
          machine: DELIVERABLE_MACHINE,
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
          view: deliverableView,
        }),
      );
      return deliverableView(doc);
    }),
  };
}
