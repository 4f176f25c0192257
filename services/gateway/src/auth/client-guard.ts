import type { Logger } from '@handoff/observability';
import { HttpError } from '../http/errors.ts';
import { rateLimitHeaders, type RateLimiter, type RateLimitPolicy } from '../ratelimit.ts';

/**
 * The brute-force brake: failed authentications are counted per client address in the shared
 * counters. Once an address is over the limit, this replica refuses its further attempts before
 * checking any credential, until the window ends. Other replicas learn it from their own count,
 * so an address spreading attempts over N replicas gets at most the limit plus N.
 */
export function createAuthFailureGuard(
  limiter: RateLimiter,
  policy: RateLimitPolicy,
  logger: Logger,
) {
  const blockedUntil = new Map<string, number>();

  const refusal = (resetSeconds: number) =>
    new HttpError(
      429,
      'rate_limited',
      'Too many failed authentication attempts from this address.',
      {
        headers: {
          'Retry-After': String(resetSeconds),
          'RateLimit-Policy': `"${policy.name}";q=${policy.limit};w=${policy.windowSeconds}`,
          RateLimit: `"${policy.name}";r=0;t=${resetSeconds}`,
        },
      },
    );

  return {
    /** Throws 429 when this address is known to be over its failure limit. */
    check(address: string): void {
      const until = blockedUntil.get(address);
      if (until === undefined) return;
      const left = Math.ceil((until - Date.now()) / 1000);
      if (left > 0) throw refusal(left);
      blockedUntil.delete(address);
    },
    /** Counts a failure; returns the 429 to answer instead when this one went over the limit. */
    async failed(address: string): Promise<HttpError | undefined> {
      const result = await limiter.hit(policy, address);
      if (result.error)
        logger.warn({ err: result.error }, 'auth failure counter unavailable; failing open');
      if (result.allowed) return undefined;
      blockedUntil.set(address, Date.now() + result.resetSeconds * 1000);
      if (blockedUntil.size > 100_000) blockedUntil.clear();
      return new HttpError(
        429,
        'rate_limited',
        'Too many failed authentication attempts from this address.',
        {
          headers: rateLimitHeaders(result),
        },
      );
    },
  };
}
export type AuthFailureGuard = ReturnType<typeof createAuthFailureGuard>;
