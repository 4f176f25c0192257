import { z } from 'zod';
import {
  BODY_LIMIT_BYTES,
  MAX_FIELD_ERRORS,
  MAX_JSON_DEPTH,
  REQUEST_TOKEN_HEADER,
} from './http.ts';

/** The statuses a problem is answered with. */
type ProblemStatus = 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 422 | 429 | 500 | 503;

interface ErrorEntry {
  /** Every answer with the code has this status, so the code alone says what to send. */
  status: ProblemStatus;
  /**
   * What the code means, for the OpenAPI document and the page at `/docs/errors/<code>`: a
   * fragment without a final period, with Markdown code spans.
   */
  description: string;
}

/** 404 for a resource that is unknown or that the caller may not see: one answer, no existence oracle. */
const hidden = (what: string) =>
  ({ status: 404, description: `unknown ${what}, or one the caller may not see` }) as const;

/**
 * Every problem `code` the API answers with (RFC 9457 `code`, the `type` page's name). `HttpError`
 * takes only these, the OpenAPI document lists them per route and `/docs/errors` has a page for
 * each; a test fails when one is in no published answer.
 */
export const ERRORS = {
  invalid_json: {
    status: 400,
    description:
      'the body is not parseable JSON, repeats a member name within one object (I-JSON), or nests ' +
      `deeper than ${MAX_JSON_DEPTH} levels`,
  },
  signature_invalid: {
    status: 400,
    description: 'the `Stripe-Signature` does not verify for this body',
  },
  api_key_missing: { status: 401, description: 'no agent key' },
  api_key_invalid: {
    status: 401,
    description:
      'unknown or revoked agent key (the same answer for both); `detail` says so when the header ' +
      'lacks the `Bearer` scheme, uses another scheme, holds a malformed key (checked offline) or ' +
      'another kind of credential (a staff JWT, a provider key), never quoting it',
  },
  api_key_expired: { status: 401, description: 'expired agent key' },
  staff_token_missing: {
    status: 401,
    description:
      'no staff JWT; `detail` says when the header lacks the `Bearer` scheme or uses another one',
  },
  staff_token_invalid: { status: 401, description: 'the staff JWT does not verify' },
  staff_token_expired: { status: 401, description: 'the staff JWT has expired' },
  application_secret_missing: { status: 401, description: 'no `X-Application-Secret`' },
  workspace_session_invalid: {
    status: 401,
    description:
      'the workspace session cookie is unknown, ended (signed out, revoked by staff, the provider ' +
      'suspended) or expired: sign in again',
  },
  sign_in_link_invalid: {
    status: 401,
    description:
      'the sign-in link is unknown, used or expired, or its provider is no longer active (one ' +
      'answer for all): ask for a new one',
  },
  request_token_missing: {
    status: 401,
    description: `no \`${REQUEST_TOKEN_HEADER}\` (checked right after the key and scope, before the body and any lookup)`,
  },
  insufficient_scope: {
    status: 403,
    description: 'the key lacks a scope; the body lists `required_scopes`',
  },
  staff_role_required: { status: 403, description: 'the staff JWT has no `staff` role' },
  csrf_token_invalid: {
    status: 403,
    description:
      "a state-changing call made with a workspace session lacks the session's `X-CSRF-Token`, or " +
      'comes from another origin',
  },
  request_token_invalid: {
    status: 403,
    description: "the request belongs to the caller's integration but the token does not match",
  },
  not_found: { status: 404, description: 'unknown resource' },
  request_not_found: {
    status: 404,
    description: 'unknown request, or one the caller may not see (no existence oracle)',
  },
  application_not_found: {
    status: 404,
    description: 'unknown access application, or a secret that does not match it',
  },
  integration_not_found: { status: 404, description: 'unknown integration' },
  key_not_found: { status: 404, description: 'unknown agent key' },
  proposal_not_found: hidden('proposal'),
  job_not_found: hidden('job'),
  milestone_not_found: hidden('milestone'),
  deliverable_not_found: hidden('deliverable'),
  dispute_not_found: hidden('dispute'),
  provider_not_found: { status: 404, description: 'unknown provider' },
  provider_key_not_found: { status: 404, description: 'unknown provider key' },
  provider_session_not_found: {
    status: 404,
    description: "unknown workspace session (or, for a provider, another provider's)",
  },
  payment_request_not_found: hidden('payment request'),
  payment_not_found: { status: 404, description: 'unknown payment' },
  webhook_endpoint_not_found: hidden('webhook endpoint'),
  event_not_found: {
    status: 404,
    description: 'unknown event, one the caller may not see, or one older than 30 days',
  },
  method_not_allowed: {
    status: 405,
    description: 'known path, wrong method; `Allow` lists the methods',
  },
  invalid_state_transition: { status: 409, description: 'an illegal move in a state machine' },
  concurrent_change: {
    status: 409,
    description:
      'another call moved the resource between its read and this write, so nothing changed and a ' +
      'retry may succeed',
  },
  idempotency_key_in_use: {
    status: 409,
    description: 'a request with the same `Idempotency-Key` is still in flight',
  },
  request_not_open: {
    status: 409,
    description: 'the request takes no proposals (it is not submitted/routed, or a job started)',
  },
  request_closed: {
    status: 409,
    description:
      'the request is completed or cancelled and takes no more messages, proposals, acceptances or payment requests; `current_state` names its state',
  },
  proposal_exists: {
    status: 409,
    description: 'this provider already has an open proposal on the request',
  },
  job_has_open_work: {
    status: 409,
    description: 'a milestone is neither approved nor cancelled, or a dispute is open',
  },
  job_not_active: { status: 409, description: 'the job is not active' },
  no_job: { status: 409, description: 'the request has no job yet' },
  milestone_under_review: {
    status: 409,
    description:
      'the milestone is under review; its deliverables can be withdrawn once it is reviewed',
  },
  comment_limit_reached: {
    status: 409,
    description: 'the dispute has the most comments it may have',
  },
  limit_reached: {
    status: 409,
    description:
      'the integration has the most webhook endpoints it may have (`limit` says how many)',
  },
  provider_suspended: { status: 409, description: 'the provider is suspended' },
  provider_confirms: {
    status: 409,
    description: 'the payment provider (Stripe) confirms this payment, not staff',
  },
  amount_mismatch: {
    status: 409,
    description: 'the payment provider reports another amount or currency than the payment has',
  },
  payload_too_large: { status: 413, description: `the body is over ${BODY_LIMIT_BYTES} bytes` },
  unsupported_media_type: {
    status: 415,
    description: 'a body that is not `application/json`',
  },
  validation_failed: {
    status: 422,
    description: `schema violation; \`errors[]\` has a JSON pointer per problem (the first ${MAX_FIELD_ERRORS}; \`detail\` gives the total when there are more)`,
  },
  idempotency_key_reused: {
    status: 422,
    description: 'the same `Idempotency-Key` with a different request',
  },
  rate_limited: {
    status: 429,
    description:
      'too many requests, or too many failed authentications from this address or with this key ' +
      'prefix (a valid credential is never refused for the failures of others)',
  },
  internal_error: { status: 500, description: 'a bug; logged with the request id' },
  service_unavailable: {
    status: 503,
    description: 'a downstream service did not answer in time',
  },
  unsubscribe_link_invalid: {
    status: 404,
    description:
      'no unsubscribe link of this service has this token (one altered or cut short is unknown)',
  },
  workspace_not_built: {
    status: 503,
    description: "the providers' workspace (`/workspace`) is not built on this gateway",
  },
  console_not_built: {
    status: 503,
    description: 'the staff console (`/console`) is not built on this gateway',
  },
} as const satisfies Record<string, ErrorEntry>;

