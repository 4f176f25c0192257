// `access.integrations.*`: staff read an integration with its keys and change its scopes.
import { BusError, implement, type Endpoint } from '@handoff/bus';
import { accessOps, Integration } from '@handoff/contracts';
import { pushOutbox } from '@handoff/runtime';
import { paginate } from '@handoff/store';
import { integrationView, type IntegrationDoc } from '../../store/access.ts';
import { findOr404 } from '../../store/single-document.ts';
import type { IntakeContext } from '../context.ts';
import { broadcastAccessInvalidation } from '../keys.ts';
import { accessEvent, type Staff } from './events.ts';

const IntegrationSnapshot = Integration.omit({ keys: true });

export const findIntegration = (ctx: IntakeContext, id: string) =>
  findOr404(ctx.collections.integrations, id, 'integration_not_found', 'No such integration.');

async function integrationWithKeys(ctx: IntakeContext, integration: IntegrationDoc) {
  const keys = await ctx.collections.apiKeys
    .find({ integration_id: integration._id })
    .sort({ _id: -1 })
    .limit(100)
    .toArray();
  return integrationView(integration, keys);
}

/**
 * Sets an integration's scopes in its turn, with the audited event in the same write; every
 * gateway then drops what it cached of the integration's keys.
 */
async function updateScopes(
  ctx: IntakeContext,
  integration_id: string,
  scopes: IntegrationDoc['scopes'],
  staff: Staff,
) {
  const { integrations } = ctx.collections;
  const { updated, message } = await ctx.store.serialize(integrations, integration_id, async () => {
    const before = await findIntegration(ctx, integration_id);
    const now = new Date();
    const snapshot = IntegrationSnapshot.parse(
      integrationView({ ...before, scopes, updated_at: now }, []),
    );
    const beforeSnapshot = IntegrationSnapshot.parse(integrationView(before, []));
    const message = accessEvent('access.integration.updated', snapshot, staff, {
      target_type: 'integration',
      target_id: integration_id,
      before: beforeSnapshot,
    });
    const updated = await integrations.findOneAndUpdate(
      { _id: integration_id },
      pushOutbox({ $set: { scopes, updated_at: now } }, [message]),
      { returnDocument: 'after' },
    );
    if (!updated) throw new BusError('integration_not_found', 'No such integration.');
    return { updated, message };
  });
  // The caller's change is already durable; a failed publish is left to the sweep.
  await ctx.outbox.publishOrLeave(integrations, integration_id, [message]);
  await broadcastAccessInvalidation(ctx.bus, { integration_id });
  // Its test keys carry its scopes too.
  if (updated.test_integration_id !== undefined) {
    await broadcastAccessInvalidation(ctx.bus, { integration_id: updated.test_integration_id });
  }
  return updated;
}

export function integrationEndpoints(ctx: IntakeContext): Record<string, Endpoint> {
  return {
    ...implement(
      accessOps.updateIntegration,
      async ({ integration_id, scopes, actor }, { callId: call_id }) =>
        integrationWithKeys(
          ctx,
          await updateScopes(ctx, integration_id, scopes, { actor, call_id }),
        ),
    ),

    ...implement(accessOps.listIntegrations, async ({ scope, ...page }) => {
      const result = await paginate(
        ctx.collections.integrations,
        // Test twins are listed under their live integration (`test_integration_id`), not apart.
        { livemode: { $ne: false as const }, ...(scope ? { scopes: scope } : {}) },
        page,
      );
      return {
        object: 'list' as const,
        data: await Promise.all(result.data.map((doc) => integrationWithKeys(ctx, doc))),
        has_more: result.has_more,
      };
    }),

    ...implement(accessOps.getIntegration, async ({ integration_id }) =>
      integrationWithKeys(ctx, await findIntegration(ctx, integration_id)),
    ),
  };
}
