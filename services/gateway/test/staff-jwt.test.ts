import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { exportSPKI } from 'jose';
import {
  createStaffVerifier,
  type StaffVerification,
  type StaffVerifier,
} from '../src/auth/staff-jwt.ts';
import {
  createSigningKey,
  signStaffToken,
  startJwksServer,
  type JwksServer,
  type SigningKey,
} from './support/staff-tokens.ts';

const SECRET = 'a-test-secret-of-at-least-thirty-two-bytes!';
const ISSUER = 'https://id.handoff.test/';
const AUDIENCE = 'handoff-staff';

const bearer = (token: string) => `Bearer ${token}`;
const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Asserts a failure and that nothing of the token leaks into it. */
function expectFailure(
  result: StaffVerification,
  token: string,
  code: string,
  status: number,
  detail?: RegExp,
) {
  expect(result.ok).toBe(false);
  if (result.ok) return;
  expect(result.failure.code).toBe(code);
  expect(result.failure.status).toBe(status);
  if (detail) expect(result.failure.detail).toMatch(detail);
  if (token.length > 0) {
    const signature = token.split('.').pop() ?? token;
    expect(JSON.stringify(result)).not.toContain(token);
    if (signature.length > 8) expect(JSON.stringify(result)).not.toContain(signature);
  }
}

/** Presents `token` as a bearer token to `verifier` and asserts the failure (see above). */
async function expectRefused(
  verifier: StaffVerifier,
  token: string,
  code: string,
  status: number,
  detail?: RegExp,
) {
  expectFailure(await verifier(bearer(token)), token, code, status, detail);
}

describe('staff JWT with an HS256 secret', () => {
  const verify = createStaffVerifier({
    secret: SECRET,
    issuer: ISSUER,
    audience: AUDIENCE,
    clockSkewSeconds: 30,
  });
  const sign = (options: Parameters<typeof signStaffToken>[1] = {}) =>
    signStaffToken(SECRET, { issuer: ISSUER, audience: AUDIENCE, ...options });

  it('accepts a valid token and returns the subject and roles', async () => {
    const token = await sign({ sub: 'staff-42', roles: ['staff', 'payments'] });
    expect(await verify(bearer(token))).toEqual({
      ok: true,
      staff: { sub: 'staff-42', roles: ['staff', 'payments'] },
    });
  });

  it('accepts the scheme in any case and surrounding spaces', async () => {
    const token = await sign();
    expect((await verify(`  bearer   ${token} `)).ok).toBe(true);
  });

  it('refuses an expired token as expired', async () => {
    const token = await sign({ expiresInSeconds: -120 });
    await expectRefused(verify, token, 'staff_token_expired', 401, /expired/);
  });

  it('accepts a token expired within the clock skew', async () => {
    const token = await sign({ expiresInSeconds: -10 });
    expect((await verify(bearer(token))).ok).toBe(true);
  });

  it('refuses a token that is not valid yet beyond the skew', async () => {
    const nbf = Math.floor(Date.now() / 1000) + 120;
    const token = await sign({ extra: { nbf } });
    await expectRefused(verify, token, 'staff_token_invalid', 401, /not yet/);
  });

  it('refuses a wrong audience, a wrong issuer and missing ones', async () => {
    for (const [options, detail] of [
      [{ audience: 'someone-else' }, /audience/],
      [{ issuer: 'https://evil.test/' }, /issuer/],
    ] as const) {
      const token = await sign(options);
      await expectRefused(verify, token, 'staff_token_invalid', 401, detail);
    }
    const bare = await signStaffToken(SECRET);
    await expectRefused(verify, bare, 'staff_token_invalid', 401, /issuer/);
  });

  it('ignores issuer and audience when they are not configured', async () => {
    const open = createStaffVerifier({ secret: SECRET, clockSkewSeconds: 0 });
    const withOthers = await signStaffToken(SECRET, { issuer: 'anyone', audience: 'anything' });
    const without = await signStaffToken(SECRET);
    expect((await open(bearer(withOthers))).ok).toBe(true);
    expect((await open(bearer(without))).ok).toBe(true);
  });

  it('refuses a token without the staff role with 403', async () => {
    for (const roles of [null, [], ['admin'], 'staff', { staff: true }]) {
      const token = await sign({ roles });
      await expectRefused(verify, token, 'staff_role_required', 403, /staff/);
    }
  });

  it('requires a subject and an expiry', async () => {
    for (const [options, detail] of [
      [{ sub: null }, /"sub"/],
      [{ sub: '' }, /subject/],
      [{ sub: '   ' }, /subject/],
      [{ expiresInSeconds: null }, /"exp"/],
    ] as const) {
      const token = await sign(options);
      await expectRefused(verify, token, 'staff_token_invalid', 401, detail);
    }
  });

  it('refuses a token signed with another secret', async () => {
    const token = await signStaffToken('another-secret-that-is-also-long-enough!!', {
      issuer: ISSUER,
      audience: AUDIENCE,
    });
    await expectRefused(verify, token, 'staff_token_invalid', 401, /signature/);
  });

  it('refuses an unsigned (alg none) token and garbage', async () => {
    const exp = Math.floor(Date.now() / 1000) + 300;
    const claims = { sub: 'staff-1', roles: ['staff'], iss: ISSUER, aud: AUDIENCE, exp };
    const unsigned = `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(claims)}.`;
    await expectRefused(verify, unsigned, 'staff_token_invalid', 401, /algorithm/);
    for (const garbage of ['garbage', 'a.b.c', `${b64url({ alg: 'HS256' })}.e30.AAAA`]) {
      await expectRefused(verify, garbage, 'staff_token_invalid', 401, /malformed|signature/);
    }
  });

  it('refuses an agent key with a detail that says so', async () => {
    const key = 'hk_live_0123456789abcdefghijklmnopqrstuv';
    await expectRefused(verify, key, 'staff_token_invalid', 401, /agent/i);
  });

  it('asks for a token when the header is missing, blank or not a bearer token', async () => {
    for (const header of [undefined, '', '   ', 'Bearer', 'Bearer ', 'Basic dXNlcjpwYXNz', 'abc']) {
      expectFailure(await verify(header), '', 'staff_token_missing', 401);
    }
  });

  it('fails every call when nothing is configured', async () => {
    const unconfigured = createStaffVerifier({ clockSkewSeconds: 0 });
    const token = await signStaffToken(SECRET);
    for (const header of [bearer(token), undefined]) {
      const result = await unconfigured(header);
      expectFailure(result, token, 'staff_token_invalid', 401, /not configured/);
    }
  });

  it('refuses an unbounded clock skew', () => {
    for (const clockSkewSeconds of [-1, 301, Number.POSITIVE_INFINITY, Number.NaN]) {
      expect(() => createStaffVerifier({ secret: SECRET, clockSkewSeconds })).toThrow(RangeError);
    }
  });
});

