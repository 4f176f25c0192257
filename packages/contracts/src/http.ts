// Facts of the HTTP API that the gateway applies and also publishes (OpenAPI document, problem
// code pages, `GET /v1/capabilities`), kept here once so that what it says is what it does.

/** The header that carries a request's token on the customer's routes. */
export const REQUEST_TOKEN_HEADER = 'X-Service-Request-Token';

/** Longest `Idempotency-Key`, in printable ASCII characters. */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/** Largest JSON body, in bytes, of a route without a limit of its own. */
export const BODY_LIMIT_BYTES = 64 * 1024;

/** Deeper than any body of this API; a deeper one is only there to exhaust a recursive walker. */
export const MAX_JSON_DEPTH = 32;

/**
 * Most `errors[]` entries one answer lists: a 64 KiB body of thousands of unknown fields would
 * otherwise get half a megabyte back, and nobody fixes a request from its 51st problem.
 */
export const MAX_FIELD_ERRORS = 50;
