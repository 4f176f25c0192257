// Automatic routing: the provider profile the rules read, an offer and its response window, the
// decision the rules (or staff) made and why, a category's settings, and the staff request view.
import { z } from 'zod';
import { Timestamp } from './common.ts';
import { REQUEST_LIMITS, ROUTING_LIMITS } from './limits.ts';
import { Request } from './requests.ts';
import { streamUnder } from './subjects.ts';
import { languageTag, trimmedText } from './text.ts';

/** A language as a BCP 47 primary tag, optionally with a region: `en`, `de`, `pt-BR`. */
export const Language = languageTag();

export const Availability = z.enum(['available', 'away']).meta({
  description:
    '`available`: the rules may offer it requests. `away`: they pass it over (it keeps what it holds).',
});
export type Availability = z.infer<typeof Availability>;

const capacity = z
  .number()
  .int()
  .min(0)
  .max(ROUTING_LIMITS.capacity)
  .meta({
    description:
      'The most requests the provider holds at once: offered to it and not yet answered, or ' +
      'accepted and not yet completed or cancelled. 0 takes it out of automatic routing.',
  });

const languages = z
  .array(Language)
  .max(ROUTING_LIMITS.languages)
  .refine((list) => new Set(list).size === list.length, { message: 'languages must not repeat' })
  .meta({
    uniqueItems: true,
    description:
      'The languages the provider works in. Empty: any (the rules then never pass it over for a language).',
  });

/** What the rules read of a provider, set by staff (create, `PATCH`) and by the provider itself. */
export const ProviderRoutingFields = { capacity, languages, availability: Availability };

/** The provider's own part of its profile (`PATCH /v1/provider/me`): staff set the capacity. */
export const ProviderSelfPatch = z
  .strictObject({
    languages: languages.optional(),
    availability: Availability.optional(),
  })
  .refine((p) => Object.values(p).some((v) => v !== undefined), {
    message: 'give at least one field',
  })
  .meta({ minProperties: 1 });

/** A provider's record as the rules score it: its recent offers and jobs. */
export const RoutingScore = z.object({
  score: z
    .number()
    .min(0)
    .max(1)
    .meta({
      description:
        '0 to 1, from the most recent outcomes: 0.5 × offers accepted + 0.2 × answer speed + 0.3 × ' +
        'jobs completed (each 0.5 without history). A higher score takes its turn more often.',
    }),
  offers_accepted: z.number().int().min(0),
  offers_declined: z.number().int().min(0),
  offers_lapsed: z.number().int().min(0),
  median_response_seconds: z.number().min(0).nullable(),
  jobs_completed: z.number().int().min(0),
  jobs_cancelled: z.number().int().min(0),
});
export type RoutingScore = z.infer<typeof RoutingScore>;

export const OfferStatus = z.enum(['pending', 'accepted', 'declined', 'lapsed', 'withdrawn']);
export type OfferStatus = z.infer<typeof OfferStatus>;

/** One offer of a request to one provider. */
export const RoutingOffer = z.object({
  object: z.literal('routing_offer'),
  id: z.string(),
  provider_id: z.string(),
  status: OfferStatus,
  by: z.enum(['rules', 'staff']),
  offered_at: Timestamp,
  respond_by: Timestamp,
  decided_at: Timestamp.nullable(),
  reason: z
    .string()
    .nullable()
    .meta({ description: 'Why it was declined or withdrawn (the provider’s or staff’s words).' }),
});
export type RoutingOffer = z.infer<typeof RoutingOffer>;

/** The offer as its provider sees it on the request. */
export const ProviderOffer = RoutingOffer.pick({
  status: true,
  offered_at: true,
  respond_by: true,
  decided_at: true,
});

/** One provider the rules weighed, and why it was chosen or passed over. */
export const RoutingCandidate = z.object({
  provider_id: z.string(),
  name: z.string(),
  outcome: z.enum(['chosen', 'eligible', 'excluded']),
  reasons: z.array(z.string()).meta({
    description:
      'In plain words: what qualified it, its load, score and turn, or what excluded it.',
  }),
  load: z.number().int().min(0),
  capacity: z.number().int().min(0),
  score: z.number().min(0).max(1),
});
export type RoutingCandidate = z.infer<typeof RoutingCandidate>;

/** One decision: who chose, whom, and the candidates with their reasons. */
export const RoutingDecision = z.object({
  decided_at: Timestamp,
  by: z.enum(['rules', 'staff']),
  actor: z.string().meta({ description: '`system` for the rules, else the staff member.' }),
  provider_id: z
    .string()
    .nullable()
    .meta({ description: 'Whom it offered the request; null: no one.' }),
  summary: z.string(),
  candidates: z.array(RoutingCandidate),
  excluded: z.record(z.string(), z.number().int().min(0)).meta({
    description:
      'Providers of the category passed over, counted by reason (`suspended`, `away`, `at_capacity`, `language`, `already_offered`).',
  }),
});
export type RoutingDecision = z.infer<typeof RoutingDecision>;

