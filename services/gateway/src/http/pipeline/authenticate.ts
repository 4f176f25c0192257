import type { Scope } from '@handoff/contracts';
import type { AgentIdentity, BearerKeyVerifier, ProviderIdentity } from '../../auth/bearer-keys.ts';
import type { AuthFailureGuard } from '../../auth/client-guard.ts';
import type { StaffVerifier } from '../../auth/staff-jwt.ts';
import {
  checkCsrf,
  sessionTokenOf,
  type SessionIdentity,
  type SessionVerifier,
} from '../../auth/workspace-sessions.ts';
import type { RateLimitPolicy } from '../../ratelimit.ts';
import { fromBusError, HttpError } from '../errors.ts';
import type { Access, Caller, CallerOf } from '../route.ts';
import type { Exchange } from './exchange.ts';
import { rateLimit, type RateLimitDeps } from './rate-limit.ts';

export interface AuthDeps extends RateLimitDeps {
  keys: BearerKeyVerifier<AgentIdentity>;
  providers: BearerKeyVerifier<ProviderIdentity>;
  staff: StaffVerifier;
  sessions: SessionVerifier;
  guard: AuthFailureGuard;
  policies: { key: RateLimitPolicy; public: RateLimitPolicy; signIn: RateLimitPolicy };
}

/**
 * The caller, by the credentials of the route's access kind, counted against its rate limit; or
 * the refusal. A credential is checked before any failure budget (only failed attempts count
 * against it), and a caller without credentials is limited by its address.
 */
export function authenticate(access: Access, exchange: Exchange, deps: AuthDeps): Promise<Caller> {
  switch (access.kind) {
    case 'public':
      return asPublic(exchange, deps, access.limit);
    case 'applicant':
      return asApplicant(exchange, deps);
    case 'staff':
      return asStaff(exchange, deps);
    case 'provider':
      return asProvider(exchange, deps);
    case 'workspace':
      return asWorkspace(exchange, deps);
    case 'agent':
      return asAgent(access.scopes, exchange, deps);
  }
}

type As<K extends keyof CallerOf> = { kind: K } & CallerOf[K];

async function asPublic(
  exchange: Exchange,
  deps: AuthDeps,
  limit: 'sign_in' | undefined,
): Promise<As<'public'>> {
  const policy = limit === 'sign_in' ? deps.policies.signIn : deps.policies.public;
  await rateLimit(policy, `ip:${exchange.address}`, exchange, deps);
  return { kind: 'public' };
}

async function asApplicant(exchange: Exchange, deps: AuthDeps): Promise<As<'applicant'>> {
  await rateLimit(deps.policies.public, `ip:${exchange.address}`, exchange, deps);
  const secret = exchange.header('x-application-secret')?.trim();
  if (!secret) {
    const blocked = await deps.guard.failed(exchange.address);
    if (blocked) throw blocked;
    throw new HttpError(
      'application_secret_missing',
      'Send the application secret in `X-Application-Secret`.',
    );
  }
  return { kind: 'applicant', applicationSecret: secret };
}

async function asStaff(exchange: Exchange, deps: AuthDeps): Promise<As<'staff'>> {
  const verified = await deps.staff(exchange.header('authorization'));
  if (!verified.ok) {
    const { failure } = verified;
    if (failure.status === 401) {
      const blocked = await deps.guard.failed(exchange.address);
      if (blocked) throw blocked;
    }
    throw new HttpError(failure.code, failure.detail, {
      headers: failure.status === 401 ? { 'WWW-Authenticate': 'Bearer realm="handoff-staff"' } : {},
    });
  }
  await rateLimit(deps.policies.key, `staff:${verified.staff.sub}`, exchange, deps);
  return { kind: 'staff', staff: verified.staff };
}

async function asProvider(exchange: Exchange, deps: AuthDeps): Promise<As<'provider'>> {
  // Without an Authorization header, a workspace session may stand for the provider.
  const token =
    exchange.header('authorization') === undefined
      ? sessionTokenOf(exchange.header('cookie'))
      : undefined;
  if (token !== undefined) {
    const session = await sessionCaller(token, exchange, deps);
    return { kind: 'provider', provider: sessionProvider(session), session };
  }
  const provider = await bearerCaller(deps.providers, exchange.header('authorization'), {
    address: exchange.address,
    guard: deps.guard,
    callId: exchange.callId,
  });
  await rateLimit(deps.policies.key, provider.key_id, exchange, deps);
  return { kind: 'provider', provider };
}

async function asWorkspace(exchange: Exchange, deps: AuthDeps): Promise<As<'workspace'>> {
  const token = sessionTokenOf(exchange.header('cookie'));
  if (token === undefined) {
    throw new HttpError('workspace_session_invalid', 'Sign in to the workspace first.');
  }
  const session = await sessionCaller(token, exchange, deps);
  return { kind: 'workspace', provider: sessionProvider(session), session, sessionToken: token };
}

/** A session stands for its provider as a key does; its id is the key id (rate limits, logs). */
const sessionProvider = (session: SessionIdentity) => ({
  key_id: session.session_id,
  provider_id: session.provider_id,
  expires_at: session.expires_at,
});

/**
 * The session a cookie holds, counted against its rate limit, with the CSRF checks of a change; a
 * refused cookie counts against the client's address like a refused key.
 */
async function sessionCaller(
  token: string,
  exchange: Exchange,
  deps: AuthDeps,
): Promise<SessionIdentity> {
  let session: SessionIdentity;
  try {
    session = await deps.sessions.verify(token, exchange.callId);
  } catch (error) {
    if (error instanceof HttpError && error.status === 401) {
      const blocked = await deps.guard.failed(exchange.address);
      if (blocked) throw blocked;
    }
    throw fromBusError(error);
  }
  await rateLimit(deps.policies.key, session.session_id, exchange, deps);
  if (exchange.method !== 'GET' && exchange.method !== 'HEAD') checkCsrf(session, exchange);
  return session;
}

async function asAgent(
  scopes: readonly Scope[],
  exchange: Exchange,
  deps: AuthDeps,
): Promise<As<'agent'>> {
  const agent = await bearerCaller(deps.keys, exchange.header('authorization'), {
    address: exchange.address,
    guard: deps.guard,
    callId: exchange.callId,
  });
  await rateLimit(deps.policies.key, agent.key_id, exchange, deps);
  requireScopes(scopes, agent.scopes);
  return { kind: 'agent', agent };
}

/**
 * The caller of a bearer key. A refused key counts against the client's address and the key's
 * prefix, and over that budget the answer is the 429 instead of the 401.
 */
export async function bearerCaller<I>(
  verifier: BearerKeyVerifier<I>,
  authorization: string | undefined,
  client: { address: string; guard: AuthFailureGuard; callId: string },
): Promise<I> {
  try {
    return await verifier.verify(authorization, client.callId);
  } catch (error) {
    if (error instanceof HttpError && error.status === 401) {
      const blocked = await client.guard.failed(client.address, authorization);
      if (blocked) throw blocked;
    }
    throw fromBusError(error);
  }
}

/** 403 `insufficient_scope` unless the key has every scope the route needs. */
export function requireScopes(needed: readonly Scope[], held: readonly Scope[]): void {
  const missing = needed.filter((scope) => !held.includes(scope));
  if (missing.length === 0) return;
  throw new HttpError('insufficient_scope', `This call needs the scope(s): ${needed.join(', ')}.`, {
    extra: { required_scopes: needed, missing_scopes: missing },
    headers: {
      'WWW-Authenticate': `Bearer realm="handoff", error="insufficient_scope", scope="${needed.join(' ')}"`,
    },
  });
}
