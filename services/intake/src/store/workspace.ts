// The providers' workspace: one-time sign-in links and the sessions they open. Both are found by
// the SHA-256 of their secret; neither secret is ever stored.
import {
  emailKey,
  type ProviderSession,
  type SessionEndedBy,
  type WorkspaceProvider,
} from '@handoff/contracts';
import type { OutboxFields } from '@handoff/runtime';
import type { Store } from '@handoff/store';
import type { Collection } from 'mongodb';
import type { z } from 'zod';
import type { ProviderDoc } from './providers.ts';

export interface SignInLinkDoc {
  /** SHA-256 of the link's token. */
  _id: string;
  provider_id: string;
  created_at: Date;
  expires_at: Date;
  /**
   * The UTC hour after which the link is of no use (`2026-12-05T15`): unused links are deleted by
   * the hour, with an equality on this field (FerretDB 1.x has no TTL indexes).
   */
  expires_hour: string;
}

export interface SessionDoc extends OutboxFields {
  _id: string;
  /** SHA-256 of the session's cookie value. */
  session_hash: string;
  provider_id: string;
  status: 'active' | 'ended';
  created_at: Date;
  expires_at: Date;
  ended_at: Date | null;
  ended_by: z.infer<typeof SessionEndedBy> | null;
  user_agent: string | null;
}

/** The hour bucket of a time, as `expires_hour` holds it. */
export const hourOf = (at: Date): string => at.toISOString().slice(0, 13);

/** A session as staff see it: one whose time ran out reads as ended by its expiry. */
export function sessionView(doc: SessionDoc, now = new Date()): ProviderSession {
  const expired = doc.status === 'active' && doc.expires_at <= now;
  return {
    object: 'provider_session',
    id: doc._id,
    provider_id: doc.provider_id,
    status: expired ? 'ended' : doc.status,
    created_at: doc.created_at.toISOString(),
    expires_at: doc.expires_at.toISOString(),
    ended_at: expired ? doc.expires_at.toISOString() : (doc.ended_at?.toISOString() ?? null),
    ended_by: expired ? 'expiry' : doc.ended_by,
    user_agent: doc.user_agent,
  };
}

export function workspaceProviderView(doc: ProviderDoc): z.infer<typeof WorkspaceProvider> {
  return { id: doc._id, name: doc.name, email: doc.email, categories: doc.categories };
}

/**
 * Gives providers stored before the workspace their `email_key`, so sign-in finds them by an
 * indexed equality. Runs at intake's start until a pass finds nothing (`adoptOnce`).
 */
export async function adoptProviderEmailKeys(store: Store): Promise<number> {
  const providers = store.db.collection<ProviderDoc>('providers');
  const older = await providers
    .find({ email_key: { $exists: false } }, { projection: { email: 1 } })
    .toArray();
  for (const doc of older) {
    await store.serialize(providers, doc._id, () =>
      providers.updateOne(
        { _id: doc._id, email_key: { $exists: false } },
        { $set: { email_key: emailKey(doc.email) } },
      ),
    );
  }
  return older.length;
}

/**
 * Ends every active session of a provider, as its suspension does: the gateway refuses them at
 * once anyway (it checks the provider's status), and this records why they ended.
 */
export async function endProviderSessions(
  sessions: Collection<SessionDoc>,
  providerId: string,
): Promise<string[]> {
  const active = await sessions
    .find({ provider_id: providerId, status: 'active' }, { projection: { _id: 1 } })
    .toArray();
  if (active.length === 0) return [];
  await sessions.updateMany(
    { provider_id: providerId, status: 'active' },
    { $set: { status: 'ended', ended_at: new Date(), ended_by: 'suspension' } },
  );
  return active.map((session) => session._id);
}
