import {
  DELIVERABLE_MACHINE,
  DISPUTE_MACHINE,
  JOB_MACHINE,
  MILESTONE_MACHINE,
  PROPOSAL_MACHINE,
} from '@handoff/contracts';
import { auditCollectionName, auditIndexes, CREATED_BY_OPERATION_INDEX } from '@handoff/runtime';
import type { CollectionPlan, Store } from '@handoff/store';
import { disputeView, type DisputeDoc } from './disputes.ts';
import { deliverableView, type DeliverableDoc } from './deliverables.ts';
import { milestoneView, type MilestoneDoc } from './milestones.ts';
import { jobView, type JobDoc } from './jobs.ts';
import { proposalView, type ProposalDoc } from './proposals.ts';
import { NOT_FOUND } from '../domain/refusals.ts';

/** Collection names of this service. No other service reads or writes them. */
export const COLLECTIONS = {
  proposals: 'proposals',
  jobs: 'jobs',
  milestones: 'milestones',
  deliverables: 'deliverables',
  disputes: 'disputes',
} as const;

/** Every document here carries `request_id`, `status` and `deadline_at` (null outside waiting states). */
const common = [
  { key: { request_id: 1, _id: -1 }, options: { name: 'request_newest' } },
  { key: { status: 1, deadline_at: 1 }, options: { name: 'status_deadline' } },
] as const;

export const collections: CollectionPlan = {
  [COLLECTIONS.proposals]: [
    ...common,
    // A retried create finds what its first attempt made (runtime's created-once.ts).
    CREATED_BY_OPERATION_INDEX,
    { key: { provider_id: 1, _id: -1 }, options: { name: 'provider_newest' } },
    // One open proposal per provider and request, one accepted per request (`proposalSlot`).
    // Sparse, so that proposals stored before the slot do not all index as null on MongoDB.
    { key: { slot: 1 }, options: { name: 'slot_unique', unique: true, sparse: true } },
  ],
  [COLLECTIONS.jobs]: [
    ...common,
    { key: { provider_id: 1, _id: -1 }, options: { name: 'provider_newest' } },
  ],
  [COLLECTIONS.milestones]: [
    ...common,
    { key: { job_id: 1, _id: 1 }, options: { name: 'job_oldest' } },
  ],
  [COLLECTIONS.deliverables]: [
    ...common,
    CREATED_BY_OPERATION_INDEX,
    { key: { milestone_id: 1, _id: 1 }, options: { name: 'milestone_oldest' } },
  ],
  [COLLECTIONS.disputes]: [
    ...common,
    { key: { job_id: 1, status: 1 }, options: { name: 'job_status' } },
  ],
  // Staff moves (cancel, escalate, resolve, staff comments), with the resource before and after.
  [auditCollectionName('milestones')]: auditIndexes,
};

/** Typed handles on this service's collections. */
export function collectionsOf(store: Store) {
  return {
    proposals: store.db.collection<ProposalDoc>(COLLECTIONS.proposals),
    jobs: store.db.collection<JobDoc>(COLLECTIONS.jobs),
    milestones: store.db.collection<MilestoneDoc>(COLLECTIONS.milestones),
    deliverables: store.db.collection<DeliverableDoc>(COLLECTIONS.deliverables),
    disputes: store.db.collection<DisputeDoc>(COLLECTIONS.disputes),
  };
}

/**
 * Each resource of this service: its collection, the machine its documents move through, its
 * API view and its 404 code. Creations, moves, reads and the deadline work all take them from here.
 */
export function resourcesOf(store: Store) {
  const c = collectionsOf(store);
  return {
    proposals: {
      collection: c.proposals,
      machine: PROPOSAL_MACHINE,
      view: proposalView,
      notFound: NOT_FOUND.proposal,
    },
    jobs: { collection: c.jobs, machine: JOB_MACHINE, view: jobView, notFound: NOT_FOUND.job },
    milestones: {
      collection: c.milestones,
      machine: MILESTONE_MACHINE,
      view: milestoneView,
      notFound: NOT_FOUND.milestone,
    },
    deliverables: {
      collection: c.deliverables,
      machine: DELIVERABLE_MACHINE,
      view: deliverableView,
      notFound: NOT_FOUND.deliverable,
    },
    disputes: {
      collection: c.disputes,
      machine: DISPUTE_MACHINE,
      view: disputeView,
      notFound: NOT_FOUND.dispute,
    },
  };
}
