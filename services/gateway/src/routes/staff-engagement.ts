import {
  DeadlineList,
  DeadlineQuery,
  Dispute,
  DisputeComment,
  DisputeResolution,
  DisputeStatus,
  disputeOps,
  IssuedProviderKey,
  Job,
  jobOps,
  listOf,
  Milestone,
  milestoneOps,
  intakeDeadlineOps,
  milestonesDeadlineOps,
  Payment,
  PaymentConfirm,
  PaymentStatus,
  paymentRecordOps,
  Provider,
  ProviderCreate,
  ProviderKeyCreate,
  ProviderPatch,
  ProviderStatus,
  providerOps,
  ReasonBody,
  type DeadlineItem,
} from '@handoff/contracts';
import { defineRoute, type RouteDefinition } from '../http/route.ts';
import { Id, IdParams, KeyParams } from './ids.ts';
import { filteredList, given } from './paging.ts';
import { staffActor, staffParty } from './parties.ts';
import { staffAction } from './resource-actions.ts';

/**
 * Staff's side of the engagement: providers and their keys, disputes, cancelling jobs and
 * milestones, payments, and everything waiting on a deadline. Routing a request to providers is
 * `PATCH /v1/staff/requests/{id}` with `routing` (staff.ts).
 */

const STAFF = { kind: 'staff' } as const;
/** What staff's actions on one kind of resource share. */
const ON_DISPUTE = { plural: 'disputes', response: Dispute } as const;
const ON_PAYMENT = {
  plural: 'payments',
  response: Payment,
  notFound: ['payment_not_found'],
} as const;

/** Staff's lists and their filters. */
const PROVIDERS = filteredList({ status: ProviderStatus.optional(), category: Id.optional() });
const DISPUTES = filteredList({ status: DisputeStatus.optional() });
const PAYMENTS = filteredList({ status: PaymentStatus.optional(), request_id: Id.optional() });

/** Orders deadline items soonest first; equal times by id, so pages are stable. */
const byDeadline = (a: DeadlineItem, b: DeadlineItem) =>
  a.deadline_at === b.deadline_at
    ? a.id < b.id
      ? -1
      : a.id > b.id
        ? 1
        : 0
    : Date.parse(a.deadline_at) - Date.parse(b.deadline_at);

