import { BusError, call, createAccessCache, type AccessCache } from '@handoff/bus';
import {
  accessOps,
  accessSubjects,
  API_KEY_PREFIX,
  PROVIDER_KEY_PREFIX,
  providerOps,
  type AccessInvalidation,
  type KeyVerification,
  type Operation,
  type ProviderKeyVerification,
} from '@handoff/contracts';
import { isWellFormedApiKey, isWellFormedProviderKey, sha256Hex } from '@handoff/runtime';
import type { NatsConnection } from '@nats-io/transport-node';
import type { z } from 'zod';
import { HttpError } from '../http/errors.ts';

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/** A compact JWS (a staff token): three base64url parts, the header starting `{"`. */
const JWT_SHAPE = /^eyJ[\w-]*\.[\w-]*\.[\w-]*$/;

/** How a kind of key looks and how answers name it; checked offline. */
export interface KeyShape {
  /** `agent key`, `provider key`. */
  noun: string;
  article: 'a' | 'an';
  prefix: string;
  /** Prefix, alphabet and checksum. */
  wellFormed(key: string): boolean;
}

const AGENT_KEY: KeyShape = {
  noun: 'agent key',
  article: 'an',
  prefix: API_KEY_PREFIX,
  wellFormed: isWellFormedApiKey,
};
const PROVIDER_KEY: KeyShape = {
  noun: 'provider key',
  article: 'a',
  prefix: PROVIDER_KEY_PREFIX,
  wellFormed: isWellFormedProviderKey,
};

const named = (shape: KeyShape) => `${shape.article} ${shape.noun} (\`${shape.prefix}...\`)`;

/** What the owning service answers about a key, whatever its kind. */
type KeyRecord = Pick<KeyVerification, 'key_id' | 'status' | 'expires_at'>;

/** Everything in which one kind of bearer key differs from another. */
export interface BearerKeyKind<V extends KeyRecord, I> {
  shape: KeyShape;
  /** The other kind of key, named in the answer when one is sent here by mistake. */
  other: KeyShape;
  /** `WWW-Authenticate` of this kind's 401s. */
  realm: string;
  /** The detail of `api_key_missing`. */
  askFor: string;
  /** The bus operation that answers for a key's SHA-256 (`not_found` when unknown). */
  operation: Operation<z.ZodType<unknown, { key_hash: string }>, z.ZodType<V>>;
  /**
   * The id by which the access broadcast (`accessSubjects.invalidate`) names the key's owner in
   * `integration_id` or `provider_ids`: a broadcast drops the cached answer when it names the key
   * or its owner.
   */
  owner(value: V): string;
  /** Beyond the key's own status: e.g. the provider it belongs to must be active. */
  usable?(value: V): boolean;
  /** What a route may know of the caller. */
  identity(value: V): I;
}

/** `livemode: false` for a test key, whose `integration_id` is the test twin that owns test data. */
export type AgentIdentity = Pick<
  KeyVerification,
  'key_id' | 'integration_id' | 'livemode' | 'scopes' | 'expires_at'
>;
export type ProviderIdentity = Pick<
  ProviderKeyVerification,
  'key_id' | 'provider_id' | 'expires_at'
>;

export const agentKeys: BearerKeyKind<KeyVerification, AgentIdentity> = {
  shape: AGENT_KEY,
  other: PROVIDER_KEY,
  realm: 'Bearer realm="handoff"',
  askFor: 'Send the agent key as `Authorization: Bearer <key>`.',
  operation: accessOps.verifyKey,
  owner: (value) => value.integration_id,
  identity: ({ key_id, integration_id, livemode, scopes, expires_at }) => ({
    key_id,
    integration_id,
    livemode,
    scopes,
    expires_at,
  }),
};

/** Provider keys travel on the access broadcast too: its `integration_id` then names a provider. */
export const providerKeys: BearerKeyKind<ProviderKeyVerification, ProviderIdentity> = {
  shape: PROVIDER_KEY,
  other: AGENT_KEY,
  realm: 'Bearer realm="handoff-provider"',
  askFor: 'Send the provider key as `Authorization: Bearer hpk_live_...`.',
  operation: providerOps.verifyKey,
  owner: (value) => value.provider_id,
  usable: (value) => value.provider_status === 'active',
  identity: ({ key_id, provider_id, expires_at }) => ({ key_id, provider_id, expires_at }),
};

/**
 * Why an `Authorization` header is not a bearer credential of the kind a route takes, said
 * without quoting any of it: the scheme is missing or another one, or the credential is a staff
 * JWT. Undefined when nothing more specific is known.
 */
function credentialMixUp(authorization: string, wants: KeyShape): string | undefined {
  const value = authorization.trim();
  const token = BEARER.exec(value)?.[1];
  const example = `Bearer ${wants.prefix}...`;
  if (token === undefined) {
    const scheme = /^(\S+)[ \t]+\S/.exec(value)?.[1];
    if (/^bearer$/i.test(scheme ?? value)) return undefined;
    if (scheme !== undefined) {
      return `The Authorization header uses another scheme; send \`Authorization: ${example}\`.`;
    }
    return `The Authorization header lacks the \`Bearer\` scheme; send \`Authorization: ${example}\`.`;
  }
  if (JWT_SHAPE.test(token)) {
    return `This route takes ${named(wants)}, not a staff token; staff tokens are for \`/v1/staff/\` routes.`;
  }
  return undefined;
}

