import {
  BODY_LIMIT_BYTES,
  MAX_FIELD_ERRORS,
  MAX_JSON_DEPTH,
  REQUEST_TOKEN_HEADER,
} from './http.ts';

/** The statuses a problem is answered with. */
type ProblemStatus = 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 416 | 422 | 429 | 500 | 503;

interface ErrorEntry {
  /** Every answer with the code has this status, so the code alone says what to send. */
  status: ProblemStatus;
  /**
   * What the code means, for the OpenAPI document and the page at `/docs/errors/<code>`: a
   * fragment without a final period, with Markdown code spans.
   */
  description: string;
  /**
   * Worth trying again later (a service that did not answer, a dependency down): the gateway adds
   * `Retry-After`, and a bus consumer hands the message back instead of giving it up.
   */
  retryable?: true;
}

/**
 * The codes answered with one status, each with its description: the status is said once for
 * them all, and stays a literal type, so that `ErrorCodeOf` can ask which codes have it.
 */
function withStatus<const S extends ProblemStatus, const C extends string>(
  status: S,
  descriptions: Record<C, string>,
): Record<C, { status: S; description: string }> {
  const entries = Object.entries<string>(descriptions).map(([code, description]) => [
    code,
    { status, description },
  ]);
  return Object.fromEntries(entries) as Record<C, { status: S; description: string }>;
}

/** A resource that is unknown or that the caller may not see: one answer, no existence oracle. */
const hidden = (what: string) => `unknown ${what}, or one the caller may not see`;

/**
 * Every problem `code` the API answers with (RFC 9457 `code`, the `type` page's name), and the
 * only codes that cross the bus: a service throws `BusError` with one, the gateway answers with
 * it as it came. `HttpError` takes only these, the OpenAPI document lists them per route and
 * `/docs/errors` has a page for each; a test fails when one is in no published answer.
 */
