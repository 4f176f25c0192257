import {
  emailKey,
  listOf,
  notificationOps,
  ProviderSession,
  SESSION_TOKEN_PREFIX,
  SessionCreate,
  SessionStatus,
  SIGN_IN_TOKEN_PREFIX,
  SignInAccepted,
  SignInAsk,
  Unsubscribe,
  Unsubscribed,
  WORKSPACE_LIMITS,
  WorkspaceSession,
  workspaceOps,
} from '@handoff/contracts';
import { generateSecret, sha256Hex } from '@handoff/runtime';
import type { Logger } from '@handoff/observability';
import { z } from 'zod';
import { clearSessionCookie, csrfTokenOf, setSessionCookie } from '../auth/workspace-sessions.ts';
import type { Env } from '../env.ts';
import { HttpError } from '../http/errors.ts';
import { defineRoute, type BaseContext, type RouteDefinition } from '../http/route.ts';
import type { RateLimiter, RateLimitPolicy } from '../ratelimit.ts';
import { Id, IdParams } from './ids.ts';
import { filteredList } from './paging.ts';
import { staffActor } from './parties.ts';

/** Characters of a session's secret after its prefix: 256 bits of base62. */
const TOKEN_LENGTH = 43;
const SIGN_IN_TOKEN = new RegExp(`^${SIGN_IN_TOKEN_PREFIX}_[0-9A-Za-z]{${TOKEN_LENGTH}}$`);

const SENT =
  'If this address belongs to a provider, a sign-in link is on its way to it. The link works ' +
  `once, for ${WORKSPACE_LIMITS.signInLinkMinutes} minutes.`;

const SESSIONS = filteredList({ status: SessionStatus.optional() });

export interface WorkspaceRouteDeps {
  env: Pick<Env, 'WORKSPACE_COOKIE_SECURE'>;
  /** Counts sign-in asks per address; without it (the document's generation) none are counted. */
  limiter?: RateLimiter;
  signInPerAddress: RateLimitPolicy;
  logger?: Logger;
}

/** Whether the session cookie of this call is `Secure`, by the setting or the call's own TLS. */
function secureCookie(env: WorkspaceRouteDeps['env'], ctx: Pick<BaseContext, 'res'>): boolean {
  if (env.WORKSPACE_COOKIE_SECURE === 'auto') return ctx.res.req.secure;
  return env.WORKSPACE_COOKIE_SECURE === 'true';
}

/**
 * The providers' workspace: sign-in by a one-time link sent by email, the session it opens, the
 * unsubscribe links of mails, and staff's view of providers' sessions.
 */
export function workspaceRoutes(deps: WorkspaceRouteDeps): RouteDefinition[] {
  return [...signInRoutes(deps), ...sessionRoutes(deps.env), ...staffSessionRoutes()];
}

