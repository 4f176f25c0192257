import {
  Dispute,
  DisputeComment,
  DisputeCreate,
  disputeOps,
  Milestone,
  milestoneOps,
  Proposal,
  ProposalAccepted,
  ProposalDecline,
  proposalOps,
  ReasonBody,
} from '@handoff/contracts';
import { defineRoute, type RouteDefinition } from '../http/route.ts';
import { checkAmount } from './amount-precision.ts';
import { RequestParams } from './ids.ts';
import { given } from './paging.ts';
import { customerParty } from './parties.ts';
import { customerAction } from './resource-actions.ts';
import { customerReads } from './resource-reads.ts';

/**
 * The customer's side of the engagement. The customer has no credential of its own: its agent
 * acts for it with its key (scopes below) and the request's token, which the pipeline checks
 * (`requestToken`) before the milestones service is asked anything. The milestones service then
 * answers only for resources of that request (`Party` customer), so another request's proposal is
 * 404 like an unknown one.
 */

/** What the customer's actions on one kind of resource share. */
const MILESTONE_REVIEW = {
  plural: 'milestones',
  scope: 'milestones:review',
  op: milestoneOps.review,
  response: Milestone,
  conflicts: ['job_not_active'],
} as const;
const DISPUTE = { plural: 'disputes', scope: 'disputes:manage', response: Dispute } as const;

export const engagementRoutes: RouteDefinition[] = [
  // --- Proposals -------------------------------------------------------------------------------
  ...customerReads('proposals', 'proposals:read', {
    list: "The request's proposals from providers, newest first",
    get: 'One proposal of the request',
  }),
  customerAction({
    plural: 'proposals',
    verb: 'accept',
    operationId: 'acceptProposal',
    summary:
      'Accept a proposal for the customer: a job starts, every other open proposal is declined',
    scope: 'proposals:accept',
    openRequest: true,
    op: proposalOps.accept,
    response: ProposalAccepted,
    conflicts: ['request_not_open', 'request_closed'],
    input: (target) => target,
  }),
  customerAction({
    plural: 'proposals',
    verb: 'decline',
    operationId: 'declineProposal',
    summary: 'Decline a proposal for the customer, with an optional reason the provider sees',
    scope: 'proposals:accept',
    op: proposalOps.decline,
    body: ProposalDecline,
    bodyOptional: true,
    response: Proposal,
    input: (target, body) => ({ ...target, ...given({ reason: body.reason }) }),
  }),

  // --- Jobs ------------------------------------------------------------------------------------
  ...customerReads('jobs', 'jobs:read', {
    list: "The request's jobs (at most one is active), newest first",
    get: 'One job of the request',
  }),

  // --- Milestones ------------------------------------------------------------------------------
  ...customerReads('milestones', 'milestones:read', {
    list: "The request's milestones, newest first, by status or job",
    get: 'One milestone of the request',
  }),
  customerAction({
    ...MILESTONE_REVIEW,
    verb: 'approve',
    operationId: 'approveMilestone',
    summary: 'Approve a submitted milestone for the customer; its deliverables are accepted',
    input: (target) => ({ ...target, decision: 'approve' as const }),
  }),
  customerAction({
    ...MILESTONE_REVIEW,
    verb: 'request-changes',
    operationId: 'requestMilestoneChanges',
    summary: 'Send a submitted milestone back to the provider with the reason',
    body: ReasonBody,
    input: (target, body) => ({
      ...target,
      decision: 'request_changes' as const,
      reason: body.reason,
    }),
  }),

  // --- Deliverables ----------------------------------------------------------------------------
  ...customerReads('deliverables', 'milestones:read', {
    list: "The request's deliverables, newest first, by status or milestone",
    get: 'One deliverable of the request',
  }),

  // --- Disputes --------------------------------------------------------------------------------
  ...customerReads('disputes', 'disputes:read', {
    list: "The request's dispute and refund cases, newest first",
    get: 'One dispute or refund case of the request, with its comments',
  }),
  defineRoute({
    method: 'post',
    path: '/v1/request/{id}/disputes',
    operationId: 'openDispute',
    summary:
      "Open a dispute or refund case for the customer on the request's job (optionally one milestone)",
    tags: ['disputes'],
    access: { kind: 'agent', scopes: ['disputes:manage'] },
    requestToken: 'owner',
    params: RequestParams,
    body: DisputeCreate,
    status: 201,
    response: Dispute,
    // The request is checked first; after that, only a `milestone_id` that is not of the
    // request's job can be missing.
    notFound: ['milestone_not_found', 'request_not_found'],
    conflicts: ['no_job', 'job_not_active'],
    checkBody: checkAmount,
    handle: (ctx) => ctx.call(disputeOps.create, { request_id: ctx.request.id, input: ctx.body }),
  }),
  customerAction({
    ...DISPUTE,
    verb: 'comments',
    operationId: 'commentOnDispute',
    summary: "Add the customer's comment to a case; answers the case with every comment",
    op: disputeOps.comment,
    body: DisputeComment,
    // The comment is part of the dispute (it has no id of its own): the answer is the dispute.
    conflicts: ['comment_limit_reached'],
    input: ({ id, request_id }, body) => ({
      id,
      party: customerParty(request_id),
      message: body.message,
    }),
  }),
  customerAction({
    ...DISPUTE,
    verb: 'withdraw',
    operationId: 'withdrawDispute',
    summary: 'Withdraw a case for the customer',
    op: disputeOps.withdraw,
    input: (target) => target,
  }),
];