export const ERRORS = {
  ...withStatus(400, {
    invalid_json:
      'the body is not parseable JSON, repeats a member name within one object (I-JSON), or nests ' +
      `deeper than ${MAX_JSON_DEPTH} levels`,
    signature_invalid: 'the `Stripe-Signature` does not verify for this body',
  }),
  ...withStatus(401, {
    api_key_missing: 'no agent key',
    api_key_invalid:
      'unknown or revoked agent key (the same answer for both); `detail` says so when the header ' +
      'lacks the `Bearer` scheme, uses another scheme, holds a malformed key (checked offline) or ' +
      'another kind of credential (a staff JWT, a provider key), never quoting it',
    api_key_expired: 'expired agent key',
    staff_token_missing:
      'no staff JWT; `detail` says when the header lacks the `Bearer` scheme or uses another one',
    staff_token_invalid: 'the staff JWT does not verify',
    staff_token_expired: 'the staff JWT has expired',
    application_secret_missing: 'no `X-Application-Secret`',
    workspace_session_invalid:
      'the workspace session cookie is unknown, ended (signed out, revoked by staff, the provider ' +
      'suspended) or expired: sign in again',
    sign_in_link_invalid:
      'the sign-in link is unknown, used or expired, or its provider is no longer active (one ' +
      'answer for all): ask for a new one',
    request_token_missing: `no \`${REQUEST_TOKEN_HEADER}\` (checked right after the key and scope, before the body and any lookup)`,
  }),
  ...withStatus(403, {
    insufficient_scope: 'the key lacks a scope; the body lists `required_scopes`',
    staff_role_required: 'the staff JWT has no `staff` role',
    csrf_token_invalid:
      "a state-changing call made with a workspace session lacks the session's `X-CSRF-Token`, or " +
      'comes from another origin',
    request_token_invalid:
      "the request belongs to the caller's integration but the token does not match",
    download_url_invalid:
      'the signed download URL is altered, expired or malformed (one answer for all): read the file again for a fresh `download_url`',
  }),
  ...withStatus(404, {
    not_found: 'unknown resource',
    request_not_found: 'unknown request, or one the caller may not see (no existence oracle)',
    application_not_found: 'unknown access application, or a secret that does not match it',
    integration_not_found: 'unknown integration',
    key_not_found: 'unknown agent key',
    proposal_not_found: hidden('proposal'),
    job_not_found: hidden('job'),
    milestone_not_found: hidden('milestone'),
    deliverable_not_found: hidden('deliverable'),
    dispute_not_found: hidden('dispute'),
    file_not_found: hidden('file'),
    provider_not_found: 'unknown provider',
    provider_key_not_found: 'unknown provider key',
    provider_session_not_found:
      "unknown workspace session (or, for a provider, another provider's)",
    payment_request_not_found: hidden('payment request'),
    payment_not_found: 'unknown payment',
    webhook_endpoint_not_found: hidden('webhook endpoint'),
    event_not_found: 'unknown event, one the caller may not see, or one older than 30 days',
    offer_not_found:
      'the provider has no offer of this request (never had one, or it was withdrawn)',
    test_clock_not_found:
      'unknown test clock, one of another integration, or one asked for with a live key (test clocks are test mode only)',
  }),
  ...withStatus(405, {
    method_not_allowed: 'known path, wrong method; `Allow` lists the methods',
  }),
  ...withStatus(409, {
    invalid_state_transition: 'an illegal move in a state machine',
    concurrent_change:
      'another call moved the resource between its read and this write, so nothing changed and a ' +
      'retry may succeed',
    idempotency_key_in_use: 'a request with the same `Idempotency-Key` is still in flight',
    request_not_open:
      'the request takes no proposals (it is not submitted/routed, or a job started)',
    request_closed:
      'the request is completed or cancelled and takes no more messages, proposals, acceptances or payment requests; `current_state` names its state',
    proposal_exists: 'this provider already has an open proposal on the request',
    job_has_open_work: 'a milestone is neither approved nor cancelled, or a dispute is open',
    job_not_active: 'the job is not active',
    no_job: 'the request has no job yet',
    milestone_under_review:
      'the milestone is under review; its deliverables can be withdrawn once it is reviewed',
    comment_limit_reached: 'the dispute has the most comments it may have',
    limit_reached:
      'the integration has the most webhook endpoints (or test clocks) it may have, or the request the most files (`limit` says how many)',
    test_clock_full: 'the test clock has the most requests it may have (`limit` says how many)',
    test_clock_advancing: 'the test clock is advancing; try again once its `status` is `ready`',
    provider_suspended: 'the provider is suspended',
    offer_not_pending:
      'the offer was already accepted, declined, lapsed or withdrawn; `current_state` names its state',
    routing_mode_mismatch:
      'a test request goes only to the simulated provider, and the simulated provider takes test requests only',
    provider_confirms: 'the payment provider (Stripe) confirms this payment, not staff',
    amount_mismatch: 'the payment provider reports another amount or currency than the payment has',
  }),
  ...withStatus(413, {
    payload_too_large: `the body is over ${BODY_LIMIT_BYTES} bytes`,
    file_too_large:
      "the file is over the largest a file may be, or the request's files would be over their total (`limit` says how many bytes remain allowed); refused before the body is read past the limit",
  }),
  ...withStatus(415, {
    unsupported_media_type: 'a body that is not `application/json`',
    file_type_not_allowed:
      'the file is of a type not on the list (`allowed` lists them; docs/files.md): the bytes decide, not the `Content-Type`',
    file_type_mismatch:
      'the declared `Content-Type` does not match the bytes (`detected` says what they are)',
  }),
  ...withStatus(416, {
    range_not_satisfiable:
      "the `Range` of a download starts past the file's end; `Content-Range` says its size",
  }),
  ...withStatus(422, {
    validation_failed: `schema violation; \`errors[]\` has a JSON pointer per problem (the first ${MAX_FIELD_ERRORS}; \`detail\` gives the total when there are more)`,
    idempotency_key_reused: 'the same `Idempotency-Key` with a different request',
  }),
  ...withStatus(429, {
    rate_limited:
      'too many requests, or too many failed authentications from this address or with this key ' +
      'prefix (a valid credential is never refused for the failures of others)',
  }),
  ...withStatus(500, { internal_error: 'a bug; logged with the request id' }),
  service_unavailable: {
    status: 503,
    description: 'a downstream service did not answer in time',
    retryable: true,
  },
  ...withStatus(404, {
    unsubscribe_link_invalid:
      'no unsubscribe link of this service has this token (one altered or cut short is unknown)',
  }),
  ...withStatus(503, {
    workspace_not_built: "the providers' workspace (`/workspace`) is not built on this gateway",
    console_not_built: 'the staff console (`/console`) is not built on this gateway',
  }),
} as const satisfies Record<string, ErrorEntry>;

export type ErrorCode = keyof typeof ERRORS;
export type ErrorStatus = (typeof ERRORS)[ErrorCode]['status'];

/** The codes answered with `status`, e.g. the 404s a route may name its missing resource with. */
export type ErrorCodeOf<S extends ErrorStatus> = {
  [C in ErrorCode]: (typeof ERRORS)[C]['status'] extends S ? C : never;
}[ErrorCode];
export type NotFoundCode = ErrorCodeOf<404>;
/** The 409s: a route lists those of its own beyond the common ones. */
export type ConflictCode = ErrorCodeOf<409>;

export const isErrorCode = (value: unknown): value is ErrorCode =>
  typeof value === 'string' && Object.hasOwn(ERRORS, value);

/** Whether a failure with `code` may pass when tried again later (see {@link ErrorEntry}). */
export function isRetryable(code: ErrorCode): boolean {
  const entry: ErrorEntry = ERRORS[code];
  return entry.retryable === true;
}