export type ErrorCode = keyof typeof ERRORS;
export type ErrorStatus = (typeof ERRORS)[ErrorCode]['status'];

/** The codes answered with `status`, e.g. the 404s a route may name its missing resource with. */
export type ErrorCodeOf<S extends ErrorStatus> = {
  [C in ErrorCode]: (typeof ERRORS)[C]['status'] extends S ? C : never;
}[ErrorCode];
export type NotFoundCode = ErrorCodeOf<404>;
/** What a service names in a bus `conflict`'s `details.code`, and the gateway answers with. */
export type ConflictCode = ErrorCodeOf<409>;

export const isErrorCode = (value: unknown): value is ErrorCode =>
  typeof value === 'string' && Object.hasOwn(ERRORS, value);

export const isConflictCode = (value: unknown): value is ConflictCode =>
  isErrorCode(value) && ERRORS[value].status === 409;

/** Error codes carried in a bus reply's `Nats-Service-Error` (`<code>: <message>`). */
export const BusErrorCode = z.enum([
  'validation_failed',
  'not_found',
  'forbidden',
  'conflict',
  'invalid_state_transition',
  'unavailable',
  'internal_error',
]);
export type BusErrorCode = z.infer<typeof BusErrorCode>;

/**
 * What the bus needs of its codes. `status` goes in `Nats-Service-Error-Code`; it is the bus's own
 * (a service's `validation_failed` is 400 there, the gateway answers it as 422). `retryable`: worth
 * trying again later (no responder, timeout, a dependency down), so a consumer naks instead of
 * terminating. The gateway turns each into a problem code of {@link ERRORS}.
 */
export const BUS_ERRORS: Record<BusErrorCode, { status: number; retryable: boolean }> = {
  validation_failed: { status: 400, retryable: false },
  not_found: { status: 404, retryable: false },
  forbidden: { status: 403, retryable: false },
  conflict: { status: 409, retryable: false },
  invalid_state_transition: { status: 409, retryable: false },
  unavailable: { status: 503, retryable: true },
  internal_error: { status: 500, retryable: false },
};
