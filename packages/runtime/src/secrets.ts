import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';
import {
  AGENT_KEY_PATTERN,
  API_KEY_PREFIX,
  TEST_API_KEY_PREFIX,
  PROVIDER_KEY_PATTERN,
  PROVIDER_KEY_PREFIX,
} from '@handoff/contracts';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Uniformly random base62 text (rejection-free: `randomInt` is unbiased). */
export function randomBase62(length: number): string {
  let out = '';
  for (let i = 0; i < length; i += 1) out += BASE62.charAt(randomInt(62));
  return out;
}

function base62Fixed(value: number, width: number): string {
  let out = '';
  let rest = value;
  for (let i = 0; i < width; i += 1) {
    out = BASE62.charAt(rest % 62) + out;
    rest = Math.floor(rest / 62);
  }
  return out;
}

function checksum(body: string): string {
  return base62Fixed(crc32(body), 6);
}

export interface GeneratedKey {
  key: string;
  hash: string;
  prefix: string;
  last4: string;
}

function generateChecksummedKey(prefix: string): GeneratedKey {
  const body = `${prefix}${randomBase62(30)}`;
  const key = `${body}${checksum(body)}`;
  return {
    key,
    hash: sha256Hex(key),
    prefix: key.slice(0, prefix.length + 4),
    last4: key.slice(-4),
  };
}

function isWellFormedKey(candidate: string, pattern: RegExp): boolean {
  if (!pattern.test(candidate)) return false;
  return checksum(candidate.slice(0, -6)) === candidate.slice(-6);
}

/** A new agent key: `hk_live_` + 30 random base62 + 6 base62 of the CRC32 of what precedes them. */
export function generateApiKey(): GeneratedKey {
  return generateChecksummedKey(API_KEY_PREFIX);
}

/** A new test agent key: `hk_test_`, then the same shape and checksum as a live key. */
export function generateTestApiKey(): GeneratedKey {
  return generateChecksummedKey(TEST_API_KEY_PREFIX);
}

/** A new provider key, shaped like an agent key: `hpk_live_` + 30 base62 + 6 base62 CRC32. */
export function generateProviderKey(): GeneratedKey {
  return generateChecksummedKey(PROVIDER_KEY_PREFIX);
}

/** Shape and checksum of an agent key, live or test, offline: garbage and typos are refused without a lookup. */
export function isWellFormedApiKey(candidate: string): boolean {
  return isWellFormedKey(candidate, AGENT_KEY_PATTERN);
}

export function isWellFormedProviderKey(candidate: string): boolean {
  return isWellFormedKey(candidate, PROVIDER_KEY_PATTERN);
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** Compares two hex digests in constant time (both are SHA-256, so lengths only differ on garbage). */
export function digestsEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}

/** A secret shown once: `<prefix>_` + base62. */
export function generateSecret(prefix: string, length: number): { secret: string; hash: string } {
  const secret = `${prefix}_${randomBase62(length)}`;
  return { secret, hash: sha256Hex(secret) };
}
