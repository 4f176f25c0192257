import {
  Deliverable,
  DeliverableCreate,
  Dispute,
  DisputeComment,
  deliverableOps,
  disputeOps,
  Job,
  jobOps,
  listOf,
  messageOps,
  Milestone,
  MilestoneCreate,
  MilestoneProgress,
  MilestoneSubmit,
  milestoneOps,
  NotificationSettings,
  NotificationSettingsPatch,
  notificationOps,
  paymentRecordOps,
  ProviderInboxItem,
  RequestPayment,
  RequestRead,
  Proposal,
  ProposalCreate,
  proposalOps,
  ProviderMe,
  ProviderMessage,
  ProviderRequest,
  providerOps,
  type RequestStatus,
} from '@handoff/contracts';
import { BusError } from '@handoff/bus';
import { HttpError } from '../http/errors.ts';
import { defineRoute, type RouteContext, type RouteDefinition } from '../http/route.ts';
import { checkPrecision } from './amount-precision.ts';
import { IdParams } from './ids.ts';
import { NEW_MESSAGE } from './new-message.ts';
import { given, listQuery, page } from './paging.ts';
import { providerAction } from './resource-actions.ts';
import { providerReads } from './resource-reads.ts';
import { refuseClosed } from '../http/request-closed.ts';
import { providerMe, providerOfferRoutes, visibleRequest } from './provider-offers.ts';

/**
 * The provider API. Every call carries a provider key; the services answer only for the
 * provider's own resources (`Party` provider) and for requests it may see (routed to it, published
 * on the marketplace in its categories while open, or engaged with it), so anything else is 404
 * like an unknown id.
 */

const PROVIDER = { kind: 'provider' } as const;
/** The provider's actions on a milestone of an active job. */
const ON_MILESTONE = { plural: 'milestones', conflicts: ['job_not_active'] } as const;

/** A request takes proposals while it is open: not yet in progress, completed or cancelled. */
const OPEN_FOR_PROPOSALS: readonly RequestStatus[] = ['submitted', 'routed'];

/**
 * The unread counts of a page of the inbox, or undefined when the notifications service did not
 * answer: the inbox is shown without them rather than not at all.
 */
async function unreadCounts(
  ctx: RouteContext<'provider'>,
  list: { data: readonly { id: string }[] },
): Promise<Record<string, number> | undefined> {
  if (list.data.length === 0) return {};
  try {
    const answer = await ctx.call(notificationOps.unread, {
      provider_id: ctx.provider.provider_id,
      request_ids: list.data.map((request) => request.id),
    });
    return answer.requests;
  } catch (error) {
    if (error instanceof BusError) return undefined;
    throw error;
  }
}

