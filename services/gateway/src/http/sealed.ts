import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

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
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(idempotencyKey, scope), iv);
  const sealed = Buffer.concat([cipher.update(JSON.stringify(body), 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), sealed].map((part) => part.toString('base64url')).join('.');
}

export function openBody(idempotencyKey: string, scope: string, sealed: string): unknown {
  const [iv, tag, data] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
  if (!iv || !tag || !data) throw new Error('malformed sealed body');
  const decipher = createDecipheriv('aes-256-gcm', keyFor(idempotencyKey, scope), iv);
  decipher.setAuthTag(tag);
  return JSON.parse(Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8'));
}
