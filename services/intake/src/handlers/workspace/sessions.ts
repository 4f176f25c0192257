// `workspace.verify_session`, `.provider`, `.end_session`, `.list_sessions`: the sessions a
// sign-in opens (the gateway makes the cookie and hands its SHA-256 over), and their ends.
import { BusError, implement, type Endpoint } from '@handoff/bus';
import { workspaceOps } from '@handoff/contracts';
import { digestsEqual, pushOutbox } from '@handoff/runtime';
import { paginate } from '@handoff/store';
import type { Filter } from 'mongodb';
import { sessionView, workspaceProviderView, type SessionDoc } from '../../store/workspace.ts';
import type { InputOf, IntakeContext } from '../context.ts';
import { broadcastAccessInvalidation } from '../keys.ts';
import { audited } from '../providers/audit.ts';

type Announce = (before: SessionDoc, after: SessionDoc) => ReturnType<typeof audited>;

const notFound = () => new BusError('provider_session_not_found', 'No such session.');
const unknownSession = () => new BusError('workspace_session_invalid', 'Unknown session.');

/**
 * Ends a session once, in its turn (`announce` makes the audit message of a staff revocation);
 * an ended one is left as it is. Every gateway replica drops the session at once, each time (the
 * broadcast names it as a key).
 */
async function endSession(
  ctx: IntakeContext,
  id: string,
  by: NonNullable<SessionDoc['ended_by']>,
  announce?: Announce,
) {
  const { sessions } = ctx.collections;
  const ended = await ctx.store.serialize(sessions, id, async () => {
    const before = await sessions.findOne({ _id: id });
    if (!before) throw notFound();
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
  if (ended.message) await ctx.outbox.publishOrLeave(sessions, id, [ended.message]);
  await broadcastAccessInvalidation(ctx.bus, { key_ids: [id] });
  return sessionView(ended.doc);
}

/** A provider signs itself out; a staff member revokes any session, audited. */
async function endSessionAs(
  ctx: IntakeContext,
  input: InputOf<typeof workspaceOps.endSession>,
  callId: string | null,
) {
  if (input.by === 'provider') {
    const own = await ctx.collections.sessions.findOne(
      { _id: input.session_id },
      { projection: { provider_id: 1 } },
    );
    // Another provider's session looks like a missing one.
    if (own?.provider_id !== input.provider_id) throw notFound();
    return endSession(ctx, input.session_id, 'provider');
  }
  return endSession(ctx, input.session_id, 'staff', (before, after) =>
    audited(
      { actor: input.actor, callId },
      'provider_session.revoked',
      { type: 'provider_session', id: before._id },
      sessionView(before),
      sessionView(after),
    ),
  );
}

async function verifySession(ctx: IntakeContext, sessionHash: string) {
  const session = await ctx.collections.sessions.findOne({ session_hash: sessionHash });
  if (!session || !digestsEqual(session.session_hash, sessionHash)) throw unknownSession();
  const provider = await ctx.collections.providers.findOne(
    { _id: session.provider_id },
    { projection: { status: 1 } },
  );
  if (!provider) throw unknownSession();
  return {
    session_id: session._id,
    provider_id: session.provider_id,
    provider_status: provider.status,
    status: session.status,
    expires_at: session.expires_at.toISOString(),
  };
}

export function sessionEndpoints(ctx: IntakeContext): Record<string, Endpoint> {
  const { providers, sessions } = ctx.collections;
  return {
    ...implement(workspaceOps.verifySession, ({ session_hash }) =>
      verifySession(ctx, session_hash),
    ),

    ...implement(workspaceOps.provider, async ({ provider_id }) => {
      const provider = await providers.findOne({ _id: provider_id });
      if (!provider) throw new BusError('provider_not_found', 'No such provider.');
      return workspaceProviderView(provider);
    }),

    ...implement(workspaceOps.endSession, (input, { callId }) => endSessionAs(ctx, input, callId)),

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
}