export const staffEngagementRoutes: RouteDefinition[] = [
  // --- Providers -------------------------------------------------------------------------------
  defineRoute({
    method: 'post',
    path: '/v1/staff/providers',
    operationId: 'createProvider',
    summary: 'Onboard a human provider with the categories it serves',
    tags: ['staff', 'provider'],
    access: STAFF,
    body: ProviderCreate,
    status: 201,
    response: Provider,
    handle: (ctx) => ctx.call(providerOps.create, { actor: staffActor(ctx), input: ctx.body }),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/staff/providers',
    operationId: 'listProviders',
    summary: 'Providers, newest first, by status or category',
    tags: ['staff', 'provider'],
    access: STAFF,
    query: PROVIDERS.query,
    status: 200,
    response: listOf(Provider),
    handle: (ctx) => ctx.call(providerOps.list, PROVIDERS.input(ctx.query)),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/staff/providers/{id}',
    operationId: 'getProvider',
    summary: 'One provider with its keys (prefix and last four only)',
    tags: ['staff', 'provider'],
    access: STAFF,
    params: IdParams,
    status: 200,
    response: Provider,
    notFound: ['provider_not_found'],
    handle: (ctx) => ctx.call(providerOps.get, { id: ctx.params.id }),
  }),
  defineRoute({
    method: 'patch',
    path: '/v1/staff/providers/{id}',
    operationId: 'updateProvider',
    summary:
      'Change a provider’s name, email, categories or status; suspending it stops its keys at once',
    tags: ['staff', 'provider'],
    access: STAFF,
    params: IdParams,
    body: ProviderPatch,
    status: 200,
    response: Provider,
    notFound: ['provider_not_found'],
    handle: (ctx) =>
      ctx.call(providerOps.update, { id: ctx.params.id, actor: staffActor(ctx), patch: ctx.body }),
  }),
  staffAction({
    plural: 'providers',
    verb: 'keys',
    operationId: 'issueProviderKey',
    summary: 'Issue a provider key (`hpk_live_...`); the secret is returned only here',
    tags: ['staff', 'provider'],
    op: providerOps.issueKey,
    body: ProviderKeyCreate,
    bodyOptional: true,
    status: 201,
    response: IssuedProviderKey,
    notFound: ['provider_not_found'],
    conflicts: ['provider_suspended'],
    input: (target, body) => ({ ...target, input: body }),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/staff/provider-keys/{key_id}/revoke',
    operationId: 'revokeProviderKey',
    summary: 'Revoke a provider key; every gateway replica refuses it at once',
    tags: ['staff', 'provider'],
    access: STAFF,
    params: KeyParams,
    status: 200,
    response: Provider,
    notFound: ['provider_key_not_found'],
    handle: (ctx) =>
      ctx.call(providerOps.revokeKey, { key_id: ctx.params.key_id, actor: staffActor(ctx) }),
  }),

  // --- Disputes --------------------------------------------------------------------------------
  defineRoute({
    method: 'get',
    path: '/v1/staff/disputes',
    operationId: 'listDisputesAsStaff',
    summary: 'Every dispute and refund case, newest first, by status',
    tags: ['staff', 'disputes'],
    access: STAFF,
    query: DISPUTES.query,
    status: 200,
    response: listOf(Dispute),
    handle: (ctx) =>
      ctx.call(disputeOps.list, {
        party: staffParty(staffActor(ctx)),
        ...DISPUTES.input(ctx.query),
      }),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/staff/disputes/{id}',
    operationId: 'getDisputeAsStaff',
    summary: 'One case with its comments',
    tags: ['staff', 'disputes'],
    access: STAFF,
    params: IdParams,
    status: 200,
    response: Dispute,
    notFound: ['dispute_not_found'],
    handle: (ctx) =>
      ctx.call(disputeOps.get, { id: ctx.params.id, party: staffParty(staffActor(ctx)) }),
  }),
  staffAction({
    ...ON_DISPUTE,
    verb: 'comments',
    operationId: 'commentOnDisputeAsStaff',
    summary: "Add staff's comment to a case; answers the case with every comment",
    op: disputeOps.comment,
    body: DisputeComment,
    conflicts: ['comment_limit_reached'],
    input: ({ id, actor }, body) => ({ id, party: staffParty(actor), message: body.message }),
  }),
  staffAction({
    ...ON_DISPUTE,
    verb: 'escalate',
    operationId: 'escalateDispute',
    summary: 'Take an open case under staff review',
    op: disputeOps.escalate,
    input: (target) => target,
  }),
  staffAction({
    ...ON_DISPUTE,
    verb: 'resolve',
    operationId: 'resolveDispute',
    summary:
      'Resolve a case for the customer, for the provider or split, with a reason (no money moves)',
    op: disputeOps.resolve,
    body: DisputeResolution,
    input: (target, body) => ({ ...target, resolution: body }),
  }),

  // --- Jobs and milestones ---------------------------------------------------------------------
  staffAction({
    plural: 'jobs',
    verb: 'cancel',
    operationId: 'cancelJob',
    summary: 'Cancel an active job, with a reason',
    op: jobOps.cancel,
    body: ReasonBody,
    response: Job,
    input: (target, body) => ({ ...target, reason: body.reason }),
  }),
  staffAction({
    plural: 'milestones',
    verb: 'cancel',
    operationId: 'cancelMilestone',
    summary: 'Cancel a milestone that is not approved, with a reason',
    op: milestoneOps.cancel,
    body: ReasonBody,
    response: Milestone,
    input: (target, body) => ({ ...target, reason: body.reason }),
  }),

  // --- Payments --------------------------------------------------------------------------------
  defineRoute({
    method: 'get',
    path: '/v1/staff/payments',
    operationId: 'listPayments',
    summary: 'Payments, newest first, by status or request',
    tags: ['staff', 'payments'],
    access: STAFF,
    query: PAYMENTS.query,
    status: 200,
    response: listOf(Payment),
    handle: (ctx) => ctx.call(paymentRecordOps.list, PAYMENTS.input(ctx.query)),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/staff/payments/{id}',
    operationId: 'getPayment',
    summary: 'One payment',
    tags: ['staff', 'payments'],
    access: STAFF,
    params: IdParams,
    status: 200,
    response: Payment,
    notFound: ['payment_not_found'],
    handle: (ctx) => ctx.call(paymentRecordOps.get, { id: ctx.params.id }),
  }),
  staffAction({
    ...ON_PAYMENT,
    verb: 'confirm',
    operationId: 'confirmPayment',
    summary:
      'Confirm a pending payment of the manual provider, with an optional reference (Stripe confirms its own)',
    op: paymentRecordOps.confirm,
    body: PaymentConfirm,
    bodyOptional: true,
    conflicts: ['provider_confirms'],
    input: (target, body) => ({ ...target, ...given({ reference: body.reference }) }),
  }),
  staffAction({
    ...ON_PAYMENT,
    verb: 'fail',
    operationId: 'failPayment',
    summary: 'Mark a pending payment failed, with a reason',
    op: paymentRecordOps.fail,
    body: ReasonBody,
    input: (target, body) => ({ ...target, reason: body.reason }),
  }),

  // --- Deadlines -------------------------------------------------------------------------------
  defineRoute({
    method: 'get',
    path: '/v1/staff/deadlines',
    operationId: 'listDeadlines',
    summary:
      'Everything waiting on somebody, soonest deadline first, with what happens when it passes',
    tags: ['staff'],
    access: STAFF,
    query: DeadlineQuery,
    status: 200,
    response: DeadlineList,
    // Each service lists its own waiting resources (proposals, jobs, milestones, deliverables and
    // disputes; payment requests and payments; unrouted requests and pending marketplace
    // reviews); the three sorted lists merge here.
    handle: async (ctx) => {
      const filter = {
        limit: ctx.query.limit,
        ...given({ before: ctx.query.before }),
        ...(ctx.query.overdue === undefined ? {} : { overdue: ctx.query.overdue === 'true' }),
      };
      const [work, money, requests] = await Promise.all([
        ctx.call(milestonesDeadlineOps.list, filter),
        ctx.call(paymentRecordOps.deadlines, filter),
        ctx.call(intakeDeadlineOps.list, filter),
      ]);
      const merged = [...work.data, ...money.data, ...requests.data].sort(byDeadline);
      return {
        object: 'list' as const,
        data: merged.slice(0, ctx.query.limit),
        has_more:
          work.has_more || money.has_more || requests.has_more || merged.length > ctx.query.limit,
      };
    },
  }),
];
