import { describe, expect, it } from '@jest/globals';
import { digestsEqual, generateApiKey, isWellFormedApiKey, sha256Hex } from '../src/secrets.ts';

describe('agent keys', () => {
  it('have the documented shape and a valid checksum', () => {
    const { key, hash, prefix, last4 } = generateApiKey();
    expect(key).toMatch(/^hk_live_[0-9A-Za-z]{36}$/);
    expect(isWellFormedApiKey(key)).toBe(true);
    expect(hash).toBe(sha256Hex(key));
    expect(prefix).toBe(key.slice(0, 12));
    expect(last4).toBe(key.slice(-4));
  });

  it('are refused offline when a character is wrong or the shape is off', () => {
    const { key } = generateApiKey();
    const typo = key.slice(0, 20) + (key[20] === 'a' ? 'b' : 'a') + key.slice(21);
    expect(isWellFormedApiKey(typo)).toBe(false);
    expect(isWellFormedApiKey(key.slice(0, -1))).toBe(false);
    expect(isWellFormedApiKey(`hk_test_${key.slice(8)}`)).toBe(false);
    expect(isWellFormedApiKey('')).toBe(false);
  });

  it('do not repeat', () => {
    const keys = new Set(Array.from({ length: 2_000 }, () => generateApiKey().key));
    expect(keys.size).toBe(2_000);
  });
});

describe('digestsEqual', () => {
  it('compares digests, not garbage', () => {
    const a = sha256Hex('a');
    expect(digestsEqual(a, sha256Hex('a'))).toBe(true);
    expect(digestsEqual(a, sha256Hex('b'))).toBe(false);
    expect(digestsEqual(a, 'zz')).toBe(false);
    expect(digestsEqual('', '')).toBe(false);
  });
});
