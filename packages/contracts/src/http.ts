/**
 * The largest request body the API reads (after decoding), on every route and on `/mcp`: a
 * longer declared `Content-Length` is refused with 413 before a byte is read.
 */
export const BODY_LIMIT_BYTES = 64 * 1024;

/**
 * Where a problem's `type` points: the page of its code that the gateway serves
 * (`/docs/errors/<code>`), a relative reference that RFC 9457 resolves against the request's URL,
 * so it works behind any host name without configuration.
 */
export const PROBLEM_BASE = '/docs/errors/';
