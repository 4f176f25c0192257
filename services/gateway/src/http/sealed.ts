import {
  createCipheriv,
  createDecipheriv,
  hkdfSync,
  randomBytes,
  type KeyObject,
} from 'node:crypto';

/**
 * AES-256-GCM for what the gateway keeps but must not be able to show in clear: `iv.tag.data`,
 * each part base64url. `aad`, when given, binds the sealed text to where it is kept (its record's
 * key), so a sealed value moved elsewhere does not open.
 */
export function seal(key: Buffer | KeyObject, plaintext: string, aad?: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  if (aad !== undefined) cipher.setAAD(Buffer.from(aad));
  const sealed = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), sealed].map((part) => part.toString('base64url')).join('.');
}

/** The text {@link seal} sealed under the same key (and `aad`); throws when it does not open. */
export function open(key: Buffer | KeyObject, sealed: string, aad?: string): string {
  const [iv, tag, data] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
  if (!iv || !tag || !data) throw new Error('malformed sealed value');
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  if (aad !== undefined) decipher.setAAD(Buffer.from(aad));
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
}

/**
 * Replayed bodies are kept encrypted under a key derived from the caller's Idempotency-Key,
 * which is never stored (records are found by its hash). Some answers carry a secret shown only
 * once (a request token, an agent key); whoever reads the idempotency store cannot read them,
 * while the caller who retries with the same key gets the same answer. Clients should use
 * high-entropy keys (a UUIDv4), as every idempotency guide asks.
 */
function keyFor(idempotencyKey: string, scope: string): Buffer {
  return Buffer.from(hkdfSync('sha256', idempotencyKey, scope, 'handoff idempotent replay v1', 32));
}

export function sealBody(idempotencyKey: string, scope: string, body: unknown): string {
  return seal(keyFor(idempotencyKey, scope), JSON.stringify(body));
}

export function openBody(idempotencyKey: string, scope: string, sealed: string): unknown {
  return JSON.parse(open(keyFor(idempotencyKey, scope), sealed));
}
