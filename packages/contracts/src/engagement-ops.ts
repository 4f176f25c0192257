import { z } from 'zod';
import { listOf } from './common.ts';
import {
  DeadlineItem,
  Deliverable,
  DeliverableCreate,
  DeliverableStatus,
  Dispute,
  DisputeCreate,
  DisputeResolution,
  DisputeStatus,
  IssuedProviderKey,
  Job,
  JobStatus,
  Milestone,
  MilestoneCreate,
  MilestoneProgress,
  MilestoneStatus,
  Payment,
  PaymentStatus,
  Proposal,
  ProposalAccepted,
  ProposalCreate,
  ProposalStatus,
  Provider,
  ProviderCreate,
  ProviderKeyCreate,
  ProviderKeyVerification,
  ProviderPatch,
  ProviderRequest,
  ProviderStatus,
} from './engagement.ts';
import { operation } from './operation.ts';

const Sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);
const Id = z.string().max(64);
const Actor = z.string().min(1);

/** Who acts, as the owning service checks it: the party must own or be party to the resource. */
export const Party = z.discriminatedUnion('role', [
  /** The agent for its customer; the gateway has already checked the request token. */
  z.object({ role: z.literal('customer'), request_id: Id }),
  z.object({ role: z.literal('provider'), provider_id: Id }),
  z.object({ role: z.literal('staff'), actor: Actor }),
]);
export type Party = z.infer<typeof Party>;

/** Paging of conventions §1 as it crosses the bus (already validated by the gateway). */
const Page = z.object({
  limit: z.number().int().min(1).max(100),
  starting_after: z.string().optional(),
  ending_before: z.string().optional(),
});

const Deadlines = z.object({
  before: z.string().optional(),
  overdue: z.boolean().optional(),
  limit: z.number().int().min(1).max(500),
});
const DeadlineItems = z.object({
  object: z.literal('list'),
  data: z.array(DeadlineItem),
  has_more: z.boolean(),
});

/**
 * Intake's entries in staff's deadlines: submitted requests nobody routed yet and marketplace
 * publications waiting for review (`REQUEST_WAITS`), soonest deadline first.
 */
export const intakeDeadlineOps = {
  list: operation('intake', 'deadlines.list', Deadlines, DeadlineItems),
} as const;

/** Intake: providers, their keys, and requests as providers see them. */
export const providerOps = {
  create: operation(
    'intake',
    'providers.create',
    z.object({ actor: Actor, input: ProviderCreate }),
    Provider,
  ),
  list: operation(
    'intake',
    'providers.list',
    Page.extend({ status: ProviderStatus.optional(), category: z.string().optional() }),
    listOf(Provider),
  ),
  get: operation('intake', 'providers.get', z.object({ id: Id }), Provider),
  update: operation(
    'intake',
    'providers.update',
    z.object({ id: Id, actor: Actor, patch: ProviderPatch }),
    Provider,
  ),
  issueKey: operation(
    'intake',
    'providers.issue_key',
    z.object({ id: Id, actor: Actor, input: ProviderKeyCreate }),
    IssuedProviderKey,
  ),
  revokeKey: operation(
    'intake',
    'providers.revoke_key',
    z.object({ key_id: Id, actor: Actor }),
    Provider,
  ),
  /** `not_found` for an unknown key; a revoked, expired or suspended one comes back as such. */
  verifyKey: operation(
    'intake',
    'providers.verify_key',
    z.object({ key_hash: Sha256Hex }),
    ProviderKeyVerification,
  ),
  /**
   * Requests a provider may see, newest first: routed to them, published on the marketplace in
   * one of their categories (while open), or engaged with them through an accepted proposal.
   */
  requests: operation(
    'intake',
    'providers.requests',
    Page.extend({ provider_id: Id }),
    listOf(ProviderRequest),
  ),
  /** One such request; `not_found` when the provider may not see it. */
  request: operation(
    'intake',
    'providers.request',
    z.object({ provider_id: Id, request_id: Id }),
    ProviderRequest.extend({
      /** The owning integration, for the gateway's own calls; never shown to the provider. */
      integration_id: z.string(),
      /** The asking provider's name, read with it: a proposal carries it. */
      provider_name: z.string(),
    }),
  ),
} as const;

const ListFilter = Page.extend({ party: Party });

/** The milestones service: proposals, jobs, milestones, deliverables and disputes. */
export const proposalOps = {
  /** Conflict `proposal_exists` when the provider has an open one; `request_not_open` after a job started. */
  create: operation(
    'milestones',
    'proposals.create',
    z.object({
      request_id: Id,
      provider_id: Id,
      provider_name: z.string(),
      input: ProposalCreate,
    }),
    Proposal,
  ),
  list: operation(
    'milestones',
    'proposals.list',
    ListFilter.extend({ status: ProposalStatus.optional() }),
    listOf(Proposal),
  ),
  get: operation('milestones', 'proposals.get', z.object({ id: Id, party: Party }), Proposal),
  accept: operation(
    'milestones',
    'proposals.accept',
    z.object({ id: Id, request_id: Id }),
    ProposalAccepted,
  ),
  decline: operation(
    'milestones',
    'proposals.decline',
    z.object({ id: Id, request_id: Id, reason: z.string().optional() }),
    Proposal,
  ),
  withdraw: operation(
    'milestones',
    'proposals.withdraw',
    z.object({ id: Id, provider_id: Id }),
    Proposal,
  ),
} as const;

