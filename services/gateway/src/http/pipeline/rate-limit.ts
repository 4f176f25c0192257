import type { Logger } from '@handoff/observability';
import { HttpError } from '../errors.ts';
import { countRefusal } from '../limit-metrics.ts';
import { rateLimitHeaders, type RateLimiter, type RateLimitPolicy } from '../../ratelimit.ts';
import type { Exchange } from './exchange.ts';

export interface RateLimitDeps {
  limiter: RateLimiter;
  logger: Logger;
}

/**
 * Counts the call against `key` under `policy`. Its RateLimit headers go with every answer, the
 * 429 included; a counter that cannot be reached lets the call through.
 */
export async function rateLimit(
  policy: RateLimitPolicy,
  key: string,
  exchange: Exchange,
  deps: RateLimitDeps,
): Promise<void> {
  const result = await deps.limiter.hit(policy, key);
  if (result.error) {
    deps.logger.warn({ err: result.error }, 'rate limit counter unavailable; failing open');
  }
  exchange.setHeaders(rateLimitHeaders(result));
  if (!result.allowed) {
    countRefusal(policy.name);
    throw new HttpError('rate_limited', 'Too many requests; see the RateLimit headers.');
  }
}
