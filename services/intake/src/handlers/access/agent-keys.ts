// `access.keys.*`: an integration's agent keys, issued by staff (or claimed by the applicant,
// applicant.ts), revoked by staff, and verified for the gateway.
import { implement, type Endpoint } from '@handoff/bus';
import { accessOps, newId, type IssuedKey } from '@handoff/contracts';
import { generateApiKey, generateTestApiKey } from '@handoff/runtime';
import { keyView, testTwinApplicationKey, type IntegrationDoc } from '../../store/access.ts';
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
  const test = integration.livemode === false;
  const generated = test ? generateTestApiKey() : generateApiKey();
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
    livemode: !test,
    scopes: integration.scopes,
    ...shown,
  };
}

/**
 * The test twin of a live integration: the integration that owns its test keys and all test data,
 * so that every read scoped by integration keeps test and live apart. Made on the first test key,
 * once (in the live integration's turn); its keys carry the live integration's scopes.
 */
async function testTwinOf(ctx: IntakeContext, live: IntegrationDoc): Promise<IntegrationDoc> {
  if (live.livemode === false) return live;
  const { integrations } = ctx.collections;
  return ctx.store.serialize(integrations, live._id, async () => {
    const current = await findIntegration(ctx, live._id);
    if (current.test_integration_id !== undefined) {
      return findIntegration(ctx, current.test_integration_id);
    }
    const now = new Date();
    const twin: IntegrationDoc = {
      _id: newId('int'),
      application_id: testTwinApplicationKey(current.application_id),
      app_name: current.app_name,
      scopes: current.scopes,
      livemode: false,
      live_integration_id: current._id,
      created_at: now,
      updated_at: now,
    };
    await integrations.insertOne(twin);
    await integrations.updateOne(
      { _id: current._id },
      { $set: { test_integration_id: twin._id, updated_at: now } },
    );
    return twin;
  });
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
      async ({ integration_id, expires_in_days, livemode, actor }, { callId: call_id }) => {
        const integration = await findIntegration(ctx, integration_id);
        // A test key lives on the twin; a live key is never issued on a twin.
        const owner =
          livemode === false
            ? await testTwinOf(ctx, integration)
            : integration.live_integration_id !== undefined
              ? await findIntegration(ctx, integration.live_integration_id)
              : integration;
        return issueAgentKey(ctx, owner, expires_in_days, { actor, call_id });
      },
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
      // A test key has the scopes its live integration has now.
      const live =
        owner.live_integration_id === undefined
          ? owner
          : ((await ctx.collections.integrations.findOne({ _id: owner.live_integration_id })) ??
            owner);
      return {
        ...verified,
        integration_id: key.integration_id,
        livemode: owner.livemode !== false,
        scopes: live.scopes,
      };
    }),
  };
}
