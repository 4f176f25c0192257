import { SESSION_TOKEN_PREFIX, workspaceOps, type SessionVerification } from '@handoff/contracts';
import { digestsEqual, sha256Hex } from '@handoff/runtime';
import type { Response } from 'express';
import { HttpError } from '../http/errors.ts';
import { credentialCache, type BearerKeyVerifierOptions } from './bearer-keys.ts';

/**
 * The providers' workspace session: a random value (`hws_…`) in an HttpOnly, SameSite=Strict
 * cookie, checked like a provider key (only its SHA-256 goes to intake, the answer is cached per
 * replica and dropped by the access broadcast that a sign-out, a staff revocation or the
 * provider's suspension sends).
 */

/** The cookie's name over plain http (development). */
export const SESSION_COOKIE = 'handoff_session';
/**
 * Its name when it is `Secure`: a browser keeps a `__Host-` cookie only when it is Secure, has
 * `Path=/` and no `Domain`, so no subdomain or plain-http page can plant or shadow it.
 */
export const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;

const SESSION_SHAPE = new RegExp(`^${SESSION_TOKEN_PREFIX}_[0-9A-Za-z]{43}$`);

/** The session token in a `Cookie` header, either name; undefined when there is none. */
export function sessionTokenOf(cookieHeader: string | undefined): string | undefined {
  if (!cookieHeader) return undefined;
  for (const part of cookieHeader.split(';')) {
    const at = part.indexOf('=');
    if (at < 0) continue;
    const name = part.slice(0, at).trim();
    if (name === SECURE_SESSION_COOKIE || name === SESSION_COOKIE) {
      const value = part.slice(at + 1).trim();
      if (value) return value;
    }
  }
  return undefined;
}

/**
 * The CSRF token of a session: derived from its secret, so it needs no storage, and telling it to
 * the page reveals nothing of the cookie (SHA-256 is not reversed). A page of another origin can
 * neither read it nor, with SameSite=Strict, send the cookie.
 */
export function csrfTokenOf(sessionToken: string): string {
  return sha256Hex(`handoff-csrf:${sessionToken}`);
}

/** What a route learns of a caller signed in to the workspace. */
export interface SessionIdentity {
  session_id: string;
  provider_id: string;
  expires_at: string;
  csrf_token: string;
}

const refused = (detail: string) => new HttpError('workspace_session_invalid', detail);

export interface SessionVerifier {
  /** The signed-in provider, or the 401 `workspace_session_invalid`. */
  verify(token: string, callId: string): Promise<SessionIdentity>;
  cached(): number;
  stop(): void;
}

export function createSessionVerifier(options: BearerKeyVerifierOptions): SessionVerifier {
  const cache = credentialCache(
    options,
    workspaceOps.verifySession,
    (hash) => ({ session_hash: hash }),
    // A sign-out or revocation names the session among `key_ids`; a suspension the provider.
    (value: SessionVerification, { key_ids = [], provider_ids = [] }) =>
      key_ids.includes(value.session_id) || provider_ids.includes(value.provider_id),
  );
  return {
    async verify(token, callId) {
      if (!SESSION_SHAPE.test(token)) throw refused('The workspace session is not valid; sign in.');
      const hash = sha256Hex(token);
      const value = await cache.lookup(hash, callId);
      if (
        !value ||
        value.status !== 'active' ||
        value.provider_status !== 'active' ||
        Date.parse(value.expires_at) <= Date.now()
      ) {
        throw refused('The workspace session has ended; sign in again.');
      }
      return {
        session_id: value.session_id,
        provider_id: value.provider_id,
        expires_at: value.expires_at,
        csrf_token: csrfTokenOf(token),
      };
    },
    cached: () => cache.size(),
    stop: () => cache.stop(),
  };
}

/**
 * Refuses a state-changing call of a session that lacks its CSRF token, or that a browser says
 * came from elsewhere (`Origin`, `Sec-Fetch-Site`): SameSite=Strict already keeps the cookie off
 * other sites' requests, and this holds even where a browser or a sibling origin would not.
 */
export function checkCsrf(
  session: SessionIdentity,
  request: { header(name: string): string | undefined; origin: string },
): void {
  const site = request.header('sec-fetch-site');
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    throw new HttpError('csrf_token_invalid', 'This call came from another site.');
  }
  const origin = request.header('origin');
  if (origin !== undefined && origin !== request.origin) {
    throw new HttpError('csrf_token_invalid', 'This call came from another origin.');
  }
  const presented = request.header('x-csrf-token') ?? '';
  if (!/^[0-9a-f]{64}$/.test(presented) || !digestsEqual(presented, session.csrf_token)) {
    throw new HttpError(
      'csrf_token_invalid',
      'Send the session’s `csrf_token` in `X-CSRF-Token` with every change.',
    );
  }
}

/** Sets the session cookie: HttpOnly, SameSite=Strict, `Secure` (and `__Host-`) when `secure`. */
export function setSessionCookie(
  res: Response,
  token: string,
  expiresAt: Date,
  secure: boolean,
): void {
  res.cookie(secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'strict',
    secure,
    path: '/',
    expires: expiresAt,
  });
}

/** Clears the session cookie under both names (a sign-out, or a session that no longer works). */
export function clearSessionCookie(res: Response, secure: boolean): void {
  for (const name of [SECURE_SESSION_COOKIE, SESSION_COOKIE]) {
    const isSecure = name === SECURE_SESSION_COOKIE || secure;
    res.clearCookie(name, { httpOnly: true, sameSite: 'strict', secure: isSecure, path: '/' });
  }
}
