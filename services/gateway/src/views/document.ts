import { Message, PaymentRequest, REQUEST_VIEWS, Request } from '@handoff/contracts';
import { z } from 'zod';

/**
 * The agents' read model (`GET /v1/request/{id}`): one JetStream KV entry per live request, keyed
 * by its id, holding what the read answers (the request, its newest messages, its approved
 * payment requests) and who may read it (owner and token hash), so that a read the replica's
 * cache misses is one lookup, not three services' queries. The gateway is its only writer.
 */
export const REQUEST_VIEWS_BUCKET = REQUEST_VIEWS.bucket;

/** The conversation's newest messages a view holds: as many as the read shows. */
export const VIEW_MESSAGES = 1_000;
/** The approved payment requests a view holds: as many as the read shows. */
export const VIEW_PAYMENTS = 1_000;
/**
 * The most a view may weigh (its JSON). A request whose read is larger (a long conversation of
 * long messages) has no view: every event would rewrite it whole, so its reads take the services'
 * path instead.
 */
export const VIEW_MAX_BYTES = 256 * 1024;

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
});
export type RequestView = z.infer<typeof RequestView>;
export type ViewOwner = z.infer<typeof ViewOwner>;
