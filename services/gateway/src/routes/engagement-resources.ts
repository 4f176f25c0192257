import {
  Deliverable,
  DeliverableStatus,
  deliverableOps,
  Dispute,
  DisputeStatus,
  disputeOps,
  Job,
  JobStatus,
  jobOps,
  Milestone,
  MilestoneStatus,
  milestoneOps,
  type NotFoundCode,
  type Operation,
  Proposal,
  ProposalStatus,
  proposalOps,
} from '@handoff/contracts';
import type { z } from 'zod';
import { Id } from './ids.ts';

/**
 * The resources of the engagement as every side's reads find them: the item, the list's
 * filters beside paging, the bus operations, and the 404 `code` of a single read.
 */
export type EngagementResource = 'proposals' | 'jobs' | 'milestones' | 'deliverables' | 'disputes';

export interface ResourceReads {
  /** The path parameter of one item under its request, e.g. `proposal_id`. */
  idParam: string;
  item: z.ZodType;
  filters: z.ZodRawShape;
  ops: { list: Operation; get: Operation };
  notFound: NotFoundCode;
}

export const ENGAGEMENT_RESOURCES: Record<EngagementResource, ResourceReads> = {
  proposals: {
    idParam: 'proposal_id',
    item: Proposal,
    filters: { status: ProposalStatus.optional() },
    ops: proposalOps,
    notFound: 'proposal_not_found',
  },
  jobs: {
    idParam: 'job_id',
    item: Job,
    filters: { status: JobStatus.optional() },
    ops: jobOps,
    notFound: 'job_not_found',
  },
  milestones: {
    idParam: 'milestone_id',
    item: Milestone,
    filters: { status: MilestoneStatus.optional(), job_id: Id.optional() },
    ops: milestoneOps,
    notFound: 'milestone_not_found',
  },
  deliverables: {
    idParam: 'deliverable_id',
    item: Deliverable,
    filters: { status: DeliverableStatus.optional(), milestone_id: Id.optional() },
    ops: deliverableOps,
    notFound: 'deliverable_not_found',
  },
  disputes: {
    idParam: 'dispute_id',
    item: Dispute,
    filters: { status: DisputeStatus.optional() },
    ops: disputeOps,
    notFound: 'dispute_not_found',
  },
};

export const isEngagementResource = (plural: string): plural is EngagementResource =>
  Object.hasOwn(ENGAGEMENT_RESOURCES, plural);