describe('staff JWT with a JWKS', () => {
  let rsa: SigningKey;
  let ec: SigningKey;
  let outsider: SigningKey;
  let jwks: JwksServer;
  let verify: StaffVerifier;

  beforeAll(async () => {
    rsa = await createSigningKey('RS256', 'rsa-1');
    ec = await createSigningKey('ES256', 'ec-1');
    outsider = await createSigningKey('RS256', 'rsa-1');
    jwks = await startJwksServer([rsa.publicJwk, ec.publicJwk]);
    verify = createStaffVerifier({
      jwksUrl: jwks.url,
      // A secret configured alongside must not re-enable HS256.
      secret: SECRET,
      issuer: ISSUER,
      audience: AUDIENCE,
      clockSkewSeconds: 30,
    });
  });

  afterAll(async () => {
    await jwks.close();
  });

  const sign = (key: SigningKey, options: Parameters<typeof signStaffToken>[1] = {}) =>
    signStaffToken(key.privateKey, {
      alg: key.alg,
      kid: key.kid,
      issuer: ISSUER,
      audience: AUDIENCE,
      ...options,
    });

  it('accepts RS256 and ES256 tokens from keys in the set', async () => {
    const rsToken = await sign(rsa, { sub: 'staff-rs' });
    const esToken = await sign(ec, { sub: 'staff-es', roles: ['staff', 'support'] });
    expect(await verify(bearer(rsToken))).toEqual({
      ok: true,
      staff: { sub: 'staff-rs', roles: ['staff'] },
    });
    expect(await verify(bearer(esToken))).toEqual({
      ok: true,
      staff: { sub: 'staff-es', roles: ['staff', 'support'] },
    });
    expect(jwks.requests()).toBeGreaterThanOrEqual(1);
  });

  it('still checks expiry and roles', async () => {
    const expired = await sign(rsa, { expiresInSeconds: -120 });
    await expectRefused(verify, expired, 'staff_token_expired', 401);
    const noRole = await sign(ec, { roles: ['support'] });
    await expectRefused(verify, noRole, 'staff_role_required', 403);
  });

  it('refuses an HS256 token, even one keyed with the public key (algorithm confusion)', async () => {
    const withSecret = await signStaffToken(SECRET, { issuer: ISSUER, audience: AUDIENCE });
    await expectRefused(verify, withSecret, 'staff_token_invalid', 401, /algorithm/);
    const pem = await exportSPKI(rsa.publicKey);
    const confused = await signStaffToken(pem, {
      kid: rsa.kid,
      issuer: ISSUER,
      audience: AUDIENCE,
    });
    await expectRefused(verify, confused, 'staff_token_invalid', 401, /algorithm/);
  });

  it('refuses a token signed by a key that is not in the set', async () => {
    const sameKid = await sign(outsider);
    await expectRefused(verify, sameKid, 'staff_token_invalid', 401, /signature/);
    const unknownKid = await sign(outsider, { kid: 'rsa-unknown' });
    await expectRefused(verify, unknownKid, 'staff_token_invalid', 401, /signature/);
  });

  it('refuses tokens when the key set cannot be fetched', async () => {
    const unreachable = createStaffVerifier({
      jwksUrl: `${jwks.url}.missing`,
      clockSkewSeconds: 0,
    });
    const token = await sign(rsa);
    await expectRefused(unreachable, token, 'staff_token_invalid', 401, /could not be verified/);
  });
});
