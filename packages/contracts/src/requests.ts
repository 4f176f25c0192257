import { z } from 'zod';
import { FileIds, FileMeta } from './files.ts';
import { amountPrecisionSchema, CurrencyCode } from './money.ts';
import { Timestamp } from './common.ts';
import { idPattern } from './ids.ts';
import { REQUEST_LIMITS } from './limits.ts';
import { livemodeField, TestScenario } from './test-mode.ts';
import { emailAddress, httpUrl, languageTag, trimmedText } from './text.ts';

const budget = z.number().min(0).max(REQUEST_LIMITS.budget);

/** Spec 2.1's fields. Unknown fields are refused. */
export const RequestCreateFields = z.strictObject({
  message: trimmedText(REQUEST_LIMITS.message),
  category: z
    .string()
    .max(REQUEST_LIMITS.category)
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'a slug such as web-development')
    .optional(),
  name: trimmedText(REQUEST_LIMITS.name).optional(),
  email: emailAddress(REQUEST_LIMITS.email).optional(),
  company: trimmedText(REQUEST_LIMITS.company).optional(),
  website: httpUrl(REQUEST_LIMITS.website).optional(),
  subject: trimmedText(REQUEST_LIMITS.subject).optional(),
  contact_permission: z.boolean().optional(),
  marketplace_opt_in: z.boolean().optional(),
  budget_min: budget.optional(),
  budget_max: budget.optional(),
  language: languageTag()
    .optional()
    .meta({
      description:
        'Extension (not in spec 1.0.2): the language the customer writes in. Automatic routing ' +
        'offers the request only to providers who work in it (or name no languages).',
    }),
  test_scenario: TestScenario.optional().meta({
    description:
      'Extension, test mode only (a `hk_test_` key; a live key is refused): what the simulated ' +
      'provider does with the request. Without it, a scenario named in `message` is used, else ' +
      '`happy_path`. Each scenario’s events are listed in docs/test-mode.md.',
  }),
  test_clock: z
    .string()
    .regex(idPattern('clk'), 'a test clock id (`clk_…`)')
    .optional()
    .meta({
      description:
        'Extension, test mode only: the test clock (`POST /v1/test-clocks`) the request runs on; ' +
        'advancing the clock fires its deadlines.',
    }),
});

/** The cross-field rule of a create payload: a budget range must not be upside down. */
export function withBudgetOrder<
  S extends z.ZodType<{ budget_min?: number | undefined; budget_max?: number | undefined }>,
>(schema: S) {
  return schema
    .refine(
      (r) =>
        r.budget_min === undefined || r.budget_max === undefined || r.budget_min <= r.budget_max,
      { message: 'budget_min must not be above budget_max', path: ['budget_min'] },
    )
    .meta({ description: 'When both are given, `budget_min` must not be above `budget_max`.' });
}

/** Spec 2.1: the create payload (the gateway narrows `category` to the deployment's list). */
export const RequestCreate = withBudgetOrder(RequestCreateFields);
export type RequestCreate = z.infer<typeof RequestCreate>;

/** The request's states; REQUEST_MACHINE (lifecycle.ts) says how it moves between them. */
export const REQUEST_STATUSES = [
  'submitted',
  'routed',
  'in_progress',
  'completed',
  'cancelled',
] as const;
export const RequestStatus = z.enum(REQUEST_STATUSES);
export type RequestStatus = z.infer<typeof RequestStatus>;

/** The conflict code (409) of an action that a closed request refuses. */
export const REQUEST_CLOSED = 'request_closed';
/** The detail of that conflict, naming the request's state. */
export const requestClosedDetail = (status: RequestStatus): string =>
  `The request is ${status}; a ${status} request takes no more messages, proposals or payments.`;

export const MarketplaceReview = z.enum([
  'not_requested',
  'pending_review',
  'approved',
  'rejected',
]);
export type MarketplaceReview = z.infer<typeof MarketplaceReview>;

export const Routing = z.object({
  mode: z.enum(['unassigned', 'direct', 'marketplace']),
  provider_ids: z.array(z.string().max(64)).max(50),
});
export type Routing = z.infer<typeof Routing>;

