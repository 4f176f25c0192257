import {
  Deliverable,
  DeliverableCreate,
  DeliverableStatus,
  Dispute,
  DisputeComment,
  DisputeStatus,
  deliverableOps,
  disputeOps,
  Job,
  JobStatus,
  jobOps,
  listOf,
  Message,
  MessageCreate,
  messageOps,
  Milestone,
  MilestoneCreate,
  MilestoneProgress,
  MilestoneStatus,
  MilestoneSubmit,
  milestoneOps,
  Proposal,
  ProposalCreate,
  ProposalStatus,
  proposalOps,
  ProviderMe,
  ProviderRequest,
  providerOps,
  type RequestStatus,
} from '@handoff/contracts';
import { z } from 'zod';
import { HttpError } from '../http/errors.ts';
import { defineRoute, type RouteContext, type RouteDefinition } from '../http/route.ts';
import {
  checkPrecision,
  given,
  Id,
  listQuery,
  page,
  providerParty,
  providerReads,
  refuseClosed,
} from './lifecycle-shared.ts';

/**
 * The provider API. Every call carries a provider key; the services answer only for the
 * provider's own resources (`Party` provider) and for requests it may see (routed to it, published
 * on the marketplace in its categories while open, or engaged with it), so anything else is 404
 * like an unknown id.
 */

const IdParams = z.strictObject({ id: Id });
const PROVIDER = { kind: 'provider' } as const;

/** A request takes proposals while it is open: not yet in progress, completed or cancelled. */
const OPEN_FOR_PROPOSALS: readonly RequestStatus[] = ['submitted', 'routed'];

/** The request as the provider may see it (404 `request_not_found` otherwise). */
async function visibleRequest(ctx: RouteContext<'provider', { id: string }>) {
  return ctx.call(providerOps.request, {
    provider_id: ctx.provider.provider_id,
    request_id: ctx.params.id,
  });
}