export const AUTO_ROUTING_STATES = ['routing', 'offered', 'accepted', 'queued', 'manual'] as const;
export const AutoRoutingState = z.enum(AUTO_ROUTING_STATES).meta({
  description:
    '`routing`: the rules are choosing. `offered`: an offer waits for its provider. `accepted`: a ' +
    'provider accepted. `queued`: waiting for staff (`queue_reason` says why). `manual`: staff ' +
    'route this request by hand (a `PATCH` of its routing, or `stop`).',
});
export type AutoRoutingState = z.infer<typeof AutoRoutingState>;

export const QueueReason = z.enum([
  'no_category',
  'paused',
  'no_eligible_provider',
  'offers_exhausted',
]);
export type QueueReason = z.infer<typeof QueueReason>;

/** Where automatic routing stands on a request, for staff. */
export const AutoRouting = z.object({
  state: AutoRoutingState,
  queue_reason: QueueReason.nullable(),
  queue_detail: z.string().nullable().meta({ description: 'The queue reason in plain words.' }),
  offers_made: z.number().int().min(0),
  max_offers: z.number().int().min(1),
  offers: z.array(RoutingOffer).meta({ description: 'Oldest first; the latest 25.' }),
  decision: RoutingDecision.nullable().meta({ description: 'The latest decision.' }),
});
export type AutoRouting = z.infer<typeof AutoRouting>;

/** Who cancelled a request that its customer cancelled, and why (absent otherwise). */
export const RequestCancellation = z.object({
  by: z.literal('customer'),
  reason: z.string().nullable().meta({ description: 'The reason the agent gave, if any.' }),
  at: Timestamp,
});

/**
 * A request as staff read it: the agent's view, where automatic routing stands, and, when its
 * customer cancelled it, why.
 */
export const StaffRequest = Request.extend({
  automatic_routing: AutoRouting,
  cancellation: RequestCancellation.optional(),
});
export type StaffRequest = z.infer<typeof StaffRequest>;

/** `POST /v1/staff/requests/{id}/routing`: staff take a hand in a request's routing (audited). */
export const RoutingOverride = z.discriminatedUnion('action', [
  z.strictObject({
    action: z.literal('offer').meta({
      description:
        'Offer it to this provider now, whatever the rules say (capacity, pause, availability); a pending offer is withdrawn.',
    }),
    provider_id: z.string().max(64),
    reason: trimmedText(1_000),
  }),
  z.strictObject({
    action: z.literal('rerun').meta({
      description: 'Run the rules again from the start (a fresh count of offers).',
    }),
    reason: trimmedText(1_000),
  }),
  z.strictObject({
    action: z.literal('stop').meta({
      description: 'Stop automatic routing of this request: a pending offer is withdrawn.',
    }),
    reason: trimmedText(1_000),
  }),
]);
export type RoutingOverride = z.infer<typeof RoutingOverride>;

/** `POST /v1/provider/requests/{id}/offer/decline`. */
export const OfferDecline = z.strictObject({ reason: trimmedText(1_000).optional() });

/** A category's routing settings and what waits in it. */
export const CategoryRouting = z.object({
  object: z.literal('category_routing'),
  category: z.string(),
  paused: z.boolean(),
  pause_reason: z.string().nullable(),
  paused_by: z.string().nullable(),
  paused_at: Timestamp.nullable(),
  max_offers: z.number().int().min(1),
  response_seconds: z.number().int().min(1).meta({
    description: 'How long a provider has to accept or decline an offer before it lapses.',
  }),
  updated_at: Timestamp.nullable(),
});
export type CategoryRouting = z.infer<typeof CategoryRouting>;

export const CategoryRoutingPatch = z
  .strictObject({
    paused: z.boolean().optional(),
    reason: trimmedText(1_000).optional(),
    max_offers: z.number().int().min(1).max(ROUTING_LIMITS.maxOffers).optional(),
    response_seconds: z
      .number()
      .int()
      .min(ROUTING_LIMITS.minResponseSeconds)
      .max(ROUTING_LIMITS.maxResponseSeconds)
      .optional(),
  })
  .refine(
    (p) => p.paused !== undefined || p.max_offers !== undefined || p.response_seconds !== undefined,
    { message: 'give paused, max_offers or response_seconds' },
  )
  .meta({
    anyOf: [
      { required: ['paused'] },
      { required: ['max_offers'] },
      { required: ['response_seconds'] },
    ],
  });
export type CategoryRoutingPatch = z.infer<typeof CategoryRoutingPatch>;

/** A category as it stands: settings and counts, for the staff console. */
export const CategoryRoutingSummary = CategoryRouting.extend({
  providers: z.number().int().min(0),
  available_providers: z.number().int().min(0),
  queued_requests: z.number().int().min(0),
});

export const CategoryParam = z
  .string()
  .max(REQUEST_LIMITS.category)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'a slug such as web-development');

/**
 * Intake's own work queue of routing: a request to route now, an offer whose response window
 * ends. An offer's lapse waits in the server (a delayed nak) until due, so nothing polls requests.
 */
export const ROUTING_STREAM = streamUnder('HANDOFF_ROUTING', 'routing');
