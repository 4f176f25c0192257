import { BusError, call, implement, type Endpoint } from '@handoff/bus';
import {
  digestsEqual,
  emailKey,
  generateSecret,
  newId,
  notificationOps,
  SIGN_IN_TOKEN_PREFIX,
  WORKSPACE_LIMITS,
  workspaceOps,
} from '@handoff/contracts';
import type { Logger } from '@handoff/observability';
import { pushOutbox } from '@handoff/runtime';
import { paginate } from '@handoff/store';
import type { Filter } from 'mongodb';
import type { Env as IntakeEnv } from '../env.ts';
import { providerCollections } from '../store/providers.ts';
import {
  hourOf,
  sessionView,
  workspaceCollections,
  workspaceProviderView,
  type SessionDoc,
} from '../store/workspace.ts';
import { broadcastAccessInvalidation, type AccessDeps } from './keys.ts';
import { audited } from './providers.ts';

const MINUTE_MS = 60_000;
/** How long the notifications service is given to take a sign-in mail. */
const SIGN_IN_MAIL_TIMEOUT_MS = 10_000;
/** Characters of a link's token after its prefix: 256 bits of base62. */
const TOKEN_LENGTH = 43;

export interface WorkspaceDeps extends AccessDeps {
  env: Pick<IntakeEnv, 'WORKSPACE_SESSION_TTL_MS'>;
  logger: Logger;
}

/**
 * Sign-in links and sessions of the providers' workspace. A link is made for an active provider's
 * address and mailed by the notifications service; its token (like the session's cookie value,
 * which the gateway makes) is known here only for the moment it takes to hand it over, and
 * stored as its SHA-256.
 */