export const providerRoutes: RouteDefinition[] = [
  defineRoute({
    method: 'get',
    path: '/v1/provider/me',
    operationId: 'getProviderMe',
    summary: 'The calling provider, its categories and its key expiry',
    tags: ['provider'],
    access: PROVIDER,
    status: 200,
    response: ProviderMe,
    handle: async (ctx) => {
      const provider = await ctx.call(providerOps.get, { id: ctx.provider.provider_id });
      return {
        object: 'provider' as const,
        id: provider.id,
        name: provider.name,
        categories: provider.categories,
        key_id: ctx.provider.key_id,
        expires_at: ctx.provider.expires_at,
      };
    },
  }),

  // --- Requests --------------------------------------------------------------------------------
  defineRoute({
    method: 'get',
    path: '/v1/provider/requests',
    operationId: 'listProviderRequests',
    summary:
      'Requests routed to the provider, published to it on the marketplace, or engaged with it; newest first',
    tags: ['provider'],
    access: PROVIDER,
    query: listQuery({}),
    status: 200,
    response: listOf(ProviderRequest),
    handle: (ctx) =>
      ctx.call(providerOps.requests, { provider_id: ctx.provider.provider_id, ...page(ctx.query) }),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/provider/requests/{id}',
    operationId: 'getProviderRequest',
    summary: 'One request the provider may see; customer contact only with `contact_permission`',
    tags: ['provider'],
    access: PROVIDER,
    params: IdParams,
    status: 200,
    response: ProviderRequest,
    notFound: 'request_not_found',
    handle: async (ctx) => {
      // The owning integration is for the gateway's own calls; the provider never sees it.
      return ProviderRequest.parse(await visibleRequest(ctx));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/provider/requests/{id}/messages',
    operationId: 'sendProviderMessage',
    summary: "Write into the request's conversation as the provider",
    tags: ['provider'],
    access: PROVIDER,
    params: IdParams,
    body: MessageCreate,
    status: 201,
    response: Message,
    notFound: 'request_not_found',
    conflicts: ['request_closed'],
    handle: async (ctx) => {
      // Intake's answer is a fresh read, so its status decides without another call.
      const request = await visibleRequest(ctx);
      refuseClosed(request.status);
      return ctx.call(messageOps.create, {
        request_id: request.id,
        integration_id: request.integration_id,
        author_role: 'provider',
        message: ctx.body.message,
      });
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/provider/requests/{id}/proposals',
    operationId: 'createProposal',
    summary:
      'Propose on an open request (price, optional milestone plan); the customer reviews it through the agent',
    tags: ['provider', 'proposals'],
    access: PROVIDER,
    params: IdParams,
    body: ProposalCreate,
    status: 201,
    response: Proposal,
    notFound: 'request_not_found',
    conflicts: ['request_closed', 'request_not_open', 'proposal_exists'],
    handle: async (ctx) => {
      const currency = ctx.body.currency;
      checkPrecision(
        [
          { pointer: '/amount', amount: ctx.body.amount },
          ...(ctx.body.milestones ?? []).map((item, index) => ({
            pointer: `/milestones/${index}/amount`,
            amount: item.amount,
          })),
        ],
        currency,
      );
      const request = await visibleRequest(ctx);
      refuseClosed(request.status);
      if (!OPEN_FOR_PROPOSALS.includes(request.status)) {
        throw new HttpError(
          'request_not_open',
          `The request is ${request.status}; proposals are taken while it is submitted or routed.`,
        );
      }
      const provider = await ctx.call(providerOps.get, { id: ctx.provider.provider_id });
      return ctx.call(proposalOps.create, {
        request_id: request.id,
        provider_id: provider.id,
        provider_name: provider.name,
        input: ctx.body,
      });
    },
  }),

  // --- Proposals -------------------------------------------------------------------------------
  ...providerReads({
    plural: 'proposals',
    tags: ['provider', 'proposals'],
    item: Proposal,
    filters: { status: ProposalStatus.optional() },
    ops: proposalOps,
    list: {
      operationId: 'listProviderProposals',
      summary: "The provider's proposals, newest first, by status",
    },
    get: { operationId: 'getProviderProposal', summary: 'One of the provider’s proposals' },
    notFound: 'proposal_not_found',
  }),
  defineRoute({
    method: 'post',
    path: '/v1/provider/proposals/{id}/withdraw',
    operationId: 'withdrawProposal',
    summary: 'Take back a proposal the customer has not decided on',
    tags: ['provider', 'proposals'],
    access: PROVIDER,
    params: IdParams,
    status: 200,
    response: Proposal,
    notFound: 'proposal_not_found',
    handle: (ctx) =>
      ctx.call(proposalOps.withdraw, { id: ctx.params.id, provider_id: ctx.provider.provider_id }),
  }),

  // --- Jobs ------------------------------------------------------------------------------------
  ...providerReads({
    plural: 'jobs',
    tags: ['provider', 'jobs'],
    item: Job,
    filters: { status: JobStatus.optional() },
    ops: jobOps,
    list: {
      operationId: 'listProviderJobs',
      summary: "The provider's jobs, newest first, by status",
    },
    get: { operationId: 'getProviderJob', summary: 'One of the provider’s jobs' },
    notFound: 'job_not_found',
  }),
  defineRoute({
    method: 'post',
    path: '/v1/provider/jobs/{id}/complete',
    operationId: 'completeJob',
    summary:
      'Complete the job: every milestone approved or cancelled (at least one approved), no dispute open',
    tags: ['provider', 'jobs'],
    access: PROVIDER,
    params: IdParams,
    status: 200,
    response: Job,
    notFound: 'job_not_found',
    conflicts: ['job_has_open_work'],
    handle: (ctx) =>
      ctx.call(jobOps.complete, { id: ctx.params.id, provider_id: ctx.provider.provider_id }),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/provider/jobs/{id}/milestones',
    operationId: 'createMilestone',
    summary: 'Add a milestone to an active job',
    tags: ['provider', 'milestones'],
    access: PROVIDER,
    params: IdParams,
    body: MilestoneCreate,
    status: 201,
    response: Milestone,
    notFound: 'job_not_found',
    conflicts: ['job_not_active'],
    handle: (ctx) => {
      checkPrecision([{ pointer: '/amount', amount: ctx.body.amount }], ctx.body.currency);
      return ctx.call(milestoneOps.create, {
        job_id: ctx.params.id,
        provider_id: ctx.provider.provider_id,
        input: ctx.body,
      });
    },
  }),

  // --- Milestones ------------------------------------------------------------------------------
  ...providerReads({
    plural: 'milestones',
    tags: ['provider', 'milestones'],
    item: Milestone,
    filters: { status: MilestoneStatus.optional(), job_id: Id.optional() },
    ops: milestoneOps,
    list: {
      operationId: 'listProviderMilestones',
      summary: "The provider's milestones, newest first, by status or job",
    },
    get: { operationId: 'getProviderMilestone', summary: 'One of the provider’s milestones' },
    notFound: 'milestone_not_found',
  }),
  defineRoute({
    method: 'post',
    path: '/v1/provider/milestones/{id}/progress',
    operationId: 'updateMilestoneProgress',
    summary: 'Report progress (0–100) on an open milestone, with an optional note',
    tags: ['provider', 'milestones'],
    access: PROVIDER,
    params: IdParams,
    body: MilestoneProgress,
    status: 200,
    response: Milestone,
    notFound: 'milestone_not_found',
    conflicts: ['job_not_active'],
    handle: (ctx) =>
      ctx.call(milestoneOps.updateProgress, {
        id: ctx.params.id,
        provider_id: ctx.provider.provider_id,
        input: ctx.body,
      }),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/provider/milestones/{id}/submit',
    operationId: 'submitMilestone',
    summary: "Submit the milestone for the customer's review",
    tags: ['provider', 'milestones'],
    access: PROVIDER,
    params: IdParams,
    body: MilestoneSubmit,
    bodyOptional: true,
    status: 200,
    response: Milestone,
    notFound: 'milestone_not_found',
    conflicts: ['job_not_active'],
    handle: (ctx) =>
      ctx.call(milestoneOps.submit, {
        id: ctx.params.id,
        provider_id: ctx.provider.provider_id,
        ...given({ note: ctx.body.note }),
      }),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/provider/milestones/{id}/deliverables',
    operationId: 'createDeliverable',
    summary: 'Attach a deliverable (a link) to a milestone that is not under review',
    tags: ['provider', 'deliverables'],
    access: PROVIDER,
    params: IdParams,
    body: DeliverableCreate,
    status: 201,
    response: Deliverable,
    notFound: 'milestone_not_found',
    conflicts: ['job_not_active'],
    handle: (ctx) =>
      ctx.call(deliverableOps.create, {
        milestone_id: ctx.params.id,
        provider_id: ctx.provider.provider_id,
        input: ctx.body,
      }),
  }),

  // --- Deliverables ----------------------------------------------------------------------------
  ...providerReads({
    plural: 'deliverables',
    tags: ['provider', 'deliverables'],
    item: Deliverable,
    filters: { status: DeliverableStatus.optional(), milestone_id: Id.optional() },
    ops: deliverableOps,
    list: {
      operationId: 'listProviderDeliverables',
      summary: "The provider's deliverables, newest first, by status or milestone",
    },
    get: { operationId: 'getProviderDeliverable', summary: 'One of the provider’s deliverables' },
    notFound: 'deliverable_not_found',
  }),
  defineRoute({
    method: 'post',
    path: '/v1/provider/deliverables/{id}/withdraw',
    operationId: 'withdrawDeliverable',
    summary: 'Withdraw a deliverable while its milestone is not under review',
    tags: ['provider', 'deliverables'],
    access: PROVIDER,
    params: IdParams,
    status: 200,
    response: Deliverable,
    notFound: 'deliverable_not_found',
    conflicts: ['milestone_under_review'],
    handle: (ctx) =>
      ctx.call(deliverableOps.withdraw, {
        id: ctx.params.id,
        provider_id: ctx.provider.provider_id,
      }),
  }),

  // --- Disputes --------------------------------------------------------------------------------
  ...providerReads({
    plural: 'disputes',
    tags: ['provider', 'disputes'],
    item: Dispute,
    filters: { status: DisputeStatus.optional() },
    ops: disputeOps,
    list: {
      operationId: 'listProviderDisputes',
      summary: "Cases on the provider's jobs, newest first, by status",
    },
    get: {
      operationId: 'getProviderDispute',
      summary: 'One case on the provider’s jobs, with its comments',
    },
    notFound: 'dispute_not_found',
  }),
  defineRoute({
    method: 'post',
    path: '/v1/provider/disputes/{id}/comments',
    operationId: 'commentOnDisputeAsProvider',
    summary: "Add the provider's side to a case; answers the case with every comment",
    tags: ['provider', 'disputes'],
    access: PROVIDER,
    params: IdParams,
    body: DisputeComment,
    status: 200,
    response: Dispute,
    notFound: 'dispute_not_found',
    conflicts: ['comment_limit_reached'],
    handle: (ctx) =>
      ctx.call(disputeOps.comment, {
        id: ctx.params.id,
        party: providerParty(ctx),
        message: ctx.body.message,
      }),
  }),
];
