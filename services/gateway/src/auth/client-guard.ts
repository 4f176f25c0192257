import { API_KEY_PREFIX, PROVIDER_KEY_PREFIX } from '@handoff/contracts';
import type { Logger } from '@handoff/observability';
import { HttpError } from '../http/errors.ts';
import { countRefusal } from '../http/limit-metrics.ts';
import { rateLimitHeaders, type RateLimiter, type RateLimitPolicy } from '../ratelimit.ts';

export interface AuthFailurePolicies {
  /** Failed authentications per client address. */
  address: RateLimitPolicy;
  /** Failed authentications per presented key prefix, from any address. */
  credential: RateLimitPolicy;
}

/** Characters of a key after its type prefix that staff see in key listings (`hk_live_AbCd`). */
const LISTED_PREFIX_CHARACTERS = 4;

/**
 * The prefix of a presented agent or provider key, as keys are listed (type prefix and four
 * characters), or undefined for anything else: staff JWTs all begin alike, so a prefix of one
 * would lump every staff member together.
 */
export function credentialPrefix(authorization: string | undefined): string | undefined {
  const token = /^Bearer[ \t]+(\S+)/i.exec(authorization?.trim() ?? '')?.[1];
  if (!token) return undefined;
  for (const prefix of [PROVIDER_KEY_PREFIX, API_KEY_PREFIX]) {
    if (token.startsWith(prefix) && token.length >= prefix.length + LISTED_PREFIX_CHARACTERS) {
      return token.slice(0, prefix.length + LISTED_PREFIX_CHARACTERS);
    }
  }
  return undefined;
}

/**
 * The brute-force brake, which nobody can turn on someone else. The credential is always checked
 * first, and only failed attempts are counted (per client address, and per presented key prefix
 * from any address) and refused once over a budget: 429 instead of 401 (or 404 for a wrong
 * application secret). A valid credential is never refused here, so an attacker sharing a NAT,
 * a proxy or a key prefix with a client cannot lock that client out; the client's own key limit
 * still applies. Counters are shared by every replica.
 */
export function createAuthFailureGuard(
  limiter: RateLimiter,
  policies: AuthFailurePolicies,
  logger: Logger,
) {
  const count = async (policy: RateLimitPolicy, key: string) => {
    const result = await limiter.hit(policy, key);
    if (result.error) {
      logger.warn({ err: result.error }, 'auth failure counter unavailable; failing open');
    }
    return result;
  };

  return {
    /**
     * Counts a failed authentication; returns the 429 to answer instead of the failure when the
     * address or the key prefix is over its budget.
     */
    async failed(address: string, authorization?: string): Promise<HttpError | undefined> {
      const prefix = credentialPrefix(authorization);
      const [byAddress, byPrefix] = await Promise.all([
        count(policies.address, address),
        prefix === undefined ? undefined : count(policies.credential, prefix),
      ]);
      const over = !byAddress.allowed ? byAddress : byPrefix?.allowed === false ? byPrefix : null;
      if (!over) return undefined;
      countRefusal(over.policy.name);
      return new HttpError(
        'rate_limited',
        over === byAddress
          ? 'Too many failed authentication attempts from this address.'
          : 'Too many failed authentication attempts with this key prefix.',
        { headers: rateLimitHeaders(over) },
      );
    },
  };
}
export type AuthFailureGuard = ReturnType<typeof createAuthFailureGuard>;