export const providerRoutes: RouteDefinition[] = [
  ...providerOfferRoutes,
  defineRoute({
    method: 'get',
    path: '/v1/provider/me',
    operationId: 'getProviderMe',
    summary: 'The calling provider, its categories and its key expiry',
    tags: ['provider'],
    access: PROVIDER,
    status: 200,
    response: ProviderMe,
    // The provider can vanish between its sign-in and this call (a suspension).
    notFound: ['provider_not_found'],
    handle: async (ctx) =>
      providerMe(ctx, await ctx.call(providerOps.get, { id: ctx.provider.provider_id })),
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
    response: listOf(ProviderInboxItem),
    // The provider can vanish between its sign-in and this call (a suspension).
    notFound: ['provider_not_found'],
    handle: async (ctx) => {
      const list = await ctx.call(providerOps.requests, {
        provider_id: ctx.provider.provider_id,
        ...page(ctx.query),
      });
      const counts = await unreadCounts(ctx, list);
      return {
        ...list,
        data: list.data.map((request) => ({
          ...request,
          // Counted where the provider is told of messages: routed to it, or engaged with it.
          unread_messages:
            counts === undefined || request.relation === 'marketplace'
              ? null
              : (counts[request.id] ?? 0),
        })),
      };
    },
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
    notFound: ['request_not_found'],
    handle: async (ctx) => {
      // The owning integration is for the gateway's own calls; the provider never sees it.
      return ProviderRequest.parse(await visibleRequest(ctx));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/provider/requests/{id}/messages',
    operationId: 'listProviderRequestMessages',
    summary:
      'The conversation of a request the provider may see, a page at a time, newest first; `mine` marks what this provider wrote',
    tags: ['provider'],
    access: PROVIDER,
    params: IdParams,
    query: listQuery({}),
    status: 200,
    response: listOf(ProviderMessage),
    notFound: ['request_not_found'],
    handle: async (ctx) => {
      await visibleRequest(ctx);
      return ctx.call(messageOps.listForProvider, {
        ...page(ctx.query),
        request_id: ctx.params.id,
        provider_id: ctx.provider.provider_id,
      });
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/provider/requests/{id}/read',
    operationId: 'markProviderRequestRead',
    summary: 'Mark the conversation of a request read: its unread count goes back to 0',
    tags: ['provider'],
    access: PROVIDER,
    params: IdParams,
    status: 200,
    response: RequestRead,
    notFound: ['request_not_found'],
    handle: async (ctx) => {
      await visibleRequest(ctx);
      return ctx.call(notificationOps.markRead, {
        provider_id: ctx.provider.provider_id,
        request_id: ctx.params.id,
      });
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/provider/requests/{id}/payments',
    operationId: 'listProviderRequestPayments',
    summary:
      'What has been paid on a request the provider is engaged on (payments with their outcome), newest first; empty on any other',
    tags: ['provider'],
    access: PROVIDER,
    params: IdParams,
    query: listQuery({}),
    status: 200,
    response: listOf(RequestPayment),
    notFound: ['request_not_found'],
    handle: async (ctx) => {
      const request = await visibleRequest(ctx);
      if (request.relation !== 'engaged')
        return { object: 'list' as const, data: [], has_more: false };
      const list = await ctx.call(paymentRecordOps.list, {
        ...page(ctx.query),
        request_id: request.id,
      });
      // The payment processor's name and reference are staff's.
      return {
        ...list,
        data: list.data.map(
          ({ provider: _provider, provider_reference: _reference, ...payment }) => payment,
        ),
      };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/provider/notification-settings',
    operationId: 'getNotificationSettings',
    summary: 'Which emails the provider gets, and whether mail reaches its address',
    tags: ['provider'],
    access: PROVIDER,
    status: 200,
    response: NotificationSettings,
    // The provider can vanish between its sign-in and this call (a suspension).
    notFound: ['provider_not_found'],
    handle: (ctx) => ctx.call(notificationOps.settings, { provider_id: ctx.provider.provider_id }),
  }),
  defineRoute({
    method: 'patch',
    path: '/v1/provider/notification-settings',
    operationId: 'updateNotificationSettings',
    summary: 'Turn kinds of email on or off (the sign-in email always goes)',
    tags: ['provider'],
    access: PROVIDER,
    body: NotificationSettingsPatch,
    status: 200,
    response: NotificationSettings,
    // The provider can vanish between its sign-in and this call (a suspension).
    notFound: ['provider_not_found'],
    handle: (ctx) =>
      ctx.call(notificationOps.updateSettings, {
        provider_id: ctx.provider.provider_id,
        patch: ctx.body,
      }),
  }),
  defineRoute({
    ...NEW_MESSAGE,
    path: '/v1/provider/requests/{id}/messages',
    operationId: 'sendProviderMessage',
    summary: "Write into the request's conversation as the provider",
    tags: ['provider'],
    access: PROVIDER,
    response: ProviderMessage,
    handle: async (ctx) => {
      // Intake's answer is a fresh read, so its status decides without another call.
      const request = await visibleRequest(ctx);
      refuseClosed(request.status);
      const message = await ctx.call(messageOps.create, {
        request_id: request.id,
        integration_id: request.integration_id,
        author_role: 'provider',
        author_provider_id: ctx.provider.provider_id,
        message: ctx.body.message,
        ...(ctx.body.attachments ? { attachments: ctx.body.attachments } : {}),
      });
      return { ...message, mine: true };
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
    notFound: ['request_not_found'],
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
      // The provider's name came with the request (one read in intake for both).
      return ctx.call(proposalOps.create, {
        request_id: request.id,
        provider_id: ctx.provider.provider_id,
        provider_name: request.provider_name,
        input: ctx.body,
      });
    },
  }),

  // --- Proposals -------------------------------------------------------------------------------
  ...providerReads('proposals', {
    list: "The provider's proposals, newest first, by status or request",
    get: 'One of the provider’s proposals',
  }),
  providerAction({
    plural: 'proposals',
    verb: 'withdraw',
    operationId: 'withdrawProposal',
    summary: 'Take back a proposal the customer has not decided on',
    op: proposalOps.withdraw,
    response: Proposal,
    input: (target) => target,
  }),

  // --- Jobs ------------------------------------------------------------------------------------
  ...providerReads('jobs', {
    list: "The provider's jobs, newest first, by status or request",
    get: 'One of the provider’s jobs',
  }),
  providerAction({
    plural: 'jobs',
    verb: 'complete',
    operationId: 'completeJob',
    summary:
      'Complete the job: every milestone approved or cancelled (at least one approved), no dispute open',
    op: jobOps.complete,
    response: Job,
    conflicts: ['job_has_open_work'],
    input: (target) => target,
  }),
  providerAction({
    plural: 'jobs',
    verb: 'milestones',
    operationId: 'createMilestone',
    summary: 'Add a milestone to an active job',
    tags: ['provider', 'milestones'],
    op: milestoneOps.create,
    body: MilestoneCreate,
    status: 201,
    response: Milestone,
    conflicts: ['job_not_active'],
    input: ({ id, provider_id }, body) => {
      checkPrecision([{ pointer: '/amount', amount: body.amount }], body.currency);
      return { job_id: id, provider_id, input: body };
    },
  }),

  // --- Milestones ------------------------------------------------------------------------------
  ...providerReads('milestones', {
    list: "The provider's milestones, newest first, by status, job or request",
    get: 'One of the provider’s milestones',
  }),
  providerAction({
    ...ON_MILESTONE,
    verb: 'progress',
    operationId: 'updateMilestoneProgress',
    summary: 'Report progress (0–100) on an open milestone, with an optional note',
    op: milestoneOps.updateProgress,
    body: MilestoneProgress,
    response: Milestone,
    input: (target, body) => ({ ...target, input: body }),
  }),
  providerAction({
    ...ON_MILESTONE,
    verb: 'submit',
    operationId: 'submitMilestone',
    summary: "Submit the milestone for the customer's review",
    op: milestoneOps.submit,
    body: MilestoneSubmit,
    bodyOptional: true,
    response: Milestone,
    input: (target, body) => ({ ...target, ...given({ note: body.note }) }),
  }),
  providerAction({
    ...ON_MILESTONE,
    verb: 'deliverables',
    operationId: 'createDeliverable',
    summary:
      'Hand in a deliverable (a link, files uploaded for the milestone, or both) on a milestone that is not under review',
    // `file_not_found`: a file that is not one the provider uploaded for this milestone.
    notFound: ['milestone_not_found', 'file_not_found'],
    tags: ['provider', 'deliverables'],
    op: deliverableOps.create,
    body: DeliverableCreate,
    status: 201,
    response: Deliverable,
    input: ({ id, provider_id }, body) => ({ milestone_id: id, provider_id, input: body }),
  }),

  // --- Deliverables ----------------------------------------------------------------------------
  ...providerReads('deliverables', {
    list: "The provider's deliverables, newest first, by status, milestone or request",
    get: 'One of the provider’s deliverables',
  }),
  providerAction({
    plural: 'deliverables',
    verb: 'withdraw',
    operationId: 'withdrawDeliverable',
    summary: 'Withdraw a deliverable while its milestone is not under review',
    op: deliverableOps.withdraw,
    response: Deliverable,
    conflicts: ['milestone_under_review'],
    input: (target) => target,
  }),

  // --- Disputes --------------------------------------------------------------------------------
  ...providerReads('disputes', {
    list: "Cases on the provider's jobs, newest first, by status or request",
    get: 'One case on the provider’s jobs, with its comments',
  }),
  providerAction({
    plural: 'disputes',
    verb: 'comments',
    operationId: 'commentOnDisputeAsProvider',
    summary: "Add the provider's side to a case; answers the case with every comment",
    op: disputeOps.comment,
    body: DisputeComment,
    response: Dispute,
    conflicts: ['comment_limit_reached'],
    input: ({ id, provider_id }, body) => ({
      id,
      party: { role: 'provider' as const, provider_id },
      message: body.message,
    }),
  }),
];