export const Request = z.object({
  object: z.literal('request'),
  id: z.string(),
  status: RequestStatus,
  routing: Routing,
  message: z.string(),
  category: z.string().nullable(),
  subject: z.string().nullable(),
  customer: z.object({
    name: z.string().nullable(),
    email: z.string().nullable(),
    company: z.string().nullable(),
    website: z.string().nullable(),
  }),
  contact_permission: z.boolean(),
  marketplace: z.object({
    opted_in: z.boolean(),
    review: MarketplaceReview,
    reason: z.string().nullable(),
  }),
  budget_min: z.number().nullable(),
  budget_max: z.number().nullable(),
  language: z
    .string()
    .nullable()
    .meta({ description: 'Extension (not in spec 1.0.2): the customer’s language, when given.' }),
  engaged_provider_id: z
    .string()
    .nullable()
    .meta({
      description:
        'Extension (not in spec 1.0.2): the provider whose proposal the customer accepted, or ' +
        'null while no provider is engaged.',
    }),
  livemode: z.boolean().meta({
    description:
      'Extension: false for a request made with a test key (`hk_test_…`), which only the ' +
      'simulated provider answers.',
  }),
  test_scenario: TestScenario.nullable().meta({
    description: 'Extension: the scenario a test request runs; null on a live request.',
  }),
  test_clock: z.string().nullable().meta({
    description: 'Extension: the test clock the request runs on, if any; null on a live request.',
  }),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Request = z.infer<typeof Request>;

/** The create answer: the request and its token, which is never shown again. */
export const RequestCreated = Request.extend({ request_token: z.string() });

export const AuthorRole = z.enum(['customer', 'agent', 'provider', 'staff']);

export const MessageCreate = z.strictObject({
  message: trimmedText(REQUEST_LIMITS.message),
  /** Files the sender uploaded to the request's conversation first (docs/files.md). */
  attachments: FileIds.optional(),
});

export const Message = z.object({
  object: z.literal('message'),
  ...livemodeField,
  id: z.string(),
  request_id: z.string(),
  author_role: AuthorRole,
  message: z.string(),
  /** Present when the message has files: their metadata, never their bytes or a URL. */
  attachments: z.array(FileMeta).optional(),
  created_at: Timestamp,
});
export type Message = z.infer<typeof Message>;

/**
 * A message as a provider reads it: the agent's `Message` and whether this provider wrote it.
 * The writing provider's id stays with the conversation service; no one else is told it.
 */
export const ProviderMessage = Message.extend({
  mine: z.boolean().meta({
    description:
      'True when the calling provider wrote the message; false for every other author, another ' +
      'provider of the request included, and for provider messages stored before authors were kept.',
  }),
});
export type ProviderMessage = z.infer<typeof ProviderMessage>;

/** The gateway refuses an amount finer than the currency's smallest unit (`fitsCurrency`). */
export const PaymentRequestCreate = z
  .strictObject({
    amount: z.number().positive().max(1_000_000_000),
    description: trimmedText(2_000),
    currency: CurrencyCode.optional(),
    reference: trimmedText(200).optional(),
  })
  .meta({ allOf: amountPrecisionSchema() });
export type PaymentRequestCreate = z.infer<typeof PaymentRequestCreate>;

export const PaymentRequestStatus = z.enum(['pending_approval', 'approved', 'rejected', 'expired']);

export const PaymentRequest = z.object({
  object: z.literal('payment_request'),
  ...livemodeField,
  id: z.string(),
  request_id: z.string(),
  amount: z.number(),
  currency: z.string(),
  description: z.string(),
  reference: z.string().nullable(),
  status: PaymentRequestStatus,
  rejection_reason: z.string().nullable(),
  created_at: Timestamp,
  decided_at: Timestamp.nullable(),
});
export type PaymentRequest = z.infer<typeof PaymentRequest>;

/**
 * `GET /v1/request/{id}`: the request, its conversation in order (the newest 1,000 messages),
 * approved payment requests.
 */
export const RequestDetail = Request.extend({
  conversation: z.array(Message).meta({
    description:
      'The conversation, oldest first: at most its newest 1,000 messages (see `conversation_has_more`).',
  }),
  conversation_has_more: z.boolean().meta({
    description:
      'Extension (not in spec 1.0.2): true when older messages were left out of `conversation`; ' +
      'page through all of them with `GET /v1/request/{id}/messages`.',
  }),
  payments: z.array(PaymentRequest),
});

export const RequestPatch = z
  .strictObject({
    status: RequestStatus.optional(),
    // Closed like the rest of the body: an unknown member is refused, never dropped unseen (the
    // gateway refuses NUL in any value before the schema, which an open object did not promise).
    routing: z.strictObject(Routing.shape).optional(),
    reason: trimmedText(1_000).optional(),
  })
  .refine((p) => p.status !== undefined || p.routing !== undefined, {
    message: 'give status, routing or both',
  })
  .meta({ anyOf: [{ required: ['status'] }, { required: ['routing'] }] });

/**
 * `POST /v1/request/{id}/cancel`: the customer withdraws its request while no provider is engaged.
 * The same bound as staff's reasons.
 */
export const RequestCancel = z.strictObject({
  reason: trimmedText(1_000).optional().meta({
    description:
      'Why the customer cancels it: kept with the request for staff (`cancellation` in their read and its audit entry).',
  }),
});
export type RequestCancel = z.infer<typeof RequestCancel>;

export const MarketplaceDecision = z.strictObject({
  decision: z.enum(['approved', 'rejected']),
  reason: trimmedText(1_000).optional(),
});

export const PaymentDecision = z.strictObject({
  decision: z.enum(['approved', 'rejected']),
  reason: trimmedText(1_000).optional(),
});
