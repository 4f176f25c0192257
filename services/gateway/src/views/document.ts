import { Message, PaymentRequest, REQUEST_VIEWS, Request } from '@handoff/contracts';
import { z } from 'zod';

/**
 * The agents' read model (`GET /v1/request/{id}`): one JetStream KV entry per live request, keyed
 * by its id, holding what the read answers (the request, its newest messages, its approved
 * payment requests) and who may read it (owner and token hash), so that a read the replica's
 * cache misses is one lookup, not three services' queries. The gateway is its only writer.
 */
export const REQUEST_VIEWS_BUCKET = REQUEST_VIEWS.bucket;

/**
 * The most messages, and approved payment requests, a view holds. Every event rewrites a view
 * whole, so it must stay small: a request with more (the read shows up to 1,000 of each) keeps
 * only its owner in its view (`overflow`), and its reads take the services' path. Measured: with
 * views of up to 1,000 messages, the gateway spent 1.9 ms of CPU per message posted to a long
 * conversation (parsing, checking and writing the view again).
 */
export const VIEW_MESSAGES = 50;
export const VIEW_PAYMENTS = 50;
/** The most a view may weigh (its JSON); a heavier one overflows likewise. */
export const VIEW_MAX_BYTES = 64 * 1024;

/** Who owns a request and its token's SHA-256, as intake's `requests.authorize` answers. */
export const ViewOwner = z.object({ integration_id: z.string(), token_hash: z.string() });

export const RequestView = z.object({
  owner: ViewOwner,
  request: Request.loose(),
  /** The sequence of the event (or the read) the request was taken from. */
  request_sequence: z.number().int().nonnegative(),
  /** Oldest first, by id, as conversation lists them. */
  conversation: z.array(Message.loose()),
  conversation_has_more: z.boolean(),
  /** Approved payment requests (a final state), by id, as payments lists them. */
  payments: z.array(PaymentRequest.loose()),
  /** Every event of the request numbered 1 to `upto` is in the view. */
  upto: z.number().int().nonnegative(),
  /** Events above `upto` already in the view (events arrive out of order across services). */
  ahead: z.array(z.number().int().positive()),
  /** Too long to keep: only the owner answers from here, reads take the services' path. */
  overflow: z.literal(true).optional(),
});
export type RequestView = z.infer<typeof RequestView>;

/** What a view that outgrew its limits keeps: the owner, for the token check. */
export function overflowOf(view: RequestView): RequestView {
  return { ...view, conversation: [], conversation_has_more: false, payments: [], overflow: true };
}

/** Whether a read (or a view) holds more than a view may. */
export const outgrows = (read: { conversation: unknown[]; payments: unknown[] }) =>
  read.conversation.length > VIEW_MESSAGES || read.payments.length > VIEW_PAYMENTS;
export type ViewOwner = z.infer<typeof ViewOwner>;
