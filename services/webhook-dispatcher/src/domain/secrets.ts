import { boundedCache } from '@handoff/runtime';
import { createCipheriv, createDecipheriv, createSecretKey, randomBytes } from 'node:crypto';

/** Opened secrets kept in memory (the endpoints being delivered to), least recently used out. */
const OPENED_HELD = 10_000;

/**
 * Endpoint signing secrets must be usable to sign, so they cannot be stored hashed; they are
 * stored encrypted (AES-256-GCM) with WEBHOOK_SECRETS_KEY, which lives outside the database.
 *
 * Every delivery attempt needs its endpoint's secret in the clear; opening it each time was 5 %
 * of the dispatcher's CPU under load, so an opened secret is kept, by its sealed form (a rotated
 * secret is a new sealed value, so nothing kept is ever stale).
 */
export function secretBox(keyBase64: string) {
  const key = createSecretKey(Buffer.from(keyBase64, 'base64'));
  const opened = boundedCache<string, string>({ max: OPENED_HELD });
  const decrypt = (sealed: string): string => {
    const [version, iv, tag, data] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || !data) throw new Error('not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([
      decipher.update(Buffer.from(data, 'base64url')),
      decipher.final(),
    ]).toString('utf8');
  };
  return {
    seal(secret: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const data = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      return ['v1', iv, cipher.getAuthTag(), data]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
        .join('.');
    },
    open(sealed: string): string {
      const held = opened.get(sealed);
      if (held !== undefined) return held;
      const secret = decrypt(sealed);
      opened.set(sealed, secret);
      return secret;
    },
  };
}
export type SecretBox = ReturnType<typeof secretBox>;
