// The files' download URLs: capabilities the gateway signs (HMAC-SHA256) and checks in constant
// time, short-lived, naming the file and which service keeps it (its purpose). The key is
// FILE_URLS_KEY, shared by every replica; without it, one made at start (this process only).
import type { FilePurpose } from '@handoff/contracts';
import type { Logger } from '@handoff/observability';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export interface SignedFile {
  fileId: string;
  purpose: FilePurpose;
}

export interface FileUrls {
  /** The download URL of a file at `origin`, and when it stops working. */
  sign(origin: string, file: SignedFile): { url: string; expiresAt: Date };
  /** The file a URL's parts name, or undefined when they are altered, expired or malformed. */
  verify(parts: {
    fileId: string;
    purpose: string;
    expires: string;
    signature: string;
  }): (SignedFile & { expiresAt: Date }) | undefined;
}

const PURPOSES: readonly FilePurpose[] = ['message_attachment', 'deliverable'];

export function createFileUrls(options: {
  keyBase64: string | undefined;
  ttlSeconds: number;
  logger?: Logger;
  now?: () => number;
}): FileUrls {
  const now = options.now ?? Date.now;
  let key: Buffer;
  if (options.keyBase64 === undefined) {
    options.logger?.warn(
      'FILE_URLS_KEY is not set: download URLs work on this gateway process only; set it for several replicas',
    );
    key = randomBytes(32);
  } else {
    key = Buffer.from(options.keyBase64, 'base64');
  }
  const mac = (fileId: string, purpose: string, expires: string) =>
    createHmac('sha256', key)
      .update(`handoff-file-url.v1\n${fileId}\n${purpose}\n${expires}`)
      .digest();

  return {
    sign(origin, file) {
      const expires = Math.floor(now() / 1_000) + options.ttlSeconds;
      const signature = mac(file.fileId, file.purpose, String(expires)).toString('base64url');
      const query = new URLSearchParams({
        purpose: file.purpose,
        expires: String(expires),
        signature,
      });
      return {
        url: `${origin}/v1/files/${encodeURIComponent(file.fileId)}/content?${query.toString()}`,
        expiresAt: new Date(expires * 1_000),
      };
    },
    verify({ fileId, purpose, expires, signature }) {
      if (!/^[0-9]{1,12}$/.test(expires)) return undefined;
      const given = Buffer.from(signature, 'base64url');
      const expected = mac(fileId, purpose, expires);
      // Compared before anything else about the URL is told, and in constant time.
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
      const expiresAt = new Date(Number(expires) * 1_000);
      if (expiresAt.getTime() <= now()) return undefined;
      const known = PURPOSES.find((candidate) => candidate === purpose);
      return known === undefined ? undefined : { fileId, purpose: known, expiresAt };
    },
  };
}