function answers<V extends KeyRecord, I>(kind: BearerKeyKind<V, I>) {
  const refused = { 'WWW-Authenticate': `${kind.realm}, error="invalid_token"` };
  return {
    missing: () =>
      new HttpError('api_key_missing', kind.askFor, {
        headers: { 'WWW-Authenticate': kind.realm },
      }),
    // Unknown, revoked and unusable keys get the same answer: nothing to learn from it. A
    // malformed key (caught offline) and a mixed-up credential are said plainly: that tells
    // nothing about stored keys.
    invalid: (detail = `The ${kind.shape.noun} is not valid.`) =>
      new HttpError('api_key_invalid', detail, { headers: refused }),
    expired: () =>
      new HttpError(
        'api_key_expired',
        `The ${kind.shape.noun} has expired; ask staff for a new one.`,
        { headers: refused },
      ),
  };
}

/**
 * The key in an `Authorization` header, checked offline (scheme, kind, shape and checksum), or
 * the 401 the caller gets.
 */
export function presentedKey<V extends KeyRecord, I>(
  kind: BearerKeyKind<V, I>,
  authorization: string | undefined,
): string {
  const refuse = answers(kind);
  if (!authorization?.trim() || /^bearer$/i.test(authorization.trim())) throw refuse.missing();
  const mixUp = credentialMixUp(authorization, kind.shape);
  if (mixUp !== undefined) throw refuse.invalid(mixUp);
  const key = BEARER.exec(authorization)?.[1];
  if (key && kind.other.wellFormed(key)) {
    throw refuse.invalid(
      `This route takes ${named(kind.shape)}, not ${kind.other.article} ${kind.other.noun}.`,
    );
  }
  if (!key || !kind.shape.wellFormed(key)) {
    throw refuse.invalid(
      `The ${kind.shape.noun} is malformed (not \`${kind.shape.prefix}\` with a valid checksum); check that it was copied whole.`,
    );
  }
  return key;
}

/** The caller a stored key stands for, or the 401 when it is unknown, revoked or expired. */
export function acceptedKey<V extends KeyRecord, I>(kind: BearerKeyKind<V, I>, value: V | null): I {
  const refuse = answers(kind);
  if (!value || value.status === 'revoked' || kind.usable?.(value) === false) {
    throw refuse.invalid();
  }
  if (value.status === 'expired' || Date.parse(value.expires_at) <= Date.now()) {
    throw refuse.expired();
  }
  return kind.identity(value);
}

export interface BearerKeyVerifierOptions {
  nc: NatsConnection;
  /** How long a verified key is trusted without asking the owning service again. */
  ttlMs: number;
  busTimeoutMs: number;
}

export interface BearerKeyVerifier<I> {
  /** Resolves to the caller, or throws the 401 the caller gets. */
  verify(authorization: string | undefined, callId: string): Promise<I>;
  cached(): number;
  stop(): void;
}

/**
 * What the owning service answers for a credential's SHA-256 (`operation` with `input(hash)`),
 * cached per replica and dropped by the access broadcast (see {@link createAccessCache}); `null`
 * for one it does not know (its 401: `api_key_invalid`, `workspace_session_invalid`).
 */
export function credentialCache<In, V>(
  options: BearerKeyVerifierOptions,
  operation: Operation<z.ZodType<unknown, In>, z.ZodType<V>>,
  input: (hash: string) => In,
  invalidatedBy: (value: V, invalidation: AccessInvalidation) => boolean,
): AccessCache<V> {
  return createAccessCache<V>({
    nc: options.nc,
    ttlMs: options.ttlMs,
    subject: accessSubjects.invalidate,
    fetch: async (hash, callId) => {
      try {
        return await call(options.nc, operation, input(hash), {
          timeoutMs: options.busTimeoutMs,
          callId,
        });
      } catch (error) {
        if (error instanceof BusError && error.status === 401) return null;
        throw error;
      }
    },
    invalidatedBy,
  });
}

/**
 * Checks one kind of bearer key: shape and checksum offline, then only the key's SHA-256 goes to
 * the owning service, and its answer is cached per replica (see {@link credentialCache}).
 */
export function createBearerKeyVerifier<V extends KeyRecord, I>(
  kind: BearerKeyKind<V, I>,
  options: BearerKeyVerifierOptions,
): BearerKeyVerifier<I> {
  const cache = credentialCache(
    options,
    kind.operation,
    (hash) => ({ key_hash: hash }),
    (value, { key_ids = [], integration_id, provider_ids = [] }) =>
      key_ids.includes(value.key_id) ||
      kind.owner(value) === integration_id ||
      provider_ids.includes(kind.owner(value)),
  );
  return {
    async verify(authorization, callId) {
      const key = presentedKey(kind, authorization);
      return acceptedKey(kind, await cache.lookup(sha256Hex(key), callId));
    },
    cached: () => cache.size(),
    stop: () => cache.stop(),
  };
}
