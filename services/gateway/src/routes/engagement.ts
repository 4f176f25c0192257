import {
  Deliverable,
  DeliverableStatus,
  Dispute,
  DisputeComment,
  DisputeCreate,
  DisputeStatus,
  deliverableOps,
  disputeOps,
  Job,
  JobStatus,
  jobOps,
  Milestone,
  MilestoneStatus,
  milestoneOps,
  Proposal,
  ProposalAccepted,
  ProposalDecline,
  ProposalStatus,
  proposalOps,
  ReasonBody,
  type Scope,
} from '@handoff/contracts';
import { z } from 'zod';
import { defineRoute, type RouteDefinition } from '../http/route.ts';
import {
  authorizeCustomer,
  authorizeOpenRequest,
  checkPrecision,
  child,
  customerParty,
  customerReads,
  given,
  Id,
} from './lifecycle-shared.ts';

/**
 * The customer's side of the work lifecycle. The customer has no credential of its own: its agent
 * acts for it with its key (scopes below) and the request's token, which is checked with the
 * intake service before the milestones service is asked anything. The milestones service then
 * answers only for resources of that request (`Party` customer), so another request's proposal is
 * 404 like an unknown one.
 */

const RequestParams = z.strictObject({ id: Id });

const agent = (...scopes: Scope[]) => ({ kind: 'agent' as const, scopes });
const CUSTOMER = { requestToken: true, notFoundAlso: ['request_not_found'] } as const;

