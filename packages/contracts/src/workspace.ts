import { z } from 'zod';
import { BusPage, listOf, Sha256Hex, Timestamp } from './common.ts';
import { ProviderRequest, ProviderStatus } from './engagement.ts';
import { REQUEST_LIMITS } from './limits.ts';
import { intakeOp } from './service-ops.ts';
import { emailAddress } from './text.ts';

/**
 * The providers' workspace (`/workspace`): passwordless sign-in by a one-time link sent by email,
 * then a server-side session held in an HttpOnly cookie. Intake owns the links and the sessions,
 * beside the providers and their keys; both are stored only as SHA-256.
 */
export const WORKSPACE_LIMITS = {
  /** A sign-in link works once, within this many minutes of being sent. */
  signInLinkMinutes: 15,
  /** Sign-in links sent to one address within `signInWindowMinutes`; further asks send nothing. */
  signInPerAddress: 5,
  signInWindowMinutes: 15,
} as const;

/** The prefix of a sign-in link's token (`hsl_` + 43 base62), never stored but as its SHA-256. */
export const SIGN_IN_TOKEN_PREFIX = 'hsl';
/** The prefix of a session's cookie value (`hws_` + 43 base62), stored only as its SHA-256. */
export const SESSION_TOKEN_PREFIX = 'hws';

/**
 * How an email address is compared wherever one is matched or counted: trimmed and lower case
 * (sign-in finds a provider by it, the sign-in cap counts by it, a bounce marks it).
 */
export const emailKey = (email: string): string => email.trim().toLowerCase();

/** `POST /v1/workspace/sign-in`: the address a provider signs in with. */
export const SignInAsk = z.strictObject({ email: emailAddress(REQUEST_LIMITS.email) });

/** The one answer to a sign-in ask, whether or not the address belongs to a provider. */
export const SignInAccepted = z.object({
  object: z.literal('sign_in'),
  status: z.literal('accepted'),
  detail: z.string(),
});

/** `POST /v1/workspace/session`: the token of a sign-in link, exchanged for a session. */
export const SessionCreate = z.strictObject({ token: z.string().min(1).max(200) });

export const SessionStatus = z.enum(['active', 'ended']);
/**
 * Why a session ended: the provider signed out, staff revoked it, the provider was suspended, or
 * its time ran out.
 */
export const SessionEndedBy = z.enum(['provider', 'staff', 'suspension', 'expiry']);

/** A provider's session as staff see it (never its token). */
export const ProviderSession = z.object({
  object: z.literal('provider_session'),
  id: z.string(),
  provider_id: z.string(),
  status: SessionStatus,
  created_at: Timestamp,
  expires_at: Timestamp,
  ended_at: Timestamp.nullable(),
  ended_by: SessionEndedBy.nullable(),
  /** The browser that signed in, as it named itself (first 200 characters). */
  user_agent: z.string().nullable(),
});
export type ProviderSession = z.infer<typeof ProviderSession>;

/** The signed-in provider, as the workspace shows it. */
export const WorkspaceProvider = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  categories: z.array(z.string()),
});

/**
 * The caller's own session in the workspace: who is signed in, until when, and the CSRF token that
 * every state-changing call of this session must carry in `X-CSRF-Token`.
 */
export const WorkspaceSession = z.object({
  object: z.literal('workspace_session'),
  id: z.string(),
  provider: WorkspaceProvider,
  csrf_token: z.string(),
  expires_at: Timestamp,
});
export type WorkspaceSession = z.infer<typeof WorkspaceSession>;

/** What the gateway learns when it checks a session cookie (by its SHA-256). */
export const SessionVerification = z.object({
  session_id: z.string(),
  provider_id: z.string(),
  provider_status: ProviderStatus,
  status: SessionStatus,
  expires_at: Timestamp,
});
export type SessionVerification = z.infer<typeof SessionVerification>;

/** A request in the provider's inbox: as the provider may see it, with its unread messages. */
export const ProviderInboxItem = ProviderRequest.extend({
  unread_messages: z
    .number()
    .int()
    .min(0)
    .nullable()
    .meta({
      description:
        'Messages from the customer or staff since the provider last read the request ' +
        '(`POST /v1/provider/requests/{id}/read`); counted for requests routed to it or engaged ' +
        'with it, null for marketplace requests and when the count is unavailable.',
    }),
});

const Id = z.string().max(64);

/** Intake's operations on sign-in links and sessions. */
export const workspaceOps = {
  /**
   * A sign-in link for the active provider(s) with this address: answered at once and alike for
   * every address; the link is made and mailed afterwards (nothing at all for an unknown one).
   */
  requestLink: intakeOp(
    'workspace.request_link',
    z.object({ email: z.string().max(REQUEST_LIMITS.email) }),
    z.object({ accepted: z.literal(true) }),
  ),
  /**
   * Uses a link (by its token's SHA-256) once and opens a session under `session_hash`; `not_found`
   * alike for an unknown, used or expired link and for a provider that is no longer active.
   */
  redeemLink: intakeOp(
    'workspace.redeem_link',
    z.object({
      link_hash: Sha256Hex,
      session_hash: Sha256Hex,
      user_agent: z.string().max(200).nullable(),
    }),
    z.object({ session: ProviderSession, provider: WorkspaceProvider }),
  ),
  /** `not_found` for an unknown session; an ended or expired one comes back as such. */
  verifySession: intakeOp(
    'workspace.verify_session',
    z.object({ session_hash: Sha256Hex }),
    SessionVerification,
  ),
  /** The session's provider as the workspace shows it (the session's own read). */
  provider: intakeOp('workspace.provider', z.object({ provider_id: Id }), WorkspaceProvider),
  /**
   * Ends a session: the provider signing out (`provider_id` must own it) or staff revoking it
   * (audited). Idempotent: an ended session stays as it ended.
   */
  endSession: intakeOp(
    'workspace.end_session',
    z.discriminatedUnion('by', [
      z.object({ by: z.literal('provider'), session_id: Id, provider_id: Id }),
      z.object({ by: z.literal('staff'), session_id: Id, actor: z.string().min(1) }),
    ]),
    ProviderSession,
  ),
  /** A provider's sessions, newest first (staff). */
  listSessions: intakeOp(
    'workspace.list_sessions',
    BusPage.extend({ provider_id: Id, status: SessionStatus.optional() }),
    listOf(ProviderSession),
  ),
} as const;
