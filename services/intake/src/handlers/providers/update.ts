// `providers.update`: staff change a provider's details or suspend and reactivate it.
import { BusError, implement, type Endpoint } from '@handoff/bus';
import { emailKey, providerOps } from '@handoff/contracts';
import { pushOutbox } from '@handoff/runtime';
import { byIdWhere } from '@handoff/store';
import { providerSnapshot, type ProviderDoc } from '../../store/providers.ts';
import { endProviderSessions } from '../../store/workspace.ts';
import type { InputOf, IntakeContext } from '../context.ts';
import { broadcastAccessInvalidation } from '../keys.ts';
import { audited } from './audit.ts';
import { findProvider, providerWithKeys } from './lookups.ts';

const MAX_ATTEMPTS = 20;

type ProviderPatch = InputOf<typeof providerOps.update>['patch'];

/** The fields a patch sets, with the address's lookup key beside a new address. */
function changeOf(patch: ProviderPatch): Partial<ProviderDoc> {
  return {
    ...(patch.name === undefined ? {} : { name: patch.name }),
    ...(patch.email === undefined ? {} : { email: patch.email, email_key: emailKey(patch.email) }),
    ...(patch.categories === undefined ? {} : { categories: patch.categories }),
    ...(patch.status === undefined ? {} : { status: patch.status }),
    ...(patch.capacity === undefined ? {} : { capacity: patch.capacity }),
    ...(patch.languages === undefined ? {} : { languages: patch.languages }),
    ...(patch.availability === undefined ? {} : { availability: patch.availability }),
    updated_at: new Date(),
  };
}

/** How the audit log names a change: a change of status is a suspension or a reactivation. */
function auditAction(before: ProviderDoc, after: ProviderDoc): string {
  if (after.status === before.status) return 'provider.updated';
  return after.status === 'suspended' ? 'provider.suspended' : 'provider.reactivated';
}

/** Writes the patch with its audit message, in the provider's turn. */
function writeChange(
  ctx: IntakeContext,
  id: string,
  patch: ProviderPatch,
  who: { actor: string; callId: string | null },
) {
  return ctx.store.serialize(ctx.collections.providers, id, async () => {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const before = await findProvider(ctx, id);
      const change = changeOf(patch);
      const after: ProviderDoc = { ...before, ...change };
      const message = audited(
        who,
        auditAction(before, after),
        { type: 'provider', id },
        providerSnapshot(before),
        providerSnapshot(after),
      );
      // The old `updated_at` makes this a compare-and-set against another replica's change.
      const updated = await ctx.collections.providers.findOneAndUpdate(
        byIdWhere<ProviderDoc>(id, { updated_at: before.updated_at }),
        pushOutbox({ $set: change }, [message]),
        { returnDocument: 'after' },
      );
      if (updated) return { updated, message, statusChanged: after.status !== before.status };
    }
    throw new BusError('service_unavailable', 'The provider is changing too often; try again.');
  });
}

/**
 * Every replica drops the provider (this one before it answers: the broadcast is flushed on the
 * connection its cache listens on); a suspension also stops every key of the provider at once
 * (and a reactivation drops the cached refusals): the gateway asks again and learns the
 * provider's status. The key ids are for gateways that predate `provider_ids`. A suspension also
 * ends the provider's workspace sessions (the gateway refuses them by the provider's status
 * already; this records why they ended).
 */
async function dropEverywhere(ctx: IntakeContext, updated: ProviderDoc, statusChanged: boolean) {
  const id = updated._id;
  const keys = statusChanged
    ? await ctx.collections.providerKeys
        .find({ provider_id: id }, { projection: { _id: 1 } })
        .toArray()
    : [];
  const sessions =
    statusChanged && updated.status === 'suspended'
      ? await endProviderSessions(ctx.collections.sessions, id)
      : [];
  const dropped = [...keys.map((key) => key._id), ...sessions];
  await broadcastAccessInvalidation(ctx.bus, {
    provider_ids: [id],
    ...(dropped.length > 0 ? { key_ids: dropped } : {}),
  });
}

/**
 * Applies a patch of staff's (or of the provider's own profile: `actor` `provider:<id>`), audited,
 * and drops the provider from every cache.
 */
export async function applyProviderPatch(
  ctx: IntakeContext,
  id: string,
  patch: ProviderPatch,
  who: { actor: string; callId: string | null },
): Promise<ProviderDoc> {
  const { updated, message, statusChanged } = await writeChange(ctx, id, patch, who);
  // The caller's change is already durable; a failed publish is left to the sweep.
  await ctx.outbox.publishOrLeave(ctx.collections.providers, id, [message]);
  await dropEverywhere(ctx, updated, statusChanged);
  return updated;
}

export function providerUpdateEndpoints(ctx: IntakeContext): Record<string, Endpoint> {
  return implement(providerOps.update, async ({ id, actor, patch }, { callId }) =>
    providerWithKeys(ctx, await applyProviderPatch(ctx, id, patch, { actor, callId })),
  );
}
