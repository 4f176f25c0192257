// `access.keys.*`: an integration's agent keys, issued by staff (or claimed by the applicant,
// applicant.ts), revoked by staff, and verified for the gateway.
import { implement, type Endpoint } from '@handoff/bus';
import { accessOps, type IssuedKey } from '@handoff/contracts';
import { generateApiKey } from '@handoff/runtime';
import { keyView, type IntegrationDoc } from '../../store/access.ts';
import { findOr404 } from '../../store/single-document.ts';
import type { IntakeContext } from '../context.ts';
import { issueStoredKey, revokeStoredKey, verifyStoredKey } from '../keys.ts';
import { accessEvent, type Staff } from './events.ts';
import { findIntegration } from './integrations.ts';

/** A new agent key of `integration`, its secret shown in this answer only. */
export async function issueAgentKey(
  ctx: IntakeContext,
  integration: IntegrationDoc,
  expiresInDays: number | undefined,
  staff: Staff | null,
): Promise<IssuedKey> {
  const generated = generateApiKey();
  const { doc, shown } = await issueStoredKey(
    ctx,
    ctx.collections.apiKeys,
    { prefix: 'key', generated, expiresInDays },
    { integration_id: integration._id },
    (issued) =>
      accessEvent('access.key.issued', keyView(issued), staff, {
        target_type: 'api_key',
        target_id: issued._id,
        before: null,
      }),
  );
  return {
    object: 'api_key',
    api_key: generated.key,
    key_id: doc._id,
    integration_id: integration._id,
    scopes: integration.scopes,
    ...shown,
  };
}

async function revokeAgentKey(ctx: IntakeContext, keyId: string, staff: Staff) {
  const { apiKeys } = ctx.collections;
  await revokeStoredKey(ctx, apiKeys, keyId, 'key_not_found', 'No such key.', (before, revokedAt) =>
    accessEvent('access.key.revoked', keyView({ ...before, revoked_at: revokedAt }), staff, {
      target_type: 'api_key',
      target_id: keyId,
      before: keyView(before),
    }),
  );
  return keyView(await findOr404(apiKeys, keyId, 'key_not_found', 'No such key.'));
}

export function agentKeyEndpoints(ctx: IntakeContext): Record<string, Endpoint> {
  return {
    ...implement(
      accessOps.issueKey,
      async ({ integration_id, expires_in_days, actor }, { callId: call_id }) =>
        issueAgentKey(ctx, await findIntegration(ctx, integration_id), expires_in_days, {
          actor,
          call_id,
        }),
    ),

    ...implement(accessOps.revokeKey, async ({ key_id, actor }, { callId: call_id }) =>
      revokeAgentKey(ctx, key_id, { actor, call_id }),
    ),

    ...implement(accessOps.verifyKey, async ({ key_hash }) => {
      const { key, owner, verified } = await verifyStoredKey(
        ctx.collections.apiKeys,
        key_hash,
        (found) => ctx.collections.integrations.findOne({ _id: found.integration_id }),
      );
      return { ...verified, integration_id: key.integration_id, scopes: owner.scopes };
    }),
  };
}
