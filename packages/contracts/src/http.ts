// Facts of the HTTP API that the gateway applies and also publishes (OpenAPI document, problem
// code pages, `GET /v1/capabilities`), kept here once so that what it says is what it does.

/** The header that carries a request's token on the customer's routes. */
export const REQUEST_TOKEN_HEADER = 'X-Service-Request-Token';

/** The header that carries a session's CSRF token on every state-changing call. */
export const CSRF_HEADER = 'X-CSRF-Token';

/** Longest `Idempotency-Key`, in printable ASCII characters. */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/**
 * The largest request body the API reads (after decoding), on every route without a limit of its
 * own and on `/mcp`: a longer declared `Content-Length` is refused with 413 before a byte is read.
 */
export const BODY_LIMIT_BYTES = 64 * 1024;

/** Deeper than any body of this API; a deeper one is only there to exhaust a recursive walker. */
export const MAX_JSON_DEPTH = 32;

/**
 * Most `errors[]` entries one answer lists: a 64 KiB body of thousands of unknown fields would
 * otherwise get half a megabyte back, and nobody fixes a request from its 51st problem.
 */
export const MAX_FIELD_ERRORS = 50;

/**
 * Where a problem's `type` points: the page of its code that the gateway serves
 * (`/docs/errors/<code>`), a relative reference that RFC 9457 resolves against the request's URL,
 * so it works behind any host name without configuration.
 */
export const PROBLEM_BASE = '/docs/errors/';