/** Asking for a sign-in link, and exchanging it for a session. */
function signInRoutes(deps: WorkspaceRouteDeps): RouteDefinition[] {
  const { env } = deps;
  return [
    defineRoute({
      method: 'post',
      path: '/v1/workspace/sign-in',
      operationId: 'askForSignInLink',
      summary:
        'Ask for a sign-in link to the providers’ workspace; the same answer whether or not the address belongs to a provider',
      tags: ['workspace'],
      access: { kind: 'public', limit: 'sign_in' },
      body: SignInAsk,
      status: 202,
      response: SignInAccepted,
      handle: async (ctx) => {
        const answer = { object: 'sign_in' as const, status: 'accepted' as const, detail: SENT };
        // Past the links one address may be sent, the same answer and nothing sent: the
        // limit tells nobody whether the address is a provider's.
        const counted = await deps.limiter?.hit(
          deps.signInPerAddress,
          sha256Hex(emailKey(ctx.body.email)),
        );
        if (counted?.error) {
          deps.logger?.warn({ err: counted.error }, 'sign-in counter unavailable; failing open');
        }
        if (counted && !counted.allowed) return answer;
        await ctx.call(workspaceOps.requestLink, { email: ctx.body.email });
        return answer;
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/workspace/session',
      operationId: 'signIn',
      summary:
        'Exchange a sign-in link’s token for a workspace session (an HttpOnly cookie) and its CSRF token',
      tags: ['workspace'],
      access: { kind: 'public' },
      body: SessionCreate,
      // A replay could not set the cookie again: the link is used, so a retry signs in anew.
      idempotency: false,
      status: 201,
      response: WorkspaceSession,
      unauthorized: ['sign_in_link_invalid'],
      handle: async (ctx) => {
        // Not even shaped like one of ours: refused as intake refuses an unknown, used or expired
        // link, without asking it.
        if (!SIGN_IN_TOKEN.test(ctx.body.token)) {
          throw new HttpError(
            'sign_in_link_invalid',
            'This sign-in link was used already, has expired or is not one we sent; ask for a new one.',
          );
        }
        const { secret, hash } = generateSecret(SESSION_TOKEN_PREFIX, TOKEN_LENGTH);
        const { session, provider } = await ctx.call(workspaceOps.redeemLink, {
          link_hash: sha256Hex(ctx.body.token),
          session_hash: hash,
          user_agent: ctx.header('user-agent')?.slice(0, 200) ?? null,
        });
        setSessionCookie(ctx.res, secret, new Date(session.expires_at), secureCookie(env, ctx));
        return {
          object: 'workspace_session' as const,
          id: session.id,
          provider,
          csrf_token: csrfTokenOf(secret),
          expires_at: session.expires_at,
        };
      },
    }),
  ];
}

/** The signed-in provider's own session, and the unsubscribe links of its mails. */
function sessionRoutes(env: WorkspaceRouteDeps['env']): RouteDefinition[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/workspace/session',
      operationId: 'getWorkspaceSession',
      summary: 'The signed-in provider, its session’s end and the CSRF token its changes carry',
      tags: ['workspace'],
      access: { kind: 'workspace' },
      status: 200,
      response: WorkspaceSession,
      headers: { 'Cache-Control': 'no-store' },
      // The provider can vanish between its sign-in and this call (a suspension).
      notFound: ['provider_not_found'],
      handle: async (ctx) => ({
        object: 'workspace_session' as const,
        id: ctx.session.session_id,
        provider: await ctx.call(workspaceOps.provider, { provider_id: ctx.provider.provider_id }),
        csrf_token: ctx.session.csrf_token,
        expires_at: ctx.session.expires_at,
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/workspace/session/end',
      operationId: 'signOut',
      summary: 'Sign out: the session ends on every gateway at once and its cookie is cleared',
      tags: ['workspace'],
      access: { kind: 'workspace' },
      idempotency: false,
      status: 200,
      response: ProviderSession,
      // The session can end elsewhere (another tab, a suspension) between its check and this call.
      notFound: ['provider_session_not_found'],
      handle: async (ctx) => {
        const ended = await ctx.call(workspaceOps.endSession, {
          by: 'provider',
          session_id: ctx.session.session_id,
          provider_id: ctx.provider.provider_id,
        });
        clearSessionCookie(ctx.res, secureCookie(env, ctx));
        return ended;
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/notifications/unsubscribe',
      operationId: 'unsubscribe',
      summary:
        'Turn off one kind of email with the token of a mail’s unsubscribe link (no sign-in needed)',
      tags: ['workspace'],
      access: { kind: 'public' },
      body: Unsubscribe,
      status: 200,
      response: Unsubscribed,
      notFound: ['unsubscribe_link_invalid'],
      handle: (ctx) => ctx.call(notificationOps.unsubscribe, { token: ctx.body.token }),
    }),
  ];
}

/** Staff's view of providers' workspace sessions. */
function staffSessionRoutes(): RouteDefinition[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/staff/providers/{id}/sessions',
      operationId: 'listProviderSessions',
      summary: 'A provider’s workspace sessions, newest first, by status',
      tags: ['staff', 'provider'],
      access: { kind: 'staff' },
      params: IdParams,
      query: SESSIONS.query,
      status: 200,
      response: listOf(ProviderSession),
      handle: (ctx) =>
        ctx.call(workspaceOps.listSessions, {
          provider_id: ctx.params.id,
          ...SESSIONS.input(ctx.query),
        }),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/staff/provider-sessions/{session_id}/revoke',
      operationId: 'revokeProviderSession',
      summary: 'End a provider’s workspace session; every gateway refuses it at once',
      tags: ['staff', 'provider'],
      access: { kind: 'staff' },
      params: z.strictObject({ session_id: Id }),
      status: 200,
      response: ProviderSession,
      notFound: ['provider_session_not_found'],
      handle: (ctx) =>
        ctx.call(workspaceOps.endSession, {
          by: 'staff',
          session_id: ctx.params.session_id,
          actor: staffActor(ctx),
        }),
    }),
  ];
}
