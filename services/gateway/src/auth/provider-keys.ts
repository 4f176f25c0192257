import { call } from '@handoff/bus';
import {
  API_KEY_PREFIX,
  isWellFormedApiKey,
  isWellFormedProviderKey,
  providerOps,
  sha256Hex,
  type ProviderKeyVerification,
} from '@handoff/contracts';
import type { NatsConnection } from '@nats-io/transport-node';
import { HttpError } from '../http/errors.ts';
import { BEARER, credentialMixUp } from './agent-keys.ts';
import { createKeyCache } from './key-cache.ts';

export interface ProviderIdentity {
  key_id: string;
  provider_id: string;
  expires_at: string;
}

export interface ProviderVerifierOptions {
  nc: NatsConnection;
  /** How long a verified key is trusted without asking the intake service again. */
  ttlMs: number;
  busTimeoutMs: number;
}

const REALM = 'Bearer realm="handoff-provider"';
const missing = () =>
  new HttpError(
    'api_key_missing',
    'Send the provider key as `Authorization: Bearer hpk_live_...`.',
    { headers: { 'WWW-Authenticate': REALM } },
  );
// Unknown, revoked, malformed keys and keys of a suspended provider all get the same answer.
const invalid = (detail = 'The provider key is not valid.') =>
  new HttpError('api_key_invalid', detail, {
    headers: { 'WWW-Authenticate': `${REALM}, error="invalid_token"` },
  });
const expired = () =>
  new HttpError('api_key_expired', 'The provider key has expired; ask staff for a new one.', {
    headers: { 'WWW-Authenticate': `${REALM}, error="invalid_token"` },
  });

/**
 * Checks provider keys (`hpk_live_...`) the way agent keys are checked: shape and checksum
 * offline, then only the SHA-256 goes to the intake service (`providers.verify_key`); answers are
 * cached per replica and dropped at once by the access invalidation broadcast (`key_ids`, or
 * `integration_id` naming the provider, which drops every key of it).
 */
export function createProviderVerifier(options: ProviderVerifierOptions) {
  const cache = createKeyCache<ProviderKeyVerification>({
    nc: options.nc,
    ttlMs: options.ttlMs,
    fetch: (hash, requestId) =>
      call(
        options.nc,
        providerOps.verifyKey,
        { key_hash: hash },
        { timeoutMs: options.busTimeoutMs, requestId },
      ),
    invalidatedBy: (value, { key_ids = [], integration_id }) =>
      key_ids.includes(value.key_id) || value.provider_id === integration_id,
  });

  return {
    /** Resolves to the calling provider, or throws the 401 the caller gets. */
    async verify(authorization: string | undefined, requestId: string): Promise<ProviderIdentity> {
      if (!authorization?.trim() || /^bearer$/i.test(authorization.trim())) throw missing();
      const mixUp = credentialMixUp(authorization, 'provider');
      if (mixUp !== undefined) throw invalid(mixUp);
      const key = BEARER.exec(authorization)?.[1];
      if (key?.startsWith(API_KEY_PREFIX) && isWellFormedApiKey(key)) {
        throw invalid('This route takes a provider key (`hpk_live_...`), not an agent key.');
      }
      if (!key || !isWellFormedProviderKey(key)) {
        throw invalid(
          'The provider key is malformed (not `hpk_live_` with a valid checksum); check that it was copied whole.',
        );
      }
      const value = await cache.lookup(sha256Hex(key), requestId);
      if (!value || value.status === 'revoked' || value.provider_status !== 'active') {
        throw invalid();
      }
      if (value.status === 'expired' || Date.parse(value.expires_at) <= Date.now()) throw expired();
      return { key_id: value.key_id, provider_id: value.provider_id, expires_at: value.expires_at };
    },
    cached: () => cache.size(),
    stop: () => cache.stop(),
  };
}
export type ProviderVerifier = ReturnType<typeof createProviderVerifier>;
