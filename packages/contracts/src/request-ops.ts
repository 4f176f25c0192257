import { z } from 'zod';
import { BusPage, listOf, Sha256Hex, StaffAction } from './common.ts';
import { conversationOp, intakeOp, paymentsOp } from './service-ops.ts';
import {
  AuthorRole,
  MarketplaceDecision,
  Message,
  PaymentDecision,
  PaymentRequest,
  PaymentRequestCreate,
  PaymentRequestStatus,
  ProviderMessage,
  Request,
  RequestCreate,
  RequestPatch,
  RequestStatus,
} from './requests.ts';
import { StaffRequest } from './routing.ts';

/**
 * A request as its owning integration reads it. The request token is the gateway's to check
 * (once, against `authorize`'s hash, before it asks); intake answers `request_not_found` for an
 * unknown id or another integration's request.
 */
export const RequestAccess = z.object({
  request_id: z.string().max(64),
  integration_id: z.string(),
});

/** Operations of the intake service on handoff requests. */
export const requestOps = {
  create: intakeOp(
    'requests.create',
    z.object({
      integration_id: z.string(),
      token_hash: Sha256Hex,
      input: RequestCreate,
      /** False when a test key made it (absent: live). */
      livemode: z.boolean().optional(),
    }),
    Request,
  ),
  get: intakeOp('requests.get', RequestAccess, Request),
  /**
   * Who owns a request and its token's SHA-256, for the gateway's token check: a projected read
   * of the two fields that never change after creation, so the gateway may keep the answer.
   * `not_found` for an unknown id.
   */
  authorize: intakeOp(
    'requests.authorize',
    z.object({ request_id: z.string().max(64) }),
    z.object({ integration_id: z.string(), token_hash: Sha256Hex }),
  ),
  /**
   * The request's current status, a projected read by `_id` and never cached: what the gateway
   * and payments ask before an action that a closed request refuses. `not_found` for an unknown id.
   */
  status: intakeOp(
    'requests.status',
    z.object({ request_id: z.string().max(64) }),
    z.object({ status: RequestStatus }),
  ),
  /**
   * The owner (its agent, for the customer) cancels its request, which the machine allows only
   * before a provider is engaged; the same move and effects as staff's cancel. `request_not_found`
   * for an unknown id or another integration's request.
   */
  cancel: intakeOp(
    'requests.cancel',
    RequestAccess.extend({ reason: z.string().max(1_000).optional() }),
    Request,
  ),
  /** Staff: change status and/or routing along the request's state machine. */
  update: intakeOp(
    'requests.update',
    StaffAction.extend({ id: z.string(), patch: RequestPatch }),
    StaffRequest,
  ),
  /** Staff: the marketplace review of a request whose customer opted in. */
  decideMarketplace: intakeOp(
    'requests.decide_marketplace',
    StaffAction.extend({ id: z.string(), decision: MarketplaceDecision }),
    Request,
  ),
  getAsStaff: intakeOp('requests.get_as_staff', z.object({ id: z.string() }), Request),
  /** The integration that owns a request (for the webhook dispatcher's routing and feed). */
  owner: intakeOp(
    'requests.owner',
    z.object({ request_id: z.string() }),
    z.object({ integration_id: z.string() }),
  ),
} as const;

/** Operations of the conversation service. */
export const messageOps = {
  /**
   * A new message. `author_provider_id` names the provider who wrote it (with `author_role`
   * `provider`): stored with the message, never in its `Message` or its `message.created` event,
   * which the agent and its webhooks read; only the provider's own reads below use it.
   */
  create: conversationOp(
    'messages.create',
    z.object({
      request_id: z.string(),
      integration_id: z.string(),
      author_role: AuthorRole,
      author_provider_id: z.string().max(64).optional(),
      message: z.string(),
      /** Files of the request's conversation that the author uploaded. */
      attachments: z.array(z.string()).optional(),
    }),
    Message,
  ),
  /**
   * Without `limit`: the conversation of a request for its read, oldest first (at most the
   * newest 1,000 messages; `has_more` tells that older ones were left out). With `limit`: one
   * page of the conventions' lists, newest first, `starting_after` / `ending_before` as cursors.
   */
  list: conversationOp(
    'messages.list',
    BusPage.partial({ limit: true }).extend({ request_id: z.string() }),
    listOf(Message),
  ),
  /** A page of the conversation as `provider_id` reads it, newest first: `mine` on each message. */
  listForProvider: conversationOp(
    'messages.list_for_provider',
    BusPage.extend({ request_id: z.string(), provider_id: z.string().max(64) }),
    listOf(ProviderMessage),
  ),
  /**
   * Which of the request's messages `ids` `provider_id` wrote (the provider's long-poll sets
   * `mine` on the `message.created` objects it answers): each found by its `_id`.
   */
  writtenBy: conversationOp(
    'messages.written_by',
    z.object({
      request_id: z.string(),
      provider_id: z.string().max(64),
      ids: z.array(z.string().max(64)).max(100),
    }),
    z.object({ ids: z.array(z.string()) }),
  ),
} as const;

/** Operations of the payments service. */
export const paymentOps = {
  create: paymentsOp(
    'payment_requests.create',
    z.object({ request_id: z.string(), integration_id: z.string(), input: PaymentRequestCreate }),
    PaymentRequest,
  ),
  /** Approved payment requests of a request, oldest first: the only payment data agents read. */
  listApproved: paymentsOp(
    'payment_requests.list_approved',
    z.object({ request_id: z.string() }),
    listOf(PaymentRequest),
  ),
  /**
   * One payment request of a request, whatever its status (the agent's read; the gateway checks
   * ownership and the request token first). `not_found` when it is another request's.
   */
  getForRequest: paymentsOp(
    'payment_requests.get_for_request',
    z.object({ id: z.string().max(64), request_id: z.string().max(64) }),
    PaymentRequest,
  ),
  /** Staff: approve or reject a pending payment request. */
  decide: paymentsOp(
    'payment_requests.decide',
    StaffAction.extend({ id: z.string(), decision: PaymentDecision }),
    PaymentRequest,
  ),
  /**
   * Payment requests by status (and request), newest first: staff's list, and an agent's list of
   * its own request's (the gateway checks ownership and the request token first).
   */
  list: paymentsOp(
    'payment_requests.list',
    BusPage.extend({
      status: PaymentRequestStatus.optional(),
      request_id: z.string().max(64).optional(),
    }),
    listOf(PaymentRequest),
  ),
} as const;