export function workspaceEndpoints(deps: WorkspaceDeps): {
  endpoints: Record<string, Endpoint>;
  /** Finishes the sign-in links being made and mailed (at a stop). */
  settle(): Promise<void>;
} {
  const { links, sessions } = workspaceCollections(deps.store);
  const { providers } = providerCollections(deps.store);
  const pending = new Set<Promise<void>>();

  /** Makes and mails a link for each active provider with this address; nothing for the others. */
  const mailLinks = async (email: string) => {
    const found = await providers
      .find({ email_key: emailKey(email), status: 'active' })
      .limit(10)
      .toArray();
    for (const provider of found) {
      const now = new Date();
      const expiresAt = new Date(now.getTime() + WORKSPACE_LIMITS.signInLinkMinutes * MINUTE_MS);
      const { secret, hash } = generateSecret(SIGN_IN_TOKEN_PREFIX, TOKEN_LENGTH);
      await links.insertOne({
        _id: hash,
        provider_id: provider._id,
        created_at: now,
        expires_at: expiresAt,
        expires_hour: hourOf(expiresAt),
      });
      await call(
        deps.bus.nc,
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
      deps.logger.info({ provider_id: provider._id }, 'sign-in link sent');
    }
  };

  const endSession = async (
    id: string,
    by: NonNullable<SessionDoc['ended_by']>,
    announce?: (before: SessionDoc, after: SessionDoc) => ReturnType<typeof audited>,
  ) => {
    const ended = await deps.store.serialize(sessions, id, async () => {
      const before = await sessions.findOne({ _id: id });
      if (!before) throw new BusError('not_found', 'No such session.');
      if (before.status === 'ended') return { doc: before, message: undefined };
      const change = { status: 'ended' as const, ended_at: new Date(), ended_by: by };
      const message = announce?.(before, { ...before, ...change });
      const doc = await sessions.findOneAndUpdate(
        { _id: id, status: 'active' },
        message ? pushOutbox({ $set: change }, [message]) : { $set: change },
        { returnDocument: 'after' },
      );
      return { doc: doc ?? before, message: doc ? message : undefined };
    });
    if (ended.message) await deps.outbox.publishOrLeave(sessions, id, [ended.message]);
    // Every gateway replica drops the session at once (the broadcast names it as a key).
    await broadcastAccessInvalidation(deps.bus, { key_ids: [id] });
    return sessionView(ended.doc);
  };

  const endpoints: Record<string, Endpoint> = {
    ...implement(workspaceOps.requestLink, ({ email }) => {
      // Answered before anything is looked up: the same answer, as fast, for every address.
      const task = mailLinks(email)
        .catch((error: unknown) => {
          // The address is not logged: whether it is a provider's is what the answer hides.
          deps.logger.error({ err: error }, 'sign-in link not sent');
        })
        .finally(() => pending.delete(task));
      pending.add(task);
      return Promise.resolve({ accepted: true as const });
    }),

    ...implement(workspaceOps.redeemLink, async ({ link_hash, session_hash, user_agent }) => {
      const refused = () => new BusError('not_found', 'No usable sign-in link.');
      // Deleting it is what uses it: of two redemptions at once, one finds nothing.
      const link = await deps.store.serialize(links, link_hash, () =>
        links.findOneAndDelete({ _id: link_hash }),
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
        expires_at: new Date(now.getTime() + deps.env.WORKSPACE_SESSION_TTL_MS),
        ended_at: null,
        ended_by: null,
        user_agent: user_agent === null ? null : user_agent.slice(0, 200),
      };
      await sessions.insertOne(doc);
      return { session: sessionView(doc), provider: workspaceProviderView(provider) };
    }),

    ...implement(workspaceOps.verifySession, async ({ session_hash }) => {
      const session = await sessions.findOne({ session_hash });
      if (!session || !digestsEqual(session.session_hash, session_hash)) {
        throw new BusError('not_found', 'Unknown session.');
      }
      const provider = await providers.findOne(
        { _id: session.provider_id },
        { projection: { status: 1 } },
      );
      if (!provider) throw new BusError('not_found', 'Unknown session.');
      return {
        session_id: session._id,
        provider_id: session.provider_id,
        provider_status: provider.status,
        status: session.status,
        expires_at: session.expires_at.toISOString(),
      };
    }),

    ...implement(workspaceOps.provider, async ({ provider_id }) => {
      const provider = await providers.findOne({ _id: provider_id });
      if (!provider) throw new BusError('not_found', 'No such provider.');
      return workspaceProviderView(provider);
    }),

    ...implement(workspaceOps.endSession, async (input, { callId }) => {
      if (input.by === 'provider') {
        const own = await sessions.findOne(
          { _id: input.session_id },
          { projection: { provider_id: 1 } },
        );
        // Another provider's session looks like a missing one.
        if (own?.provider_id !== input.provider_id) {
          throw new BusError('not_found', 'No such session.');
        }
        return endSession(input.session_id, 'provider');
      }
      return endSession(input.session_id, 'staff', (before, after) =>
        audited(
          { actor: input.actor, callId },
          'provider_session.revoked',
          { type: 'provider_session', id: before._id },
          sessionView(before),
          sessionView(after),
        ),
      );
    }),

    ...implement(workspaceOps.listSessions, async ({ provider_id, status, ...page }) => {
      const filter: Filter<SessionDoc> = { provider_id };
      if (status) filter.status = status;
      const result = await paginate(sessions, filter, page);
      const now = new Date();
      // An expired session is stored as active until something ends it; it reads as ended.
      const data = result.data
        .map((doc) => sessionView(doc, now))
        .filter((view) => !status || view.status === status);
      return { object: 'list' as const, data, has_more: result.has_more };
    }),
  };

  return {
    endpoints,
    settle: async () => {
      await Promise.allSettled([...pending]);
    },
  };
}

/** Deletes the sign-in links that expired before this hour (unused ones; used ones are gone). */
export async function sweepExpiredLinks(
  deps: Pick<AccessDeps, 'store'>,
  now = new Date(),
  hoursBack = 48,
): Promise<number> {
  const { links } = workspaceCollections(deps.store);
  let deleted = 0;
  for (let hours = 1; hours <= hoursBack; hours += 1) {
    const hour = hourOf(new Date(now.getTime() - hours * 60 * MINUTE_MS));
    deleted += (await links.deleteMany({ expires_hour: hour })).deletedCount;
  }
  return deleted;
}
