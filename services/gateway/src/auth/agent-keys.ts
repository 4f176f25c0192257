import { BusError, call } from '@handoff/bus';
import {
  AccessInvalidation,
  accessOps,
  accessSubjects,
  isWellFormedApiKey,
  sha256Hex,
  type KeyVerification,
  type Scope,
} from '@handoff/contracts';
import type { Logger } from '@handoff/observability';
import type { NatsConnection } from '@nats-io/transport-node';
import { HttpError } from '../http/errors.ts';

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

interface Entry {
  value: KeyVerification | null;
  expiresAt: number;
}

/** Unknown keys are remembered briefly, so a flood of one bad key does not flood the bus. */
const NEGATIVE_TTL_MS = 5_000;
const MAX_ENTRIES = 50_000;
const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

const challenge = { 'WWW-Authenticate': 'Bearer realm="handoff"' };
const missing = () =>
  new HttpError(401, 'api_key_missing', 'Send the agent key as `Authorization: Bearer <key>`.', {
    headers: challenge,
  });
// Unknown, revoked and malformed keys get the same answer: nothing to learn from it.
const invalid = () =>
  new HttpError(401, 'api_key_invalid', 'The agent key is not valid.', {
    headers: { 'WWW-Authenticate': 'Bearer realm="handoff", error="invalid_token"' },
  });
const expired = () =>
  new HttpError(401, 'api_key_expired', 'The agent key has expired; ask staff for a new one.', {
    headers: { 'WWW-Authenticate': 'Bearer realm="handoff", error="invalid_token"' },
  });

/**
 * Checks agent keys: shape and checksum offline, then the key's SHA-256 against the intake
 * service, cached per replica. Revocations and scope changes reach every replica at once through
 * a broadcast on the bus; a replica that reconnects to NATS forgets everything it cached.
 */
export function createKeyVerifier(options: KeyVerifierOptions) {
  const cache = new Map<string, Entry>();
  const pending = new Map<string, Promise<KeyVerification | null>>();

  const subscription = options.nc.subscribe(accessSubjects.invalidate, {
    callback: (error, msg) => {
      if (error) return;
      const parsed = AccessInvalidation.safeParse(msg.json());
      if (!parsed.success) return;
      const { key_ids = [], integration_id } = parsed.data;
      for (const [hash, entry] of cache) {
        const value = entry.value;
        if (!value) continue;
        if (key_ids.includes(value.key_id) || value.integration_id === integration_id)
          cache.delete(hash);
      }
      pending.clear();
    },
  });
  void (async () => {
    for await (const status of options.nc.status()) {
      if (status.type === 'reconnect') cache.clear();
    }
  })();

  const lookup = async (hash: string, requestId: string): Promise<KeyVerification | null> => {
    const cached = cache.get(hash);
    if (cached && cached.expiresAt > Date.now()) return cached.value;
    const inFlight = pending.get(hash);
    if (inFlight) return inFlight;
    const fetching = (async () => {
      try {
        const value = await call(
          options.nc,
          accessOps.verifyKey,
          { key_hash: hash },
          {
            timeoutMs: options.busTimeoutMs,
            requestId,
          },
        );
        return value;
      } catch (error) {
        if (error instanceof BusError && error.code === 'not_found') return null;
        throw error;
      }
    })();
    pending.set(hash, fetching);
    try {
      const value = await fetching;
      if (pending.get(hash) === fetching) {
        if (cache.size >= MAX_ENTRIES) cache.clear();
        cache.set(hash, {
          value,
          expiresAt: Date.now() + (value ? options.ttlMs : NEGATIVE_TTL_MS),
        });
      }
      return value;
    } finally {
      if (pending.get(hash) === fetching) pending.delete(hash);
    }
  };

  return {
    /** Resolves to the calling integration, or throws the 401 the caller gets. */
    async verify(authorization: string | undefined, requestId: string): Promise<AgentIdentity> {
      if (!authorization?.trim()) throw missing();
      const key = BEARER.exec(authorization)?.[1];
      if (!key || !isWellFormedApiKey(key)) throw invalid();
      const value = await lookup(sha256Hex(key), requestId);
      if (!value || value.status === 'revoked') throw invalid();
      if (value.status === 'expired' || Date.parse(value.expires_at) <= Date.now()) throw expired();
      return {
        key_id: value.key_id,
        integration_id: value.integration_id,
        scopes: value.scopes,
        expires_at: value.expires_at,
      };
    },
    cached: () => cache.size,
    stop: () => subscription.unsubscribe(),
  };
}
export type KeyVerifier = ReturnType<typeof createKeyVerifier>;
