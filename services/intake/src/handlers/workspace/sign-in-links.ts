// `workspace.request_link`, `.redeem_link`: a provider asks for a sign-in link by its address and
// redeems it for a session.
import { BusError, call, implement, type Endpoint } from '@handoff/bus';
import {
  emailKey,
  newId,
  notificationOps,
  SIGN_IN_TOKEN_PREFIX,
  WORKSPACE_LIMITS,
  workspaceOps,
} from '@handoff/contracts';
import { digestsEqual, generateSecret } from '@handoff/runtime';
import type { ProviderDoc } from '../../store/providers.ts';
import {
  hourOf,
  sessionView,
  workspaceProviderView,
  type SessionDoc,
} from '../../store/workspace.ts';
import type { InputOf, IntakeContext } from '../context.ts';

/** How long a link may be used after it is made. */
const LINK_LIFETIME_MS = WORKSPACE_LIMITS.signInLinkMinutes * 60_000;
/** How long the notifications service is given to take a sign-in mail. */
const SIGN_IN_MAIL_TIMEOUT_MS = 10_000;
/** Characters of a link's token after its prefix: 256 bits of base62. */
const TOKEN_LENGTH = 43;

/** Stores a new link of `provider` by its token's hash and has it mailed with the token. */
async function mailLink(ctx: IntakeContext, provider: ProviderDoc) {
  const now = new Date();
  const expiresAt = new Date(now.getTime() + LINK_LIFETIME_MS);
  const { secret, hash } = generateSecret(SIGN_IN_TOKEN_PREFIX, TOKEN_LENGTH);
  await ctx.collections.signInLinks.insertOne({
    _id: hash,
    provider_id: provider._id,
    created_at: now,
    expires_at: expiresAt,
    expires_hour: hourOf(expiresAt),
  });
  await call(
    ctx.bus.nc,
    notificationOps.sendSignIn,
    {
      provider_id: provider._id,
      to: provider.email,
      name: provider.name,
      token: secret,
      expires_at: expiresAt.toISOString(),
    },
    { timeoutMs: SIGN_IN_MAIL_TIMEOUT_MS },
  );
  ctx.logger.info({ provider_id: provider._id }, 'sign-in link sent');
}

/** Makes and mails a link for each active provider with this address; nothing for the others. */
async function mailLinks(ctx: IntakeContext, email: string) {
  const found = await ctx.collections.providers
    .find({ email_key: emailKey(email), status: 'active' })
    .limit(10)
    .toArray();
  for (const provider of found) await mailLink(ctx, provider);
}

const refused = () =>
  new BusError(
    'sign_in_link_invalid',
    'This sign-in link was used already, has expired or is not one we sent; ask for a new one.',
  );

/** Uses the link up and opens a session of its provider, if the provider is still active. */
async function redeemLink(
  ctx: IntakeContext,
  { link_hash, session_hash, user_agent }: InputOf<typeof workspaceOps.redeemLink>,
) {
  const { signInLinks, providers, sessions } = ctx.collections;
  // Deleting it is what uses it: of two redemptions at once, one finds nothing.
  const link = await ctx.store.serialize(signInLinks, link_hash, () =>
    signInLinks.findOneAndDelete({ _id: link_hash }),
  );
  if (!link || !digestsEqual(link._id, link_hash) || link.expires_at <= new Date()) {
    throw refused();
  }
  const provider = await providers.findOne({ _id: link.provider_id });
  if (!provider || provider.status !== 'active') throw refused();
  const now = new Date();
  const doc: SessionDoc = {
    _id: newId('pss'),
    session_hash,
    provider_id: provider._id,
    status: 'active',
    created_at: now,
    expires_at: new Date(now.getTime() + ctx.env.WORKSPACE_SESSION_TTL_MS),
    ended_at: null,
    ended_by: null,
    user_agent: user_agent === null ? null : user_agent.slice(0, 200),
  };
  await sessions.insertOne(doc);
  return { session: sessionView(doc), provider: workspaceProviderView(provider) };
}

/** Endpoints with work that outlives their answers, and how to wait for it. */
export interface SettlingEndpoints {
  endpoints: Record<string, Endpoint>;
  /** Finishes the sign-in links being made and mailed (at a stop). */
  settle(): Promise<void>;
}

/**
 * A link is made for an active provider's address and mailed by the notifications service; its
 * token is known here only for the moment it takes to hand it over, and stored as its SHA-256.
 */
export function signInLinkEndpoints(ctx: IntakeContext): SettlingEndpoints {
  const pending = new Set<Promise<void>>();
  return {
    endpoints: {
      ...implement(workspaceOps.requestLink, ({ email }) => {
        // Answered before anything is looked up: the same answer, as fast, for every address.
        const task = mailLinks(ctx, email)
          .catch((error: unknown) => {
            // The address is not logged: whether it is a provider's is what the answer hides.
            ctx.logger.error({ err: error }, 'sign-in link not sent');
          })
          .finally(() => pending.delete(task));
        pending.add(task);
        return Promise.resolve({ accepted: true as const });
      }),

      ...implement(workspaceOps.redeemLink, (input) => redeemLink(ctx, input)),
    },
    settle: async () => {
      await Promise.allSettled([...pending]);
    },
  };
}
