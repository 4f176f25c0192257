// Unsubscribe links: each names one provider and one kind, signed so that nobody can make one for
// another provider or kind. The link is the only credential an unsubscribe needs (a person clicks
// it from the mail without signing in), so a token is nothing but what it names and its signature.
import { PROVIDER_MAIL_KINDS, type ProviderMailKind } from '@handoff/contracts';
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface UnsubscribeClaim {
  providerId: string;
  kind: ProviderMailKind;
}

const SEPARATOR = '.';

function signature(key: Buffer, payload: string): Buffer {
  return createHmac('sha256', key).update(`unsubscribe:${payload}`).digest();
}

/** `base64url(provider id + ":" + kind) . base64url(HMAC-SHA256)`. */
export function signUnsubscribe(key: Buffer, claim: UnsubscribeClaim): string {
  const payload = `${claim.providerId}:${claim.kind}`;
  return [
    Buffer.from(payload, 'utf8').toString('base64url'),
    signature(key, payload).toString('base64url'),
  ].join(SEPARATOR);
}

/** What a token names, or null when it is not one this key signed (compared in constant time). */
export function verifyUnsubscribe(key: Buffer, token: string): UnsubscribeClaim | null {
  const parts = token.split(SEPARATOR);
  if (parts.length !== 2) return null;
  const [encoded = '', signed = ''] = parts;
  const payload = Buffer.from(encoded, 'base64url').toString('utf8');
  const given = Buffer.from(signed, 'base64url');
  const expected = signature(key, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const split = payload.lastIndexOf(':');
  if (split <= 0) return null;
  const providerId = payload.slice(0, split);
  const kind = PROVIDER_MAIL_KINDS.find((candidate) => candidate === payload.slice(split + 1));
  return kind ? { providerId, kind } : null;
}
