// `access.applications.submit`, `.status`, `.claim_key`: what an applicant does, proving itself
// by the application's secret.
import { implement, type Endpoint } from '@handoff/bus';
import { ACCESS_APPLICATION_MACHINE, accessOps, newId } from '@handoff/contracts';
import { digestsEqual, generateSecret, invalidTransition } from '@handoff/runtime';
import { applicationView, type ApplicationDoc } from '../../store/access.ts';
import { insertAnnounced } from '../../store/single-document.ts';
import type { InputOf, IntakeContext } from '../context.ts';
import { issueAgentKey } from './agent-keys.ts';
import {
  applicantView,
  ensureIntegration,
  findApplicationWithSecret,
  moveApplication,
} from './applications.ts';
import { accessEvent } from './events.ts';

async function submitApplication(
  ctx: IntakeContext,
  { application }: InputOf<typeof accessOps.submit>,
) {
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
    ctx,
    ctx.collections.applications,
    doc,
    accessEvent('access.application.submitted', view, null),
  );
  return { ...applicantView(view), application_secret: secret };
}

/** The approved application's one key, claimed once. */
async function claimKey(
  ctx: IntakeContext,
  { id, secret_hash }: InputOf<typeof accessOps.claimKey>,
) {
  const claimed = await moveApplication(ctx, id, 'claim_key', null, {
    // A wrong secret looks exactly like an unknown id.
    visible: (doc) => digestsEqual(doc.secret_hash, secret_hash),
    notFoundMessage: 'No such access application, or the secret does not match.',
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
  return issueAgentKey(ctx, await ensureIntegration(ctx, claimed), undefined, null);
}

export function applicantEndpoints(ctx: IntakeContext): Record<string, Endpoint> {
  return {
    ...implement(accessOps.submit, (input) => submitApplication(ctx, input)),

    ...implement(accessOps.status, async ({ id, secret_hash }) =>
      applicantView(applicationView(await findApplicationWithSecret(ctx, id, secret_hash))),
    ),

    ...implement(accessOps.claimKey, (input) => claimKey(ctx, input)),
  };
}
