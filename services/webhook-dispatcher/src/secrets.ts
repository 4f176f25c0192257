import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Endpoint signing secrets must be usable to sign, so they cannot be stored hashed; they are
 * stored encrypted (AES-256-GCM) with WEBHOOK_SECRETS_KEY, which lives outside the database.
 */
export function secretBox(keyBase64: string) {
  const key = Buffer.from(keyBase64, 'base64');
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
      const [version, iv, tag, data] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || !data) throw new Error('not a sealed secret');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([
        decipher.update(Buffer.from(data, 'base64url')),
        decipher.final(),
      ]).toString('utf8');
    },
  };
}
export type SecretBox = ReturnType<typeof secretBox>;
