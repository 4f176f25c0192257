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
  // A provider's signed-in session in the workspace.
  'pss',
  // An offer of a request to a provider (automatic routing).
  'off',
  // A test clock (test mode).
  'clk',
  // A file: a message's attachment or a deliverable's.
  'file',
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

/**
 * Random bytes drawn from the CSPRNG 4 KiB at a time: one call into it per 256 ids rather than
 * one per id (it was 2 % of a service's CPU under load). Each byte is used once. Web Crypto, so
 * ids can be made in a browser as in Node.
 */
const pool = new Uint8Array(4096);
let drawn = pool.length;

function encodeRandom(count: number): string {
  if (drawn + count > pool.length) {
    globalThis.crypto.getRandomValues(pool);
    drawn = 0;
  }
  let out = '';
  // 256 is a multiple of 32: every character is equally likely.
  for (let i = drawn; i < drawn + count; i += 1) out += ALPHABET.charAt((pool[i] ?? 0) % 32);
  drawn += count;
  return out;
}

/** `<prefix>_` + 10 chars of millisecond time + 16 random chars; lexical order follows creation time. */
export function newId(prefix: IdPrefix, now: number = Date.now()): string {
  return `${prefix}_${encodeTime(now)}${encodeRandom(16)}`;
}

export function idPattern(prefix: IdPrefix): RegExp {
  return new RegExp(`^${prefix}_[0-9a-hjkmnp-tv-z]{26}$`);
}
