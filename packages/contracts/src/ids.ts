import { randomBytes } from 'node:crypto';

/** Prefixes of the opaque ids that the API hands out (conventions §1). */
export const ID_PREFIXES = [
  'req',
  'msg',
  'prq',
  'pay',
  'prp',
  'mst',
  'dlv',
  'dsp',
  'job',
  'evt',
  'whe',
  'int',
  'app',
  'key',
  // Added by Handoff beyond the conventions' list: audit log entries, webhook attempts.
  'aud',
  'wha',
  // Providers, and their credentials.
  'prv',
  'pvk',
] as const;
export type IdPrefix = (typeof ID_PREFIXES)[number];

// Crockford base32, lower case: sorts the same as the time it encodes.
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

function encodeTime(ms: number): string {
  let out = '';
  let rest = ms;
  for (let i = 0; i < 10; i += 1) {
    out = ALPHABET.charAt(rest % 32) + out;
    rest = Math.floor(rest / 32);
  }
  return out;
}

function encodeRandom(bytes: Buffer): string {
  let out = '';
  for (const byte of bytes) out += ALPHABET.charAt(byte % 32);
  return out;
}

/** `<prefix>_` + 10 chars of millisecond time + 16 random chars; lexical order follows creation time. */
export function newId(prefix: IdPrefix, now: number = Date.now()): string {
  return `${prefix}_${encodeTime(now)}${encodeRandom(randomBytes(16))}`;
}

export function idPattern(prefix: IdPrefix): RegExp {
  return new RegExp(`^${prefix}_[0-9a-hjkmnp-tv-z]{26}$`);
}
