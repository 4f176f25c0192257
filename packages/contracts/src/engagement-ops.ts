import { z } from 'zod';
import { BusPage, listOf, Sha256Hex } from './common.ts';
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
import { intakeOp, milestonesOp, paymentsOp } from './service-ops.ts';

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

/** A provider's action on one of its own resources. */
const ByProvider = z.object({ id: Id, provider_id: Id });
/** Staff's action on a resource, with the reason the parties see. */
const ByStaffWithReason = z.object({ id: Id, actor: Actor, reason: z.string() });

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
 * publications waiting for review (`REQUEST_WAITS`), and offers waiting for their provider's
 * answer, soonest deadline first.
 */
export const intakeDeadlineOps = {
  list: intakeOp('deadlines.list', Deadlines, DeadlineItems),
} as const;

/** Intake: providers, their keys, and requests as providers see them. */
export const providerOps = {
  create: intakeOp('providers.create', z.object({ actor: Actor, input: ProviderCreate }), Provider),
  list: intakeOp(
    'providers.list',
    BusPage.extend({ status: ProviderStatus.optional(), category: z.string().optional() }),
    listOf(Provider),
  ),
  get: intakeOp('providers.get', z.object({ id: Id }), Provider),
  update: intakeOp(
    'providers.update',
    z.object({ id: Id, actor: Actor, patch: ProviderPatch }),
    Provider,
  ),
  issueKey: intakeOp(
    'providers.issue_key',
    z.object({ id: Id, actor: Actor, input: ProviderKeyCreate }),
    IssuedProviderKey,
  ),
  revokeKey: intakeOp('providers.revoke_key', z.object({ key_id: Id, actor: Actor }), Provider),
  /** `not_found` for an unknown key; a revoked, expired or suspended one comes back as such. */
  verifyKey: intakeOp(
    'providers.verify_key',
    z.object({ key_hash: Sha256Hex }),
    ProviderKeyVerification,
  ),
  /**
   * Requests a provider may see, newest first: routed to them, published on the marketplace in
   * one of their categories (while open), or engaged with them through an accepted proposal.
   */
  requests: intakeOp(
    'providers.requests',
    BusPage.extend({ provider_id: Id }),
    listOf(ProviderRequest),
  ),
  /** One such request; `not_found` when the provider may not see it. */
  request: intakeOp(
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

/**
 * What every list of the milestones service takes: the party, paging, and optionally one
 * request's items only (`request_id`; with a customer's party, another request finds nothing).
 */
const ListFilter = BusPage.extend({ party: Party, request_id: Id.optional() });

/**
 * A resource's reads in the milestones service, each for a party: the list (paged, with
 * `filters`) and one item by id.
 */
const partyReads = <T extends z.ZodType, F extends z.ZodRawShape>(
  resource: string,
  item: T,
  filters: F,
) => ({
  list: milestonesOp(`${resource}.list`, ListFilter.extend(filters), listOf(item)),
  get: milestonesOp(`${resource}.get`, z.object({ id: Id, party: Party }), item),
});

/** The milestones service: proposals, jobs, milestones, deliverables and disputes. */
export const proposalOps = {
  /** Conflict `proposal_exists` when the provider has an open one; `request_not_open` after a job started. */
  create: milestonesOp(
    'proposals.create',
    z.object({
      request_id: Id,
      provider_id: Id,
      provider_name: z.string(),
      input: ProposalCreate,
    }),
    Proposal,
  ),
  ...partyReads('proposals', Proposal, { status: ProposalStatus.optional() }),
  accept: milestonesOp('proposals.accept', z.object({ id: Id, request_id: Id }), ProposalAccepted),
  decline: milestonesOp(
    'proposals.decline',
    z.object({ id: Id, request_id: Id, reason: z.string().optional() }),
    Proposal,
  ),
  withdraw: milestonesOp('proposals.withdraw', ByProvider, Proposal),
} as const;

export const jobOps = {
  ...partyReads('jobs', Job, { status: JobStatus.optional() }),
  /** Conflict `job_has_open_work` while a milestone or a dispute is open. */
  complete: milestonesOp('jobs.complete', ByProvider, Job),
  cancel: milestonesOp('jobs.cancel', ByStaffWithReason, Job),
} as const;

export const milestoneOps = {
  create: milestonesOp(
    'milestones.create',
    z.object({ job_id: Id, provider_id: Id, input: MilestoneCreate }),
    Milestone,
  ),
  ...partyReads('milestones', Milestone, {
    status: MilestoneStatus.optional(),
    job_id: Id.optional(),
  }),
  updateProgress: milestonesOp(
    'milestones.update_progress',
    z.object({ id: Id, provider_id: Id, input: MilestoneProgress }),
    Milestone,
  ),
  submit: milestonesOp(
    'milestones.submit',
    z.object({ id: Id, provider_id: Id, note: z.string().optional() }),
    Milestone,
  ),
  /** The customer's review: approve, or request changes with a reason. */
  review: milestonesOp(
    'milestones.review',
    z.object({
      id: Id,
      request_id: Id,
      decision: z.enum(['approve', 'request_changes']),
      reason: z.string().optional(),
    }),
    Milestone,
  ),
  cancel: milestonesOp('milestones.cancel', ByStaffWithReason, Milestone),
} as const;

export const deliverableOps = {
  create: milestonesOp(
    'deliverables.create',
    z.object({ milestone_id: Id, provider_id: Id, input: DeliverableCreate }),
    Deliverable,
  ),
  ...partyReads('deliverables', Deliverable, {
    status: DeliverableStatus.optional(),
    milestone_id: Id.optional(),
  }),
  withdraw: milestonesOp('deliverables.withdraw', ByProvider, Deliverable),
} as const;

export const disputeOps = {
  /** The customer opens a case on the request's job (conflict `no_job` before one exists). */
  create: milestonesOp(
    'disputes.create',
    z.object({ request_id: Id, input: DisputeCreate }),
    Dispute,
  ),
  ...partyReads('disputes', Dispute, { status: DisputeStatus.optional() }),
  comment: milestonesOp(
    'disputes.comment',
    z.object({ id: Id, party: Party, message: z.string() }),
    Dispute,
  ),
  withdraw: milestonesOp('disputes.withdraw', z.object({ id: Id, request_id: Id }), Dispute),
  escalate: milestonesOp('disputes.escalate', z.object({ id: Id, actor: Actor }), Dispute),
  resolve: milestonesOp(
    'disputes.resolve',
    z.object({ id: Id, actor: Actor, resolution: DisputeResolution }),
    Dispute,
  ),
} as const;

/** Everything of the milestones service waiting on a deadline, soonest first. */
export const milestonesDeadlineOps = {
  list: milestonesOp('deadlines.list', Deadlines, DeadlineItems),
} as const;

/** The payments service: payments made through the configured payment provider. */
export const paymentRecordOps = {
  list: paymentsOp(
    'payments.list',
    BusPage.extend({ status: PaymentStatus.optional(), request_id: Id.optional() }),
    listOf(Payment),
  ),
  get: paymentsOp('payments.get', z.object({ id: Id }), Payment),
  /** Staff confirm a payment of the manual provider (conflict `provider_confirms` for Stripe). */
  confirm: paymentsOp(
    'payments.confirm',
    z.object({ id: Id, actor: Actor, reference: z.string().optional() }),
    Payment,
  ),
  fail: paymentsOp('payments.fail', ByStaffWithReason, Payment),
  /**
   * A Stripe webhook as it arrived: the raw body and its `Stripe-Signature`. The payments service
   * verifies it with the webhook secret that only it holds (`forbidden` when it does not verify).
   */
  stripeWebhook: paymentsOp(
    'payments.stripe_webhook',
    z.object({ payload: z.string().max(512 * 1024), signature: z.string().max(4_096) }),
    z.object({ received: z.literal(true), payment_id: z.string().nullable() }),
  ),
  deadlines: paymentsOp('deadlines.list', Deadlines, DeadlineItems),
} as const;
