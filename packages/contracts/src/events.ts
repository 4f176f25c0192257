import { z } from 'zod';

/** The 15 event kinds of spec §6, exactly as named there. */
export const EVENT_TYPES = [
  'request.created',
  'request.updated',
  'message.created',
  'proposal.received',
  'proposal.accepted',
  'payment.requested',
  'payment.completed',
  'milestone.created',
  'milestone.updated',
  'milestone.submitted',
  'milestone.approved',
  'deliverable.created',
  'dispute.created',
  'dispute.updated',
  'job.completed',
] as const;

/**
 * Event kinds this service adds to spec §6 (documented extensions): outcomes the spec has no
 * kind for, so that an agent hears of every change of its payment requests and payments, and a
 * provider of the decline of its proposal. They live in the spec's namespaces and use the same
 * envelope.
 */
export const EXTENSION_EVENT_TYPES = [
  'payment.request_rejected',
  'payment.request_expired',
  'payment.failed',
  'proposal.declined',
] as const;

/** What each extension kind means, for AsyncAPI and the webhook docs. */
export const EXTENSION_EVENT_MEANINGS: Record<(typeof EXTENSION_EVENT_TYPES)[number], string> = {
  'payment.request_rejected':
    'Extension: a payment request was rejected (by staff, or because its request closed); `object.rejection_reason` says why.',
  'payment.request_expired':
    'Extension: a payment request expired because staff did not decide before its deadline.',
  'payment.failed': 'Extension: a payment failed; `object.failure_reason` says why.',
  'proposal.declined':
    'Extension: a proposal was declined (by the customer, or because the customer accepted another proposal or the request closed); `object.decline_reason` says why when one was given.',
};

/** Every kind an envelope may carry: the spec's 15, then the extensions. */
export const ALL_EVENT_TYPES = [...EVENT_TYPES, ...EXTENSION_EVENT_TYPES] as const;
export const EventType = z.enum(ALL_EVENT_TYPES);
export type EventType = z.infer<typeof EventType>;

/** The envelope, the same on the bus and in webhooks (conventions §2). */
export const EventEnvelope = z.object({
  id: z.string().regex(/^evt_/),
  type: EventType,
  timestamp: z.iso.datetime(),
  livemode: z
    .boolean()
    .default(true)
    .meta({
      description:
        'Extension: false for an event of a test request (made with a `hk_test_` key); test ' +
        'events go only to endpoints registered with a test key.',
    }),
  data: z.object({
    request_id: z.string().regex(/^req_/),
    sequence: z.number().int().positive(),
    object: z.record(z.string(), z.unknown()),
  }),
});
export type EventEnvelope = z.infer<typeof EventEnvelope>;

/**
 * The NATS header with the integration that owns the event's request, set by the service that
 * publishes the event: the webhook dispatcher knows whose endpoints to deliver to without asking
 * intake. Only services may publish events (NATS permissions), so it is trusted as the payload is.
 * Events published without it (older ones) are looked up.
 */
export const EVENT_OWNER_HEADER = 'Handoff-Integration-Id';

/** A request's entry in `HANDOFF_SEQUENCES`: the last number handed out and its latest events. */
export const SequenceState = z.object({
  last: z.number().int().nonnegative(),
  /** [event id, sequence], oldest first, at most `SEQUENCES_BUCKET.recentEvents` of them. */
  recent: z.array(z.tuple([z.string(), z.number().int().positive()])),
  /** False for a test request: every event of it says `livemode: false`. Absent: live. */
  livemode: z.boolean().optional(),
});
export type SequenceState = z.infer<typeof SequenceState>;
