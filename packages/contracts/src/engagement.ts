import { z } from 'zod';
import { livemodeField } from './test-mode.ts';
import { FileIds, FileMeta } from './files.ts';
import { KeyStatus } from './access.ts';
import { Timestamp } from './common.ts';
import {
  DELIVERABLE_MACHINE,
  DISPUTE_MACHINE,
  JOB_MACHINE,
  MILESTONE_MACHINE,
  PAYMENT_MACHINE,
  PROPOSAL_MACHINE,
  STATE_MACHINES,
} from './lifecycle.ts';
import { amountPrecisionSchema, CurrencyCode } from './money.ts';
import { ENGAGEMENT_LIMITS, REQUEST_LIMITS, ROUTING_LIMITS } from './limits.ts';
import { RequestStatus } from './requests.ts';
import { ProviderOffer, ProviderRoutingFields, RoutingScore } from './routing.ts';
import { emailAddress, httpUrl, trimmedText } from './text.ts';

const slug = z
  .string()
  .max(REQUEST_LIMITS.category)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'a slug such as web-development');
const money = z.number().positive().max(ENGAGEMENT_LIMITS.amount);

// --- Providers -------------------------------------------------------------------------------

/** Provider credentials: `hpk_live_` + 30 base62 + 6 base62 of the CRC32 of what precedes them. */
export const PROVIDER_KEY_PREFIX = 'hpk_live_';
export const PROVIDER_KEY_PATTERN = /^hpk_live_[0-9A-Za-z]{36}$/;

export const ProviderStatus = z.enum(['active', 'suspended']);

export const ProviderCreate = z.strictObject({
  name: trimmedText(ENGAGEMENT_LIMITS.name),
  email: emailAddress(REQUEST_LIMITS.email),
  categories: z
    .array(slug)
    .min(1)
    .max(ENGAGEMENT_LIMITS.categories)
    .refine((list) => new Set(list).size === list.length, {
      message: 'categories must not repeat',
    })
    .meta({ uniqueItems: true }),
  capacity: ProviderRoutingFields.capacity.optional().meta({
    description: `${ProviderRoutingFields.capacity.description ?? ''} ${ROUTING_LIMITS.defaultCapacity} when not given.`,
  }),
  languages: ProviderRoutingFields.languages.optional(),
  availability: ProviderRoutingFields.availability.optional(),
});

export const ProviderPatch = z
  .strictObject({
    name: ProviderCreate.shape.name.optional(),
    email: ProviderCreate.shape.email.optional(),
    categories: ProviderCreate.shape.categories.optional(),
    status: ProviderStatus.optional(),
    capacity: ProviderRoutingFields.capacity.optional(),
    languages: ProviderRoutingFields.languages.optional(),
    availability: ProviderRoutingFields.availability.optional(),
  })
  .refine((p) => Object.values(p).some((v) => v !== undefined), {
    message: 'give at least one field',
  })
  .meta({ minProperties: 1 });

export const ProviderKeySummary = z.object({
  object: z.literal('provider_key'),
  id: z.string(),
  provider_id: z.string(),
  prefix: z.string(),
  last4: z.string(),
  status: KeyStatus,
  created_at: Timestamp,
  expires_at: Timestamp,
  revoked_at: Timestamp.nullable(),
});

export const Provider = z.object({
  object: z.literal('provider'),
  id: z.string(),
  name: z.string(),
  email: z.string(),
  categories: z.array(z.string()),
  status: ProviderStatus,
  capacity: z.number().int().min(0),
  languages: z.array(z.string()),
  availability: ProviderRoutingFields.availability,
  load: z.number().int().min(0).meta({
    description: 'The requests it holds now (offered and unanswered, or accepted and open).',
  }),
  routing_score: RoutingScore,
  created_at: Timestamp,
  updated_at: Timestamp,
  keys: z.array(ProviderKeySummary),
});
export type Provider = z.infer<typeof Provider>;

