import { call } from '@handoff/bus';
import {
  accessOps,
  isWellFormedApiKey,
  isWellFormedProviderKey,
  PROVIDER_KEY_PREFIX,
  sha256Hex,
  type KeyVerification,
  type Scope,
} from '@handoff/contracts';
import type { Logger } from '@handoff/observability';
import type { NatsConnection } from '@nats-io/transport-node';
import { HttpError } from '../http/errors.ts';
import { createKeyCache } from './key-cache.ts';

export interface AgentIdentity {
  key_id: string;
  integration_id: string;
  scopes: Scope[];
  expires_at: string;
}

export interface KeyVerifierOptions {
  nc: NatsConnection;
  logger: Logger;
  /** How long a verified key is trusted without asking the intake service again. */
  ttlMs: number;
  busTimeoutMs: number;
}

export const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/** A compact JWS (a staff token): three base64url parts, the header starting `{"`. */
const JWT_SHAPE = /^eyJ[\w-]*\.[\w-]*\.[\w-]*$/;

/**
 * Why an `Authorization` header is not a bearer credential of the kind a route takes, said
 * without quoting any of it: the scheme is missing or another one, or the credential is a staff
 * JWT. Undefined when nothing more specific is known.
 */
export function credentialMixUp(
  authorization: string,
  wants: 'agent' | 'provider',
): string | undefined {
  const value = authorization.trim();
  const token = BEARER.exec(value)?.[1];
  const example = wants === 'agent' ? 'Bearer hk_live_...' : 'Bearer hpk_live_...';
  if (token === undefined) {
    const scheme = /^(\S+)[ \t]+\S/.exec(value)?.[1];
    if (/^bearer$/i.test(scheme ?? value)) return undefined;
    if (scheme !== undefined) {
      return `The Authorization header uses another scheme; send \`Authorization: ${example}\`.`;
    }
    return `The Authorization header lacks the \`Bearer\` scheme; send \`Authorization: ${example}\`.`;
  }
  if (JWT_SHAPE.test(token)) {
    const wanted =
      wants === 'agent' ? 'an agent key (`hk_live_...`)' : 'a provider key (`hpk_live_...`)';
    return `This route takes ${wanted}, not a staff token; staff tokens are for \`/v1/staff/\` routes.`;
  }
  return undefined;
}

const challenge = { 'WWW-Authenticate': 'Bearer realm="handoff"' };
const missing = () =>
  new HttpError('api_key_missing', 'Send the agent key as `Authorization: Bearer <key>`.', {
    headers: challenge,
  });
// Unknown and revoked keys get the same answer: nothing to learn from it. A malformed key (caught
// offline) and a mixed-up credential are said plainly: that tells nothing about stored keys.
const invalid = (detail = 'The agent key is not valid.') =>
  new HttpError('api_key_invalid', detail, {
    headers: { 'WWW-Authenticate': 'Bearer realm="handoff", error="invalid_token"' },
  });
const expired = () =>
  new HttpError('api_key_expired', 'The agent key has expired; ask staff for a new one.', {
    headers: { 'WWW-Authenticate': 'Bearer realm="handoff", error="invalid_token"' },
  });

/**
 * Checks agent keys: shape and checksum offline, then the key's SHA-256 against the intake
 * service, cached per replica. Revocations and scope changes reach every replica at once through
 * a broadcast on the bus; a replica that reconnects to NATS forgets everything it cached.
 */
export function createKeyVerifier(options: KeyVerifierOptions) {
  const cache = createKeyCache<KeyVerification>({
    nc: options.nc,
    ttlMs: options.ttlMs,
    fetch: (hash, requestId) =>
      call(
        options.nc,
        accessOps.verifyKey,
        { key_hash: hash },
        { timeoutMs: options.busTimeoutMs, requestId },
      ),
    invalidatedBy: (value, { key_ids = [], integration_id }) =>
      key_ids.includes(value.key_id) || value.integration_id === integration_id,
  });

  return {
    /** Resolves to the calling integration, or throws the 401 the caller gets. */
    async verify(authorization: string | undefined, requestId: string): Promise<AgentIdentity> {
      if (!authorization?.trim() || /^bearer$/i.test(authorization.trim())) throw missing();
      const mixUp = credentialMixUp(authorization, 'agent');
      if (mixUp !== undefined) throw invalid(mixUp);
      const key = BEARER.exec(authorization)?.[1];
      if (key?.startsWith(PROVIDER_KEY_PREFIX) && isWellFormedProviderKey(key)) {
        // Said plainly, since it is a mix-up and not a guess: provider keys have routes of their own.
        throw invalid('This route takes an agent key (`hk_live_...`), not a provider key.');
      }
      if (!key || !isWellFormedApiKey(key)) {
        // Checked offline (shape and checksum), so saying so tells nothing about stored keys.
        throw invalid(
          'The agent key is malformed (not `hk_live_` with a valid checksum); check that it was copied whole.',
        );
      }
      const value = await cache.lookup(sha256Hex(key), requestId);
      if (!value || value.status === 'revoked') throw invalid();
      if (value.status === 'expired' || Date.parse(value.expires_at) <= Date.now()) throw expired();
      return {
        key_id: value.key_id,
        integration_id: value.integration_id,
        scopes: value.scopes,
        expires_at: value.expires_at,
      };
    },
    cached: () => cache.size(),
    stop: () => cache.stop(),
  };
}
export type KeyVerifier = ReturnType<typeof createKeyVerifier>;
