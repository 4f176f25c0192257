// Standard Webhooks v1 signatures (conventions §3): HMAC-SHA256 of "{id}.{timestamp}.{body}"
// keyed with the base64-decoded part of a `whsec_` secret, sent as `v1,<base64>`, one per live
// secret, space separated. Any Standard Webhooks verifier accepts the result unchanged.
import { boundedCache } from '@handoff/runtime';
import { createHmac, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';
export const USER_AGENT = 'Handoff-Webhooks/1.0';

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The HMAC key of a secret: the bytes its base64 part decodes to. */
export function secretKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  if (encoded === '' || !BASE64.test(encoded)) {
    throw new Error('a webhook secret must be "whsec_" followed by base64');
  }
  return Buffer.from(encoded, 'base64');
}

/** HMAC keys of the secrets in use, so a delivery does not decode and import its key again. */
const KEYS_HELD = 10_000;
const keys = boundedCache<string, KeyObject>({ max: KEYS_HELD });

function hmacKey(secret: string): KeyObject {
  const held = keys.get(secret);
  if (held) return held;
  const key = createSecretKey(secretKey(secret));
  keys.set(secret, key);
  return key;
}

/** A new secret: `whsec_` + base64 of 32 random bytes. */
export function generateWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

/** The `webhook-signature` value: `v1,<base64 HMAC-SHA256>` per secret, space separated. */
export function signPayload(
  secrets: readonly string[],
  id: string,
  timestampSeconds: number,
  body: string,
): string {
  if (secrets.length === 0) throw new Error('at least one secret is needed to sign');
  if (!Number.isSafeInteger(timestampSeconds) || timestampSeconds < 0) {
    throw new Error('the timestamp must be whole unix seconds');
  }
  const content = `${id}.${timestampSeconds}.${body}`;
  return secrets
    .map((secret) => `v1,${createHmac('sha256', hmacKey(secret)).update(content).digest('base64')}`)
    .join(' ');
}

export interface DeliveryHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
  'content-type': 'application/json';
  'user-agent': string;
}

/** The headers of one delivery attempt (the sender adds `content-length`). */
export function deliveryHeaders(
  secrets: readonly string[],
  id: string,
  timestampSeconds: number,
  body: string,
): DeliveryHeaders {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': signPayload(secrets, id, timestampSeconds, body),
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
  };
}
