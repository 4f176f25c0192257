// The files' signed download URLs and the byte ranges of a download, as pure functions.
import { describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { rangeOf } from '../src/files/send.ts';
import { createFileUrls } from '../src/files/urls.ts';

const key = randomBytes(32).toString('base64');

function partsOf(url: string) {
  const parsed = new URL(url);
  const fileId = decodeURIComponent(parsed.pathname.split('/')[3] ?? '');
  return {
    fileId,
    purpose: parsed.searchParams.get('purpose') ?? '',
    expires: parsed.searchParams.get('expires') ?? '',
    signature: parsed.searchParams.get('signature') ?? '',
  };
}

describe('download URLs', () => {
  let now = Date.parse('2026-12-06T10:00:00Z');
  const urls = createFileUrls({ keyBase64: key, ttlSeconds: 900, now: () => now });
  const signed = urls.sign('https://api.example', { fileId: 'file_abc', purpose: 'deliverable' });

  it('signs a URL that verifies until it expires, then never again', () => {
    expect(signed.url).toMatch(
      /^https:\/\/api\.example\/v1\/files\/file_abc\/content\?purpose=deliverable&expires=\d+&signature=/,
    );
    expect(signed.expiresAt.toISOString()).toBe('2026-12-06T10:15:00.000Z');
    expect(urls.verify(partsOf(signed.url))).toMatchObject({
      fileId: 'file_abc',
      purpose: 'deliverable',
    });
    now += 900_000;
    expect(urls.verify(partsOf(signed.url))).toBeUndefined();
    now -= 900_000;
  });

  it('refuses any part altered: the file, the purpose, the expiry, the signature', () => {
    const parts = partsOf(signed.url);
    const later = String(Number(parts.expires) + 3600);
    for (const altered of [
      { ...parts, fileId: 'file_abd' },
      { ...parts, purpose: 'message_attachment' },
      { ...parts, expires: later },
      { ...parts, signature: `${parts.signature.slice(0, -2)}AA` },
      { ...parts, signature: '' },
      { ...parts, expires: 'soon' },
    ]) {
      expect(urls.verify(altered)).toBeUndefined();
    }
  });

  it('refuses a URL signed under another key (another deployment)', () => {
    const other = createFileUrls({
      keyBase64: randomBytes(32).toString('base64'),
      ttlSeconds: 900,
      now: () => now,
    });
    expect(other.verify(partsOf(signed.url))).toBeUndefined();
  });
});

describe('byte ranges', () => {
  it.each([
    ['bytes=0-99', { start: 0, end: 99 }],
    ['bytes=100-', { start: 100, end: 999 }],
    ['bytes=-10', { start: 990, end: 999 }],
    ['bytes=-5000', { start: 0, end: 999 }],
    ['bytes=900-5000', { start: 900, end: 999 }],
    ['bytes=1000-', 'unsatisfiable'],
    ['bytes=-0', 'unsatisfiable'],
    ['bytes=5-1', undefined],
    ['bytes=0-1,5-6', undefined],
    ['items=0-1', undefined],
    ['bytes=-', undefined],
  ])('%s of 1000 bytes', (header, expected) => {
    expect(rangeOf(header, 1000, true)).toEqual(expected);
  });

  it('serves the whole file when If-Range no longer matches', () => {
    expect(rangeOf('bytes=0-1', 1000, false)).toBeUndefined();
  });
});
