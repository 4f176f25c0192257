import type { NextFunction, Request, Response } from 'express';

/**
 * Headers every answer of the gateway carries, problem answers and probes included (OWASP API8).
 * Answers hold secrets shown once (agent keys, request tokens, webhook secrets), so no cache may
 * keep any of them; nothing here is meant to be rendered by a browser, so it may not sniff a type,
 * load anything, be framed or leak the URL in a Referer.
 */
export const SECURITY_HEADERS = {
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
} as const satisfies Record<string, string>;

/** What each of {@link SECURITY_HEADERS} is for, for the OpenAPI document. */
export const SECURITY_HEADER_DESCRIPTIONS: Record<keyof typeof SECURITY_HEADERS, string> = {
  'Cache-Control': 'Always `no-store`: answers may hold secrets shown once, so no cache keeps any.',
  'X-Content-Type-Options': 'Always `nosniff`: the declared content type is the only one.',
  'Content-Security-Policy':
    "Always `default-src 'none'; frame-ancestors 'none'`: nothing here is a page to render.",
  'Referrer-Policy': 'Always `no-referrer`.',
  'X-Frame-Options': 'Always `DENY`, for clients that predate `frame-ancestors`.',
};

/** Set first, so that every later answer, whoever writes it, has them. */
export function securityHeaders(_req: Request, res: Response, next: NextFunction): void {
  res.set(SECURITY_HEADERS);
  next();
}
