import { BusError, implement, type Endpoint } from '@handoff/bus';
import {
  ACCESS_APPLICATION_MACHINE,
  accessOps,
  accessSubjects,
  digestsEqual,
  generateApiKey,
  generateSecret,
  newId,
  type AccessEvent,
  type AccessEventType,
  ApplicationStatusView,
  Integration,
  type Application,
  type ApplicationAction,
  type ApplicationStatus,
  type IssuedKey,
} from '@handoff/contracts';
import {
  invalidTransition,
  moveDocument,
  outboxMessage,
  type AuditRecord,
  type Move,
  type OutboxMessage,
  pushOutbox,
} from '@handoff/runtime';
import { paginate } from '@handoff/store';
import {
  accessCollections,
  applicationView,
  integrationView,
  keyView,
  type ApplicationDoc,
  type IntegrationDoc,
} from '../store/access.ts';
import { findOr404, insertAnnounced } from '../store/documents.ts';
import {
  broadcastAccessInvalidation,
  issueStoredKey,
  revokeStoredKey,
  verifyStoredKey,
  type AccessDeps,
} from './keys.ts';

/** What the applicant may see: zod drops the staff-only fields. */
const applicantView = (view: Application) => ApplicationStatusView.parse(view);
const IntegrationSnapshot = Integration.omit({ keys: true });

interface Staff {
  actor: string;
  call_id: string | null;
}

function event(
  type: AccessEventType,
  object: Record<string, unknown>,
  staff: Staff | null,
  audit?: { target_type: string; target_id: string; before: Record<string, unknown> | null },
): OutboxMessage {
  const id = newId('evt');
  const at = new Date();
  const payload: AccessEvent = {
    id,
    type,
    timestamp: at.toISOString(),
    data: { actor: staff?.actor ?? null, object },
  };
  const local =
    staff && audit
      ? {
          audit: {
            actor: staff.actor,
            action: type.replace(/^access\./, ''),
            target_type: audit.target_type,
            target_id: audit.target_id,
            at,
            call_id: staff.call_id,
            before: audit.before,
            after: object,
          } satisfies AuditRecord,
        }
      : undefined;
  return outboxMessage(id, accessSubjects.event(type), payload, local);
}

