import {
  createRemoteJWKSet,
  errors,
  jwtVerify,
  type JWSAlgorithm,
  type JWTVerifyGetKey,
  type JWTVerifyOptions,
} from 'jose';

export interface StaffJwtConfig {
  /** HS256 shared secret (`STAFF_JWT_SECRET`). Ignored when `jwksUrl` is set. */
  secret?: string;
  /** `STAFF_JWKS_URL`: only asymmetric algorithms are accepted, so an HS256 token is refused. */
  jwksUrl?: string;
  /** Checked when set. */
  issuer?: string;
  /** Checked when set. */
  audience?: string;
  /** Clock tolerance for `exp`/`nbf`/`iat`, at most {@link MAX_CLOCK_SKEW_SECONDS}. */
  clockSkewSeconds: number;
}

export interface StaffIdentity {
  sub: string;
  roles: string[];
}

export type StaffAuthFailure =
  | {
      code: 'staff_token_missing' | 'staff_token_invalid' | 'staff_token_expired';
      status: 401;
      detail: string;
    }
  | { code: 'staff_role_required'; status: 403; detail: string };

export type StaffVerification =
  { ok: true; staff: StaffIdentity } | { ok: false; failure: StaffAuthFailure };

export type StaffVerifier = (authorization: string | undefined) => Promise<StaffVerification>;

export const MAX_CLOCK_SKEW_SECONDS = 300;
export const STAFF_ROLE = 'staff';

const HMAC_ALGORITHMS: JWSAlgorithm[] = ['HS256'];
const ASYMMETRIC_ALGORITHMS: JWSAlgorithm[] = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
];

const AGENT_KEY_PREFIX = 'hk_live_';
const PROVIDER_KEY_PREFIX = 'hpk_live_';
const BEARER = /^Bearer[ \t]+([^\s]+)[ \t]*$/i;

/**
 * Builds the check for the `Authorization` header of staff routes. The token itself never appears
 * in a failure's detail, so callers may log or return failures as they are.
 */
export function createStaffVerifier(config: StaffJwtConfig): StaffVerifier {
  const skew = config.clockSkewSeconds;
  if (!Number.isFinite(skew) || skew < 0 || skew > MAX_CLOCK_SKEW_SECONDS) {
    throw new RangeError(`clockSkewSeconds must be between 0 and ${MAX_CLOCK_SKEW_SECONDS}`);
  }
  const key = verificationKey(config);
  const options: JWTVerifyOptions = {
    algorithms: config.jwksUrl ? ASYMMETRIC_ALGORITHMS : HMAC_ALGORITHMS,
    requiredClaims: ['sub', 'exp'],
    clockTolerance: skew,
    ...(config.issuer === undefined ? {} : { issuer: config.issuer }),
    ...(config.audience === undefined ? {} : { audience: config.audience }),
  };

  return async (authorization) => {
    if (!key) return fail('staff_token_invalid', 'staff authentication is not configured');
    const value = authorization?.trim() ?? '';
    const token = BEARER.exec(value)?.[1];
    if (!token) {
      if (value === '' || /^bearer$/i.test(value)) {
        return fail('staff_token_missing', 'a staff bearer token is required');
      }
      // Never quotes the header: only whether a scheme was given.
      return fail(
        'staff_token_missing',
        !/\s/.test(value)
          ? 'the Authorization header lacks the `Bearer` scheme; send `Authorization: Bearer <staff JWT>`'
          : 'the Authorization header uses another scheme; send `Authorization: Bearer <staff JWT>`',
      );
    }
    if (token.startsWith(AGENT_KEY_PREFIX)) {
      return fail('staff_token_invalid', 'agent API keys are not accepted on staff routes');
    }
    if (token.startsWith(PROVIDER_KEY_PREFIX)) {
      return fail('staff_token_invalid', 'provider keys are not accepted on staff routes');
    }

    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(token, key, options));
    } catch (error) {
      return verificationFailure(error);
    }

    const { sub, roles } = payload;
    if (typeof sub !== 'string' || sub.trim() === '') {
      return fail('staff_token_invalid', 'token subject is missing');
    }
    if (!Array.isArray(roles) || !roles.includes(STAFF_ROLE)) {
      return {
        ok: false,
        failure: {
          code: 'staff_role_required',
          status: 403,
          detail: `the "${STAFF_ROLE}" role is required`,
        },
      };
    }
    return {
      ok: true,
      staff: { sub, roles: roles.filter((role): role is string => typeof role === 'string') },
    };
  };
}

function verificationKey(config: StaffJwtConfig): Uint8Array | JWTVerifyGetKey | undefined {
  if (config.jwksUrl) return createRemoteJWKSet(new URL(config.jwksUrl));
  if (config.secret) return new TextEncoder().encode(config.secret);
  return undefined;
}

function fail(
  code: Exclude<StaffAuthFailure['code'], 'staff_role_required'>,
  detail: string,
): StaffVerification {
  return { ok: false, failure: { code, status: 401, detail } };
}

// Details come from a fixed list, never from the error message, which may quote token contents.
function verificationFailure(error: unknown): StaffVerification {
  if (error instanceof errors.JWTExpired) return fail('staff_token_expired', 'token has expired');
  if (error instanceof errors.JWTClaimValidationFailed) {
    switch (error.claim) {
      case 'iss':
        return fail('staff_token_invalid', 'token issuer is not accepted');
      case 'aud':
        return fail('staff_token_invalid', 'token audience is not accepted');
      case 'nbf':
        return fail('staff_token_invalid', 'token is not yet valid');
      default:
        return fail('staff_token_invalid', `token claim "${error.claim}" is missing or invalid`);
    }
  }
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported) {
    return fail('staff_token_invalid', 'token algorithm is not accepted');
  }
  if (
    error instanceof errors.JWSSignatureVerificationFailed ||
    error instanceof errors.JWKSNoMatchingKey ||
    error instanceof errors.JWKSMultipleMatchingKeys
  ) {
    return fail('staff_token_invalid', 'token signature is not valid');
  }
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid) {
    return fail('staff_token_invalid', 'token is malformed');
  }
  // Includes a JWKS endpoint that cannot be reached or answers badly.
  return fail('staff_token_invalid', 'token could not be verified');
}