export const engagementRoutes: RouteDefinition[] = [
  // --- Proposals -------------------------------------------------------------------------------
  ...customerReads({
    plural: 'proposals',
    idParam: 'proposal_id',
    scope: 'proposals:read',
    tags: ['proposals'],
    item: Proposal,
    filters: { status: ProposalStatus.optional() },
    ops: proposalOps,
    list: {
      operationId: 'listProposals',
      summary: "The request's proposals from providers, newest first",
    },
    get: { operationId: 'getProposal', summary: 'One proposal of the request' },
    notFound: 'proposal_not_found',
  }),
  defineRoute({
    method: 'post',
    path: '/v1/request/{id}/proposals/{proposal_id}/accept',
    operationId: 'acceptProposal',
    summary:
      'Accept a proposal for the customer: a job starts, every other open proposal is declined',
    tags: ['proposals'],
    access: agent('proposals:accept'),
    ...CUSTOMER,
    params: child('proposal_id'),
    status: 200,
    response: ProposalAccepted,
    notFound: 'proposal_not_found',
    conflicts: ['request_not_open', 'request_closed'],
    handle: async (ctx) => {
      await authorizeOpenRequest(ctx, ctx.params.id);
      return ctx.call(proposalOps.accept, {
        id: ctx.params.proposal_id,
        request_id: ctx.params.id,
      });
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/request/{id}/proposals/{proposal_id}/decline',
    operationId: 'declineProposal',
    summary: 'Decline a proposal for the customer, with an optional reason the provider sees',
    tags: ['proposals'],
    access: agent('proposals:accept'),
    ...CUSTOMER,
    params: child('proposal_id'),
    body: ProposalDecline,
    bodyOptional: true,
    status: 200,
    response: Proposal,
    notFound: 'proposal_not_found',
    handle: async (ctx) => {
      await authorizeCustomer(ctx, ctx.params.id);
      return ctx.call(proposalOps.decline, {
        id: ctx.params.proposal_id,
        request_id: ctx.params.id,
        ...given({ reason: ctx.body.reason }),
      });
    },
  }),

  // --- Jobs ------------------------------------------------------------------------------------
  ...customerReads({
    plural: 'jobs',
    idParam: 'job_id',
    scope: 'jobs:read',
    tags: ['jobs'],
    item: Job,
    filters: { status: JobStatus.optional() },
    ops: jobOps,
    list: {
      operationId: 'listJobs',
      summary: "The request's jobs (at most one is active), newest first",
    },
    get: { operationId: 'getJob', summary: 'One job of the request' },
    notFound: 'job_not_found',
  }),

  // --- Milestones ------------------------------------------------------------------------------
  ...customerReads({
    plural: 'milestones',
    idParam: 'milestone_id',
    scope: 'milestones:read',
    tags: ['milestones'],
    item: Milestone,
    filters: { status: MilestoneStatus.optional(), job_id: Id.optional() },
    ops: milestoneOps,
    list: {
      operationId: 'listMilestones',
      summary: "The request's milestones, newest first, by status or job",
    },
    get: { operationId: 'getMilestone', summary: 'One milestone of the request' },
    notFound: 'milestone_not_found',
  }),
  defineRoute({
    method: 'post',
    path: '/v1/request/{id}/milestones/{milestone_id}/approve',
    operationId: 'approveMilestone',
    summary: 'Approve a submitted milestone for the customer; its deliverables are accepted',
    tags: ['milestones'],
    access: agent('milestones:review'),
    ...CUSTOMER,
    params: child('milestone_id'),
    status: 200,
    response: Milestone,
    notFound: 'milestone_not_found',
    conflicts: ['job_not_active'],
    handle: async (ctx) => {
      await authorizeCustomer(ctx, ctx.params.id);
      return ctx.call(milestoneOps.review, {
        id: ctx.params.milestone_id,
        request_id: ctx.params.id,
        decision: 'approve',
      });
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/request/{id}/milestones/{milestone_id}/request-changes',
    operationId: 'requestMilestoneChanges',
    summary: 'Send a submitted milestone back to the provider with the reason',
    tags: ['milestones'],
    access: agent('milestones:review'),
    ...CUSTOMER,
    params: child('milestone_id'),
    body: ReasonBody,
    status: 200,
    response: Milestone,
    notFound: 'milestone_not_found',
    conflicts: ['job_not_active'],
    handle: async (ctx) => {
      await authorizeCustomer(ctx, ctx.params.id);
      return ctx.call(milestoneOps.review, {
        id: ctx.params.milestone_id,
        request_id: ctx.params.id,
        decision: 'request_changes',
        reason: ctx.body.reason,
      });
    },
  }),

  // --- Deliverables ----------------------------------------------------------------------------
  ...customerReads({
    plural: 'deliverables',
    idParam: 'deliverable_id',
    scope: 'milestones:read',
    tags: ['deliverables'],
    item: Deliverable,
    filters: { status: DeliverableStatus.optional(), milestone_id: Id.optional() },
    ops: deliverableOps,
    list: {
      operationId: 'listDeliverables',
      summary: "The request's deliverables, newest first, by status or milestone",
    },
    get: { operationId: 'getDeliverable', summary: 'One deliverable of the request' },
    notFound: 'deliverable_not_found',
  }),

  // --- Disputes --------------------------------------------------------------------------------
  ...customerReads({
    plural: 'disputes',
    idParam: 'dispute_id',
    scope: 'disputes:read',
    tags: ['disputes'],
    item: Dispute,
    filters: { status: DisputeStatus.optional() },
    ops: disputeOps,
    list: {
      operationId: 'listDisputes',
      summary: "The request's dispute and refund cases, newest first",
    },
    get: {
      operationId: 'getDispute',
      summary: 'One dispute or refund case of the request, with its comments',
    },
    notFound: 'dispute_not_found',
  }),
  defineRoute({
    method: 'post',
    path: '/v1/request/{id}/disputes',
    operationId: 'openDispute',
    summary:
      "Open a dispute or refund case for the customer on the request's job (optionally one milestone)",
    tags: ['disputes'],
    access: agent('disputes:manage'),
    requestToken: true,
    params: RequestParams,
    body: DisputeCreate,
    status: 201,
    response: Dispute,
    // The request is checked first; after that, only a `milestone_id` that is not of the
    // request's job can be missing.
    notFound: 'milestone_not_found',
    notFoundAlso: ['request_not_found'],
    conflicts: ['no_job', 'job_not_active'],
    handle: async (ctx) => {
      checkPrecision([{ pointer: '/amount', amount: ctx.body.amount }], ctx.body.currency);
      await authorizeCustomer(ctx, ctx.params.id);
      return ctx.call(disputeOps.create, { request_id: ctx.params.id, input: ctx.body });
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/request/{id}/disputes/{dispute_id}/comments',
    operationId: 'commentOnDispute',
    summary: "Add the customer's comment to a case; answers the case with every comment",
    tags: ['disputes'],
    access: agent('disputes:manage'),
    ...CUSTOMER,
    params: child('dispute_id'),
    body: DisputeComment,
    // The comment is part of the dispute (it has no id of its own): the answer is the dispute.
    status: 200,
    response: Dispute,
    notFound: 'dispute_not_found',
    conflicts: ['comment_limit_reached'],
    handle: async (ctx) => {
      await authorizeCustomer(ctx, ctx.params.id);
      return ctx.call(disputeOps.comment, {
        id: ctx.params.dispute_id,
        party: customerParty(ctx.params.id),
        message: ctx.body.message,
      });
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/request/{id}/disputes/{dispute_id}/withdraw',
    operationId: 'withdrawDispute',
    summary: 'Withdraw a case for the customer',
    tags: ['disputes'],
    access: agent('disputes:manage'),
    ...CUSTOMER,
    params: child('dispute_id'),
    status: 200,
    response: Dispute,
    notFound: 'dispute_not_found',
    handle: async (ctx) => {
      await authorizeCustomer(ctx, ctx.params.id);
      return ctx.call(disputeOps.withdraw, {
        id: ctx.params.dispute_id,
        request_id: ctx.params.id,
      });
    },
  }),
];