export function accessEndpoints(deps: AccessDeps): Record<string, Endpoint> {
  const c = accessCollections(deps.store);
  // The caller's change is already durable; a failed publish is left to the sweep.
  const publish = deps.outbox.publishOrLeave;
  const serialize = deps.store.serialize;

  const findIntegration = (id: string) => findOr404(c.integrations, id, 'No such integration.');

  /** The applicant's view needs the secret: a wrong secret looks exactly like an unknown id. */
  const findApplicationWithSecret = async (id: string, secretHash: string) => {
    const doc = await c.applications.findOne({ _id: id });
    if (!doc || !digestsEqual(doc.secret_hash, secretHash)) {
      throw new BusError('not_found', 'No such access application, or the secret does not match.');
    }
    return doc;
  };

  /** The integration follows from an approved application; creating it is idempotent. */
  const ensureIntegration = async (app: ApplicationDoc): Promise<IntegrationDoc> => {
    const integrationId = app.integration_id ?? newId('int');
    const now = new Date();
    const doc = await c.integrations.findOneAndUpdate(
      { application_id: app._id },
      {
        $setOnInsert: {
          _id: integrationId,
          application_id: app._id,
          app_name: app.app_name,
          scopes: app.granted_scopes ?? [],
          created_at: now,
          updated_at: now,
        },
      },
      { upsert: true, returnDocument: 'after' },
    );
    if (!doc) throw new BusError('internal_error', 'integration upsert returned nothing');
    return doc;
  };

  const issueKey = async (
    integration: IntegrationDoc,
    expiresInDays: number | undefined,
    staff: Staff | null,
  ): Promise<IssuedKey> => {
    const generated = generateApiKey();
    const { doc, shown } = await issueStoredKey(
      deps,
      c.keys,
      { prefix: 'key', generated, expiresInDays },
      { integration_id: integration._id },
      (issued) =>
        event('access.key.issued', keyView(issued), staff, {
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
  };

  const integrationWithKeys = async (integration: IntegrationDoc) => {
    const keys = await c.keys
      .find({ integration_id: integration._id })
      .sort({ _id: -1 })
      .limit(100)
      .toArray();
    return integrationView(integration, keys);
  };

  /**
   * Moves an application along ACCESS_APPLICATION_MACHINE (`moveDocument`); a staff move is
   * announced on HANDOFF_ACCESS and audited.
   */
  const moveApplication = (
    id: string,
    action: ApplicationAction,
    staff: Staff | null,
    move: Pick<
      Move<ApplicationDoc, ApplicationStatus, ApplicationAction, AccessEventType>,
      'visible' | 'notFound' | 'guard' | 'change' | 'expect' | 'then'
    >,
  ) =>
    moveDocument(
      { store: deps.store, publish },
      {
        ...move,
        machine: ACCESS_APPLICATION_MACHINE,
        collection: c.applications,
        id,
        action,
        view: applicationView,
        announce: (type, after) => event(type, after, staff),
        ...(staff
          ? {
              audit: {
                service: 'intake',
                actor: staff.actor,
                call_id: staff.call_id,
                // As the access events name it: `application.approved` for `access.application.approved`.
                action: (
                  ACCESS_APPLICATION_MACHINE.events[action] ?? `application.${action}`
                ).replace(/^access\./, ''),
              },
            }
          : {}),
      },
    );

  const decide = async (
    id: string,
    action: 'approve' | 'reject',
    change: Partial<ApplicationDoc>,
    staff: Staff,
  ) =>
    applicationView(
      await moveApplication(id, action, staff, {
        change: (_before, now) => ({ ...change, decided_at: now, decided_by: staff.actor }),
        // In the application's turn, so a claim cannot find the approval without it.
        ...(action === 'approve'
          ? {
              then: async (approved: ApplicationDoc) => {
                await ensureIntegration(approved);
              },
            }
          : {}),
      }),
    );

  return {
    ...implement(accessOps.submit, async ({ application }) => {
      const { secret, hash } = generateSecret('happ', 40);
      const doc: ApplicationDoc = {
        _id: newId('app'),
        status: 'submitted',
        app_name: application.app_name,
        description: application.description,
        contact_email: application.contact_email,
        website: application.website ?? null,
        requested_scopes: application.requested_scopes,
        granted_scopes: null,
        rejection_reason: null,
        integration_id: null,
        secret_hash: hash,
        key_claimed_at: null,
        created_at: new Date(),
        decided_at: null,
        decided_by: null,
      };
      const view = applicationView(doc);
      await insertAnnounced(
        deps,
        c.applications,
        doc,
        event('access.application.submitted', view, null),
      );
      return { ...applicantView(view), application_secret: secret };
    }),

    ...implement(accessOps.status, async ({ id, secret_hash }) =>
      applicantView(applicationView(await findApplicationWithSecret(id, secret_hash))),
    ),

    ...implement(accessOps.claimKey, async ({ id, secret_hash }) => {
      const claimed = await moveApplication(id, 'claim_key', null, {
        // A wrong secret looks exactly like an unknown id.
        visible: (doc) => digestsEqual(doc.secret_hash, secret_hash),
        notFound: 'No such access application, or the secret does not match.',
        guard: (doc) => {
          if (doc.key_claimed_at === null) return;
          throw invalidTransition(
            {
              resource: ACCESS_APPLICATION_MACHINE.resource,
              current_state: doc.status,
              action: 'claim_key',
              allowed_actions: [],
            },
            { final: true, reason: 'its key was already claimed' },
          );
        },
        change: (_before, now) => ({ key_claimed_at: now }),
        expect: { key_claimed_at: null },
      });
      return issueKey(await ensureIntegration(claimed), undefined, null);
    }),

    ...implement(accessOps.list, async ({ query }) => {
      const filter = query.status ? { status: query.status } : {};
      const page = await paginate(c.applications, filter, query);
      return {
        object: 'list' as const,
        data: page.data.map(applicationView),
        has_more: page.has_more,
      };
    }),

    ...implement(accessOps.get, async ({ id }) =>
      applicationView(await findOr404(c.applications, id, 'No such access application.')),
    ),

    ...implement(accessOps.approve, async ({ id, scopes, actor }, { callId: call_id }) =>
      decide(
        id,
        'approve',
        { granted_scopes: scopes, integration_id: newId('int') },
        { actor, call_id },
      ),
    ),

    ...implement(accessOps.reject, async ({ id, reason, actor }, { callId: call_id }) =>
      decide(id, 'reject', { rejection_reason: reason }, { actor, call_id }),
    ),

    ...implement(
      accessOps.issueKey,
      async ({ integration_id, expires_in_days, actor }, { callId: call_id }) => {
        return issueKey(await findIntegration(integration_id), expires_in_days, { actor, call_id });
      },
    ),

    ...implement(accessOps.revokeKey, async ({ key_id, actor }, { callId: call_id }) => {
      await revokeStoredKey(deps, c.keys, key_id, 'No such key.', (before, revokedAt) =>
        event(
          'access.key.revoked',
          keyView({ ...before, revoked_at: revokedAt }),
          { actor, call_id },
          { target_type: 'api_key', target_id: key_id, before: keyView(before) },
        ),
      );
      return keyView(await findOr404(c.keys, key_id, 'No such key.'));
    }),

    ...implement(
      accessOps.updateIntegration,
      async ({ integration_id, scopes, actor }, { callId: call_id }) => {
        const { updated, message } = await serialize(c.integrations, integration_id, async () => {
          const before = await findIntegration(integration_id);
          const now = new Date();
          const snapshot = IntegrationSnapshot.parse(
            integrationView({ ...before, scopes, updated_at: now }, []),
          );
          const beforeSnapshot = IntegrationSnapshot.parse(integrationView(before, []));
          const message = event(
            'access.integration.updated',
            snapshot,
            { actor, call_id },
            {
              target_type: 'integration',
              target_id: integration_id,
              before: beforeSnapshot,
            },
          );
          const updated = await c.integrations.findOneAndUpdate(
            { _id: integration_id },
            pushOutbox({ $set: { scopes, updated_at: now } }, [message]),
            { returnDocument: 'after' },
          );
          if (!updated) throw new BusError('not_found', 'No such integration.');
          return { updated, message };
        });
        await publish(c.integrations, integration_id, [message]);
        await broadcastAccessInvalidation(deps.bus, { integration_id });
        return integrationWithKeys(updated);
      },
    ),

    ...implement(accessOps.listIntegrations, async ({ scope, ...page }) => {
      const result = await paginate(c.integrations, scope ? { scopes: scope } : {}, page);
      return {
        object: 'list' as const,
        data: await Promise.all(result.data.map(integrationWithKeys)),
        has_more: result.has_more,
      };
    }),

    ...implement(accessOps.getIntegration, async ({ integration_id }) =>
      integrationWithKeys(await findIntegration(integration_id)),
    ),

    ...implement(accessOps.verifyKey, async ({ key_hash }) => {
      const { key, owner, verified } = await verifyStoredKey(c.keys, key_hash, (found) =>
        c.integrations.findOne({ _id: found.integration_id }),
      );
      return { ...verified, integration_id: key.integration_id, scopes: owner.scopes };
    }),
  };
}
