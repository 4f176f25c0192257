// `providers.issue_key`, `.revoke_key`, `.verify_key`: a provider's keys, issued and revoked by
// staff and verified for the gateway.
import { BusError, implement, type Endpoint } from '@handoff/bus';
import { providerOps } from '@handoff/contracts';
import { generateProviderKey } from '@handoff/runtime';
import { providerKeyView } from '../../store/providers.ts';
import type { InputOf, IntakeContext } from '../context.ts';
import { issueStoredKey, revokeStoredKey, verifyStoredKey } from '../keys.ts';
import { audited } from './audit.ts';
import { findProvider, providerWithKeys } from './lookups.ts';

async function issueProviderKey(
  ctx: IntakeContext,
  { id, actor, input }: InputOf<typeof providerOps.issueKey>,
  callId: string | null,
) {
  const provider = await findProvider(ctx, id);
  if (provider.status !== 'active') {
    throw new BusError('provider_suspended', 'A suspended provider cannot be given a key.');
  }
  const generated = generateProviderKey();
  const { doc, shown } = await issueStoredKey(
    ctx,
    ctx.collections.providerKeys,
    { prefix: 'pvk', generated, expiresInDays: input.expires_in_days },
    { provider_id: id },
    (issued) =>
      audited(
        { actor, callId },
        'provider_key.issued',
        { type: 'provider_key', id: issued._id },
        null,
        providerKeyView(issued),
      ),
  );
  return {
    object: 'provider_key' as const,
    api_key: generated.key,
    key_id: doc._id,
    provider_id: id,
    ...shown,
  };
}

async function revokeProviderKey(
  ctx: IntakeContext,
  { key_id, actor }: InputOf<typeof providerOps.revokeKey>,
  callId: string | null,
) {
  const key = await revokeStoredKey(
    ctx,
    ctx.collections.providerKeys,
    key_id,
    'provider_key_not_found',
    'No such provider key.',
    (before, revokedAt) =>
      audited(
        { actor, callId },
        'provider_key.revoked',
        { type: 'provider_key', id: key_id },
        providerKeyView(before),
        providerKeyView({ ...before, revoked_at: revokedAt }),
      ),
  );
  return providerWithKeys(ctx, await findProvider(ctx, key.provider_id));
}

export function providerKeyEndpoints(ctx: IntakeContext): Record<string, Endpoint> {
  return {
    ...implement(providerOps.issueKey, (input, { callId }) => issueProviderKey(ctx, input, callId)),
    ...implement(providerOps.revokeKey, (input, { callId }) =>
      revokeProviderKey(ctx, input, callId),
    ),
    ...implement(providerOps.verifyKey, async ({ key_hash }) => {
      const { key, owner, verified } = await verifyStoredKey(
        ctx.collections.providerKeys,
        key_hash,
        (found) =>
          ctx.collections.providers.findOne(
            { _id: found.provider_id },
            { projection: { status: 1 } },
          ),
      );
      return { ...verified, provider_id: key.provider_id, provider_status: owner.status };
    }),
  };
}