export const jobOps = {
  list: operation(
    'milestones',
    'jobs.list',
    ListFilter.extend({ status: JobStatus.optional() }),
    listOf(Job),
  ),
  get: operation('milestones', 'jobs.get', z.object({ id: Id, party: Party }), Job),
  /** Conflict `job_has_open_work` while a milestone or a dispute is open. */
  complete: operation('milestones', 'jobs.complete', z.object({ id: Id, provider_id: Id }), Job),
  cancel: operation(
    'milestones',
    'jobs.cancel',
    z.object({ id: Id, actor: Actor, reason: z.string() }),
    Job,
  ),
} as const;

export const milestoneOps = {
  create: operation(
    'milestones',
    'milestones.create',
    z.object({ job_id: Id, provider_id: Id, input: MilestoneCreate }),
    Milestone,
  ),
  list: operation(
    'milestones',
    'milestones.list',
    ListFilter.extend({ status: MilestoneStatus.optional(), job_id: Id.optional() }),
    listOf(Milestone),
  ),
  get: operation('milestones', 'milestones.get', z.object({ id: Id, party: Party }), Milestone),
  updateProgress: operation(
    'milestones',
    'milestones.update_progress',
    z.object({ id: Id, provider_id: Id, input: MilestoneProgress }),
    Milestone,
  ),
  submit: operation(
    'milestones',
    'milestones.submit',
    z.object({ id: Id, provider_id: Id, note: z.string().optional() }),
    Milestone,
  ),
  /** The customer's review: approve, or request changes with a reason. */
  review: operation(
    'milestones',
    'milestones.review',
    z.object({
      id: Id,
      request_id: Id,
      decision: z.enum(['approve', 'request_changes']),
      reason: z.string().optional(),
    }),
    Milestone,
  ),
  cancel: operation(
    'milestones',
    'milestones.cancel',
    z.object({ id: Id, actor: Actor, reason: z.string() }),
    Milestone,
  ),
} as const;

export const deliverableOps = {
  create: operation(
    'milestones',
    'deliverables.create',
    z.object({ milestone_id: Id, provider_id: Id, input: DeliverableCreate }),
    Deliverable,
  ),
  list: operation(
    'milestones',
    'deliverables.list',
    ListFilter.extend({ status: DeliverableStatus.optional(), milestone_id: Id.optional() }),
    listOf(Deliverable),
  ),
  get: operation('milestones', 'deliverables.get', z.object({ id: Id, party: Party }), Deliverable),
  withdraw: operation(
    'milestones',
    'deliverables.withdraw',
    z.object({ id: Id, provider_id: Id }),
    Deliverable,
  ),
} as const;

export const disputeOps = {
  /** The customer opens a case on the request's job (conflict `no_job` before one exists). */
  create: operation(
    'milestones',
    'disputes.create',
    z.object({ request_id: Id, input: DisputeCreate }),
    Dispute,
  ),
  list: operation(
    'milestones',
    'disputes.list',
    ListFilter.extend({ status: DisputeStatus.optional() }),
    listOf(Dispute),
  ),
  get: operation('milestones', 'disputes.get', z.object({ id: Id, party: Party }), Dispute),
  comment: operation(
    'milestones',
    'disputes.comment',
    z.object({ id: Id, party: Party, message: z.string() }),
    Dispute,
  ),
  withdraw: operation(
    'milestones',
    'disputes.withdraw',
    z.object({ id: Id, request_id: Id }),
    Dispute,
  ),
  escalate: operation(
    'milestones',
    'disputes.escalate',
    z.object({ id: Id, actor: Actor }),
    Dispute,
  ),
  resolve: operation(
    'milestones',
    'disputes.resolve',
    z.object({ id: Id, actor: Actor, resolution: DisputeResolution }),
    Dispute,
  ),
} as const;

/** Everything of the milestones service waiting on a deadline, soonest first. */
export const milestonesDeadlineOps = {
  list: operation('milestones', 'deadlines.list', Deadlines, DeadlineItems),
} as const;

/** The payments service: payments made through the configured payment provider. */
export const paymentRecordOps = {
  list: operation(
    'payments',
    'payments.list',
    Page.extend({ status: PaymentStatus.optional(), request_id: Id.optional() }),
    listOf(Payment),
  ),
  get: operation('payments', 'payments.get', z.object({ id: Id }), Payment),
  /** Staff confirm a payment of the manual provider (conflict `provider_confirms` for Stripe). */
  confirm: operation(
    'payments',
    'payments.confirm',
    z.object({ id: Id, actor: Actor, reference: z.string().optional() }),
    Payment,
  ),
  fail: operation(
    'payments',
    'payments.fail',
    z.object({ id: Id, actor: Actor, reason: z.string() }),
    Payment,
  ),
  /**
   * A Stripe webhook as it arrived: the raw body and its `Stripe-Signature`. The payments service
   * verifies it with the webhook secret that only it holds (`forbidden` when it does not verify).
   */
  stripeWebhook: operation(
    'payments',
    'payments.stripe_webhook',
    z.object({ payload: z.string().max(512 * 1024), signature: z.string().max(4_096) }),
    z.object({ received: z.literal(true), payment_id: z.string().nullable() }),
  ),
  deadlines: operation('payments', 'deadlines.list', Deadlines, DeadlineItems),
} as const;
