import { type KeyVerification, type ProviderKeyVerification } from '@handoff/contracts';
import { generateApiKey, generateProviderKey } from '@handoff/runtime';
import { describe, expect, it } from '@jest/globals';
import { acceptedKey, agentKeys, presentedKey, providerKeys } from '../src/auth/bearer-keys.ts';
import { HttpError } from '../src/http/errors.ts';

/** The answer a check throws, as the caller would see its code, detail and challenge. */
function refusal(check: () => unknown) {
  try {
    check();
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    return {
      status: error.status,
      code: error.code,
      detail: error.message,
      challenge: error.headers['WWW-Authenticate'],
    };
  }
  throw new Error('not refused');
}

const later = new Date(Date.now() + 3_600_000).toISOString();
const earlier = new Date(Date.now() - 1_000).toISOString();

describe('one bearer-key check for agent and provider keys', () => {
  it('asks for the missing key in the words and realm of its kind', () => {
    expect(refusal(() => presentedKey(agentKeys, undefined))).toEqual({
      status: 401,
      code: 'api_key_missing',
      detail: 'Send the agent key as `Authorization: Bearer <key>`.',
      challenge: 'Bearer realm="handoff"',
    });
    expect(refusal(() => presentedKey(providerKeys, 'Bearer '))).toEqual({
      status: 401,
      code: 'api_key_missing',
      detail: 'Send the provider key as `Authorization: Bearer hpk_live_...`.',
      challenge: 'Bearer realm="handoff-provider"',
    });
  });

  it('names the other kind of key when it is sent by mistake', () => {
    const agentKey = generateApiKey().key;
    const providerKey = generateProviderKey().key;
    expect(refusal(() => presentedKey(agentKeys, `Bearer ${providerKey}`))).toMatchObject({
      code: 'api_key_invalid',
      detail: 'This route takes an agent key (`hk_live_...`), not a provider key.',
      challenge: 'Bearer realm="handoff", error="invalid_token"',
    });
    expect(refusal(() => presentedKey(providerKeys, `Bearer ${agentKey}`))).toMatchObject({
      code: 'api_key_invalid',
      detail: 'This route takes a provider key (`hpk_live_...`), not an agent key.',
      challenge: 'Bearer realm="handoff-provider", error="invalid_token"',
    });
  });

  it('refuses a malformed key or another scheme offline, and passes a well-formed key on', () => {
    const agentKey = generateApiKey().key;
    const typo = `${agentKey.slice(0, -1)}${agentKey.endsWith('a') ? 'b' : 'a'}`;
    expect(refusal(() => presentedKey(agentKeys, `Bearer ${typo}`)).detail).toBe(
      'The agent key is malformed (not `hk_live_` with a valid checksum); check that it was copied whole.',
    );
    expect(refusal(() => presentedKey(providerKeys, `Basic ${agentKey}`)).detail).toBe(
      'The Authorization header uses another scheme; send `Authorization: Bearer hpk_live_...`.',
    );
    expect(presentedKey(agentKeys, `bearer ${agentKey} `)).toBe(agentKey);
  });

  it('accepts a stored key only while it is active, unexpired and usable', () => {
    const agent: KeyVerification = {
      key_id: 'key_1',
      integration_id: 'int_1',
      livemode: true,
      scopes: ['requests:read'],
      status: 'active',
      expires_at: later,
    };
    expect(acceptedKey(agentKeys, agent)).toEqual({
      key_id: 'key_1',
      integration_id: 'int_1',
      livemode: true,
      scopes: ['requests:read'],
      expires_at: later,
    });
    expect(refusal(() => acceptedKey(agentKeys, null)).detail).toBe('The agent key is not valid.');
    expect(refusal(() => acceptedKey(agentKeys, { ...agent, status: 'revoked' })).code).toBe(
      'api_key_invalid',
    );
    expect(refusal(() => acceptedKey(agentKeys, { ...agent, expires_at: earlier }))).toMatchObject({
      code: 'api_key_expired',
      detail: 'The agent key has expired; ask staff for a new one.',
    });

    const provider: ProviderKeyVerification = {
      key_id: 'pvk_1',
      provider_id: 'prv_1',
      provider_status: 'active',
      status: 'active',
      expires_at: later,
    };
    expect(acceptedKey(providerKeys, provider)).toEqual({
      key_id: 'pvk_1',
      provider_id: 'prv_1',
      expires_at: later,
    });
    // A suspended provider's key is refused like an unknown one, even once it has expired.
    const suspended = { ...provider, provider_status: 'suspended' as const, expires_at: earlier };
    expect(refusal(() => acceptedKey(providerKeys, suspended))).toMatchObject({
      code: 'api_key_invalid',
      detail: 'The provider key is not valid.',
    });
  });
});
