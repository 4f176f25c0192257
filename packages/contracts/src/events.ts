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
export const EventType = z.enum(EVENT_TYPES);
export type EventType = z.infer<typeof EventType>;

/** The envelope, the same on the bus and in webhooks (conventions §2). */
export const EventEnvelope = z.object({
  id: z.string().regex(/^evt_/),
  type: EventType,
  timestamp: z.iso.datetime(),
  data: z.object({
    request_id: z.string().regex(/^req_/),
    sequence: z.number().int().positive(),
    object: z.record(z.string(), z.unknown()),
  }),
});
export type EventEnvelope = z.infer<typeof EventEnvelope>;

/** A request's entry in `HANDOFF_SEQUENCES`: the last number handed out and its latest events. */
export const SequenceState = z.object({
  last: z.number().int().nonnegative(),
  /** [event id, sequence], oldest first, at most `SEQUENCES_BUCKET.recentEvents` of them. */
  recent: z.array(z.tuple([z.string(), z.number().int().positive()])),
});
export type SequenceState = z.infer<typeof SequenceState>;
