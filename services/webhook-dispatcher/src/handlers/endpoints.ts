import { BusError, implement, type Endpoint } from '@handoff/bus';
import { ALL_EVENT_TYPES, newId, webhookOps, type EventType } from '@handoff/contracts';
import { paginate, type Store } from '@handoff/store';
import { checkTargetUrl } from '../adapters/ssrf.ts';
import { generateWebhookSecret } from '../domain/signer.ts';
import type { SecretBox } from '../domain/secrets.ts';
import type { EndpointDirectory } from '../store/endpoint-directory.ts';
import { auditStaff } from '../store/audit.ts';
import { collectionsOf } from '../store/collections.ts';
import { attemptView } from '../store/deliveries.ts';
import { endpointView, type EndpointDoc } from '../store/endpoints.ts';

export interface EndpointDeps {
  store: Store;
  /** Told of every write, so that no replica delivers from what it held before. */
  directory: EndpointDirectory;
  secrets: SecretBox;
  allowPrivate: boolean;
  maxEndpoints: number;
}

export function endpointEndpoints(deps: EndpointDeps): Record<string, Endpoint> {
  const c = collectionsOf(deps.store);
  const policy = { allowPrivate: deps.allowPrivate };

  /** Another integration's endpoint looks exactly like a missing one. */
  const find = async (integrationId: string, id: string) => {
    const doc = await c.endpoints.findOne({ _id: id, integration_id: integrationId });
    if (!doc) throw new BusError('webhook_endpoint_not_found', 'No such webhook endpoint.');
    return doc;
  };

  const checkedUrl = (url: string) => {
    const checked = checkTargetUrl(url, policy);
    if (!checked.ok) {
      throw new BusError('validation_failed', `The URL is not allowed: ${checked.reason}.`, {
        details: { errors: [{ pointer: '/url', code: 'url_not_allowed', detail: checked.reason }] },
      });
    }
    return checked.url.toString();
  };

  return {
    ...implement(webhookOps.create, async ({ integration_id, input, a2a }) =>
      // Serialized per integration, so that concurrent creations cannot pass the limit together.
      deps.store.serialize(c.endpoints, `integration:${integration_id}`, async () => {
        if ((await c.endpoints.countDocuments({ integration_id })) >= deps.maxEndpoints) {
          throw new BusError(
            'limit_reached',
            `An integration can have at most ${deps.maxEndpoints} webhook endpoints; delete one first.`,
            { details: { limit: deps.maxEndpoints } },
          );
        }
        const now = new Date();
        const secret = generateWebhookSecret();
        const doc: EndpointDoc = {
          _id: newId('whe'),
          integration_id,
          url: checkedUrl(input.url),
          event_types: input.event_types ?? [...ALL_EVENT_TYPES],
          description: input.description ?? null,
          enabled: true,
          disabled_reason: null,
          secret_enc: deps.secrets.seal(secret),
          previous_secret_enc: null,
          previous_secret_expires_at: null,
          failing_since: null,
          ...(a2a
            ? {
                a2a: {
                  request_id: a2a.request_id,
                  context_id: a2a.context_id,
                  config_id: a2a.config_id,
                  token_enc: a2a.token === undefined ? null : deps.secrets.seal(a2a.token),
                  authorization_enc:
                    a2a.authorization === undefined ? null : deps.secrets.seal(a2a.authorization),
                },
              }
            : {}),
          created_at: now,
          updated_at: now,
        };
        await c.endpoints.insertOne(doc);
        await deps.directory.changed({ id: doc._id, integration_id });
        return { ...endpointView(doc), secret };
      }),
    ),

    ...implement(webhookOps.list, async ({ integration_id, query }) => {
      const page = await paginate(c.endpoints, { integration_id }, query);
      return {
        object: 'list' as const,
        data: page.data.map((doc) => endpointView(doc)),
        has_more: page.has_more,
      };
    }),

    ...implement(webhookOps.get, async ({ integration_id, id }) =>
      endpointView(await find(integration_id, id)),
    ),

    ...implement(webhookOps.update, async ({ integration_id, id, patch }) =>
      deps.store.serialize(c.endpoints, id, async () => {
        const before = await find(integration_id, id);
        const change: Partial<EndpointDoc> = { updated_at: new Date() };
        if (patch.url !== undefined) change.url = checkedUrl(patch.url);
        if (patch.event_types !== undefined) change.event_types = patch.event_types as EventType[];
        if (patch.description !== undefined) change.description = patch.description;
        if (patch.enabled !== undefined && patch.enabled !== before.enabled) {
          change.enabled = patch.enabled;
          change.disabled_reason = patch.enabled ? null : 'manual';
          if (patch.enabled) change.failing_since = null;
          else change.disabled_at = change.updated_at;
        }
        const updated = await c.endpoints.findOneAndUpdate(
          { _id: id },
          { $set: change },
          { returnDocument: 'after' },
        );
        if (!updated) throw new BusError('webhook_endpoint_not_found', 'No such webhook endpoint.');
        await deps.directory.changed({ id, integration_id });
        return endpointView(updated);
      }),
    ),

    ...implement(webhookOps.remove, async ({ integration_id, id }) => {
      await find(integration_id, id);
      // Its queued deliveries are cancelled as they come up.
      await c.endpoints.deleteOne({ _id: id, integration_id });
      await deps.directory.changed({ id, integration_id });
      return { object: 'webhook_endpoint' as const, id, deleted: true as const };
    }),

    ...rotateSecret(deps, find),

    ...implement(webhookOps.attempts, async ({ integration_id, id, query }) => {
      await find(integration_id, id);
      const page = await paginate(c.attempts, { endpoint_id: id }, query);
      return { object: 'list' as const, data: page.data.map(attemptView), has_more: page.has_more };
    }),
  };
}

/**
 * A new signing secret; the previous one keeps signing for the grace period asked, so receivers
 * can switch without missing a delivery.
 */
function rotateSecret(
  deps: EndpointDeps,
  find: (integrationId: string, id: string) => Promise<EndpointDoc>,
): Record<string, Endpoint> {
  const c = collectionsOf(deps.store);
  return implement(
    webhookOps.rotateSecret,
    async ({ integration_id, id, grace_period_seconds, staff }, { callId }) =>
      deps.store.serialize(c.endpoints, id, async () => {
        const before = await find(integration_id, id);
        const secret = generateWebhookSecret();
        const now = new Date();
        const updated = await c.endpoints.findOneAndUpdate(
          { _id: id },
          {
            $set: {
              secret_enc: deps.secrets.seal(secret),
              previous_secret_enc: grace_period_seconds > 0 ? before.secret_enc : null,
              previous_secret_expires_at:
                grace_period_seconds > 0
                  ? new Date(now.getTime() + grace_period_seconds * 1000)
                  : null,
              updated_at: now,
            },
          },
          { returnDocument: 'after' },
        );
        if (!updated) throw new BusError('webhook_endpoint_not_found', 'No such webhook endpoint.');
        await deps.directory.changed({ id, integration_id });
        await auditStaff(deps.store, staff, callId, {
          action: 'webhook_endpoint.rotate_secret',
          target_type: 'webhook_endpoint',
          target_id: id,
          before: {
            integration_id,
            previous_secret_expires_at: before.previous_secret_expires_at?.toISOString() ?? null,
          },
          after: {
            integration_id,
            previous_secret_expires_at: updated.previous_secret_expires_at?.toISOString() ?? null,
          },
        });
        return { ...endpointView(updated), secret };
      }),
  );
}