export const ProviderKeyCreate = z.strictObject({
  expires_in_days: z.number().int().min(1).max(365).optional(),
});

/** A provider key as issued: the only time the secret is shown. */
export const IssuedProviderKey = z.object({
  object: z.literal('provider_key'),
  api_key: z.string().regex(PROVIDER_KEY_PATTERN),
  key_id: z.string(),
  provider_id: z.string(),
  prefix: z.string(),
  last4: z.string(),
  created_at: Timestamp,
  expires_at: Timestamp,
});

/** What the gateway learns when it checks a provider key (by its SHA-256). */
export const ProviderKeyVerification = z.object({
  key_id: z.string(),
  provider_id: z.string(),
  provider_status: ProviderStatus,
  status: KeyStatus,
  expires_at: Timestamp,
});
export type ProviderKeyVerification = z.infer<typeof ProviderKeyVerification>;

/** Why a provider sees a request. */
export const ProviderRelation = z.enum(['routed', 'marketplace', 'engaged']);

/**
 * A request as a provider reads it. The customer's contact details are there only when the
 * customer gave `contact_permission`; otherwise every `customer` field is `null`.
 */
export const ProviderRequest = z.object({
  object: z.literal('request'),
  id: z.string(),
  status: RequestStatus,
  relation: ProviderRelation,
  message: z.string(),
  category: z.string().nullable(),
  subject: z.string().nullable(),
  contact_permission: z.boolean(),
  customer: z.object({
    name: z.string().nullable(),
    email: z.string().nullable(),
    company: z.string().nullable(),
    website: z.string().nullable(),
  }),
  budget_min: z.number().nullable(),
  budget_max: z.number().nullable(),
  language: z.string().nullable(),
  offer: ProviderOffer.nullable().meta({
    description:
      'Extension: the request’s offer to this provider, when it had one. A `pending` offer waits ' +
      'for `POST /v1/provider/requests/{id}/offer/accept` (or `/decline`) before `respond_by`; ' +
      'after that it lapses and the request moves on to another provider.',
  }),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type ProviderRequest = z.infer<typeof ProviderRequest>;

/** The calling provider as it sees itself, and the key it called with. */
export const ProviderMe = Provider.pick({
  object: true,
  id: true,
  name: true,
  categories: true,
  capacity: true,
  languages: true,
  availability: true,
  load: true,
}).extend({ key_id: z.string(), expires_at: Timestamp });

// --- Proposals and jobs ----------------------------------------------------------------------

/**
 * When a resource of the engagement must move next (`deadline_at`, null outside a waiting
 * state of its machine), and when it was created and last changed.
 */
const TIMES = {
  deadline_at: Timestamp.nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
};

const withPrecision = <S extends z.ZodType>(schema: S, itemsOf?: string) =>
  schema.meta({ allOf: amountPrecisionSchema(itemsOf ? { itemsOf } : {}) });

export const ProposalPlanItem = z.strictObject({
  title: trimmedText(ENGAGEMENT_LIMITS.title),
  description: trimmedText(ENGAGEMENT_LIMITS.note).optional(),
  amount: money.optional(),
  due_in_days: z.number().int().min(1).max(730).optional(),
});

export const ProposalCreate = withPrecision(
  z.strictObject({
    message: trimmedText(ENGAGEMENT_LIMITS.text),
    amount: money,
    currency: CurrencyCode.optional(),
    estimated_days: z.number().int().min(1).max(730).optional(),
    milestones: z.array(ProposalPlanItem).max(ENGAGEMENT_LIMITS.plan_milestones).optional(),
  }),
  'milestones',
);
export type ProposalCreate = z.infer<typeof ProposalCreate>;

export const ProposalStatus = z.enum(PROPOSAL_MACHINE.states);

export const Proposal = z.object({
  object: z.literal('proposal'),
  ...livemodeField,
  id: z.string(),
  request_id: z.string(),
  provider_id: z.string(),
  provider_name: z.string(),
  message: z.string(),
  amount: z.number(),
  currency: z.string(),
  estimated_days: z.number().int().nullable(),
  milestones: z.array(
    z.object({
      title: z.string(),
      description: z.string().nullable(),
      amount: z.number().nullable(),
      due_in_days: z.number().int().nullable(),
    }),
  ),
  status: ProposalStatus,
  /** The job the acceptance started. */
  job_id: z.string().nullable(),
  decline_reason: z.string().nullable(),
  ...TIMES,
  decided_at: Timestamp.nullable(),
});
export type Proposal = z.infer<typeof Proposal>;

export const ProposalDecline = z.strictObject({
  reason: trimmedText(ENGAGEMENT_LIMITS.reason).optional(),
});

export const JobStatus = z.enum(JOB_MACHINE.states);

export const Job = z.object({
  object: z.literal('job'),
  ...livemodeField,
  id: z.string(),
  request_id: z.string(),
  proposal_id: z.string(),
  provider_id: z.string(),
  amount: z.number(),
  currency: z.string(),
  status: JobStatus,
  cancel_reason: z.string().nullable(),
  ...TIMES,
  completed_at: Timestamp.nullable(),
});
export type Job = z.infer<typeof Job>;

/** `proposal.accepted`'s answer to the caller: the accepted proposal and the job it started. */
export const ProposalAccepted = z.object({ proposal: Proposal, job: Job });

export const ReasonBody = z.strictObject({ reason: trimmedText(ENGAGEMENT_LIMITS.reason) });

// --- Milestones and deliverables -------------------------------------------------------------

export const MilestoneCreate = withPrecision(
  z.strictObject({
    title: trimmedText(ENGAGEMENT_LIMITS.title),
    description: trimmedText(ENGAGEMENT_LIMITS.note).optional(),
    amount: money.optional(),
    currency: CurrencyCode.optional(),
    due_at: Timestamp.optional(),
  }),
);
export type MilestoneCreate = z.infer<typeof MilestoneCreate>;

export const MilestoneStatus = z.enum(MILESTONE_MACHINE.states);

export const MilestoneProgress = z.strictObject({
  progress: z.number().int().min(0).max(100),
  note: trimmedText(ENGAGEMENT_LIMITS.note).optional(),
});

export const MilestoneSubmit = z.strictObject({
  note: trimmedText(ENGAGEMENT_LIMITS.note).optional(),
});

export const MilestoneChangeRequest = ReasonBody;

export const Milestone = z.object({
  object: z.literal('milestone'),
  ...livemodeField,
  id: z.string(),
  request_id: z.string(),
  job_id: z.string(),
  provider_id: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  amount: z.number().nullable(),
  currency: z.string().nullable(),
  status: MilestoneStatus,
  progress: z.number().int(),
  progress_note: z.string().nullable(),
  /** How many times it has been submitted for review. */
  revision: z.number().int(),
  submission_note: z.string().nullable(),
  /** The latest change request's reason, while changes are requested. */
  change_request_reason: z.string().nullable(),
  approved_by: z.enum(['customer', 'deadline']).nullable(),
  due_at: Timestamp.nullable(),
  ...TIMES,
  submitted_at: Timestamp.nullable(),
  approved_at: Timestamp.nullable(),
});
export type Milestone = z.infer<typeof Milestone>;

export const DeliverableCreate = z.strictObject({
  title: trimmedText(ENGAGEMENT_LIMITS.title),
  /** A link to the work, when it lives elsewhere. */
  url: httpUrl(ENGAGEMENT_LIMITS.url).optional(),
  description: trimmedText(ENGAGEMENT_LIMITS.text).optional(),
  /** Files uploaded for this milestone first (`POST /v1/provider/milestones/{id}/files`). */
  files: FileIds.optional(),
});

export const DeliverableStatus = z.enum(DELIVERABLE_MACHINE.states);

export const Deliverable = z.object({
  object: z.literal('deliverable'),
  ...livemodeField,
  id: z.string(),
  request_id: z.string(),
  job_id: z.string(),
  milestone_id: z.string(),
  provider_id: z.string(),
  title: z.string(),
  /** Null for a deliverable without a link (its files, or its title and description, say it). */
  url: z.string().nullable(),
  description: z.string().nullable(),
  /** Present when the deliverable has files: their metadata, never their bytes or a URL. */
  files: z.array(FileMeta).optional(),
  status: DeliverableStatus,
  ...TIMES,
});
export type Deliverable = z.infer<typeof Deliverable>;

// --- Disputes --------------------------------------------------------------------------------

export const DisputeKind = z.enum(['dispute', 'refund']);

export const DisputeCreate = withPrecision(
  z.strictObject({
    kind: DisputeKind,
    reason: trimmedText(ENGAGEMENT_LIMITS.text),
    milestone_id: z.string().max(64).optional(),
    /** The amount a refund case asks for. */
    amount: money.optional(),
    currency: CurrencyCode.optional(),
  }),
);
export type DisputeCreate = z.infer<typeof DisputeCreate>;

export const DisputeComment = z.strictObject({
  message: trimmedText(ENGAGEMENT_LIMITS.text),
});

export const DisputeOutcome = z.enum(['customer', 'provider', 'split']);

const resolutionReason = trimmedText(ENGAGEMENT_LIMITS.reason);

/** How staff close a case; a split names the customer's share in percent. */
export const DisputeResolution = z.discriminatedUnion('outcome', [
  z.strictObject({ outcome: z.literal('customer'), reason: resolutionReason }),
  z.strictObject({ outcome: z.literal('provider'), reason: resolutionReason }),
  z.strictObject({
    outcome: z.literal('split'),
    reason: resolutionReason,
    /** The customer's share in percent. */
    customer_share_percent: z.number().int().min(1).max(99),
  }),
]);
export type DisputeResolution = z.infer<typeof DisputeResolution>;

export const DisputeStatus = z.enum(DISPUTE_MACHINE.states);

export const Dispute = z.object({
  object: z.literal('dispute'),
  ...livemodeField,
  id: z.string(),
  request_id: z.string(),
  job_id: z.string().nullable(),
  milestone_id: z.string().nullable(),
  provider_id: z.string().nullable(),
  kind: DisputeKind,
  reason: z.string(),
  amount: z.number().nullable(),
  currency: z.string().nullable(),
  status: DisputeStatus,
  comments: z.array(
    z.object({
      author_role: z.enum(['customer', 'provider', 'staff']),
      message: z.string(),
      created_at: Timestamp,
    }),
  ),
  resolution: z
    .object({
      outcome: DisputeOutcome,
      reason: z.string(),
      customer_share_percent: z.number().int().nullable(),
      resolved_at: Timestamp,
    })
    .nullable(),
  ...TIMES,
});
export type Dispute = z.infer<typeof Dispute>;

// --- Payments --------------------------------------------------------------------------------

/**
 * The payment processors, under their public name: `PAYMENT_PROVIDER` and a payment's `provider`
 * (in the payments service's code they are processors; a provider is a human service provider).
 */
export const PAYMENT_PROVIDERS = ['manual', 'stripe'] as const;
/**
 * What a payment's `provider` can say: a configured processor, or `test` for a test request's
 * payment, which no processor charges (test mode settles it; never configured by itself).
 */
export const PAYMENT_PROCESSORS = [...PAYMENT_PROVIDERS, 'test'] as const;
export const PaymentProviderName = z.enum(PAYMENT_PROCESSORS);
export const PaymentStatus = z.enum(PAYMENT_MACHINE.states);

export const Payment = z.object({
  object: z.literal('payment'),
  ...livemodeField,
  id: z.string(),
  payment_request_id: z.string(),
  request_id: z.string(),
  amount: z.number(),
  currency: z.string(),
  /** The payment processor that charges it (public name `provider`). */
  provider: PaymentProviderName,
  /** The payment processor's own id (a Stripe PaymentIntent `pi_…`, or staff's reference). */
  provider_reference: z.string().nullable(),
  status: PaymentStatus,
  failure_reason: z.string().nullable(),
  ...TIMES,
  completed_at: Timestamp.nullable(),
});
export type Payment = z.infer<typeof Payment>;

/**
 * A payment as its agent reads it (`GET /v1/request/{id}/payments`): its outcome, without the
 * payment processor's internals (which processor, its reference), which are staff's.
 */
export const RequestPayment = Payment.omit({ provider: true, provider_reference: true });
export type RequestPayment = z.infer<typeof RequestPayment>;

export const PaymentConfirm = z.strictObject({
  reference: trimmedText(200).optional(),
});

// --- Deadlines -------------------------------------------------------------------------------

/**
 * What waits on a deadline: a resource of a state machine, or (intake) a request nobody routed
 * yet (`request`) or a marketplace publication staff have not reviewed (`marketplace_review`).
 */
export const DeadlineResource = z.enum([
  'request',
  'marketplace_review',
  'routing_offer',
  ...STATE_MACHINES.map((m) => m.resource),
]);

/**
 * How long staff have for a request's own waits (intake): routing a submitted request nobody
 * routed yet, and reviewing a marketplace publication. Nothing happens by itself when they pass;
 * the items show as overdue in `GET /v1/staff/deadlines`.
 */
export const REQUEST_WAITS = {
  routing: { days: 1, state: 'submitted', waiting_on: 'staff' },
  marketplace_review: { days: 2, state: 'pending_review', waiting_on: 'staff' },
} as const;

/** One thing waiting on somebody, with the time it runs out (staff's `GET /v1/staff/deadlines`). */
export const DeadlineItem = z.object({
  object: z.literal('deadline'),
  resource: DeadlineResource,
  id: z.string(),
  request_id: z.string(),
  state: z.string(),
  waiting_on: z.string(),
  deadline_at: Timestamp,
  overdue: z.boolean(),
  /** What happens when `deadline_at` passes. */
  consequence: z.string(),
});
export type DeadlineItem = z.infer<typeof DeadlineItem>;

export const DeadlineQuery = z.strictObject({
  /** Only items whose deadline falls before this time. */
  before: Timestamp.optional(),
  overdue: z.enum(['true', 'false']).optional(),
  limit: z.preprocess(
    (v) => (typeof v === 'string' && /^[0-9]+$/.test(v) ? Number(v) : v),
    z.number().int().min(1).max(500).default(100),
  ),
});

export const DeadlineList = z.object({
  object: z.literal('list'),
  data: z.array(DeadlineItem),
  has_more: z.boolean(),
});

/** What a timeline entry is (staff's `GET /v1/staff/requests/{id}/timeline`). */
export const TimelineKind = z.enum([
  'message',
  'proposal',
  'job',
  'milestone',
  'deliverable',
  'payment_request',
  'payment',
  'dispute',
  'event',
]);
export type TimelineKind = z.infer<typeof TimelineKind>;

/** One thing that happened on a request, oldest first in the timeline. */
export const TimelineItem = z.object({
  object: z.literal('timeline_item'),
  kind: TimelineKind,
  /** The resource's id (for an event, the event's `evt_` id). */
  id: z.string(),
  /** When it was created (for an event, its `timestamp`). */
  at: Timestamp,
  /** An event's place in the request's sequence; null for every other kind. */
  sequence: z.number().int().positive().nullable(),
  /** The resource's current status, or (for an event) its type; null for a message. */
  status: z.string().nullable(),
  /** A one-line summary for people (at most 200 characters). */
  summary: z.string(),
});
export type TimelineItem = z.infer<typeof TimelineItem>;

export const Timeline = z.object({
  object: z.literal('list'),
  data: z.array(TimelineItem),
  /** True when some kind had more than the newest 100 entries, which were left out. */
  has_more: z.boolean(),
});
export type Timeline = z.infer<typeof Timeline>;
