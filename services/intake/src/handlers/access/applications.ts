import { BusError } from '@handoff/bus';
import {
  ACCESS_APPLICATION_MACHINE,
  newId,
  ApplicationStatusView,
  type AccessEventType,
  type Application,
  type ApplicationAction,
  type ApplicationStatus,
} from '@handoff/contracts';
import { digestsEqual, moveDocument, type Move } from '@handoff/runtime';
import { applicationView, type ApplicationDoc, type IntegrationDoc } from '../../store/access.ts';
import type { IntakeContext } from '../context.ts';
import { accessEvent, type Staff } from './events.ts';

// What the applicant's and the staff's operations on access applications share.

/** What the applicant may see: zod drops the staff-only fields. */
export const applicantView = (view: Application) => ApplicationStatusView.parse(view);

/** The applicant's view needs the secret: a wrong secret looks exactly like an unknown id. */
export async function findApplicationWithSecret(
  ctx: IntakeContext,
  id: string,
  secretHash: string,
): Promise<ApplicationDoc> {
  const doc = await ctx.collections.applications.findOne({ _id: id });
  if (!doc || !digestsEqual(doc.secret_hash, secretHash)) {
    throw new BusError(
      'application_not_found',
      'No such access application, or the secret does not match.',
    );
  }
  return doc;
}

/** The integration follows from an approved application; creating it is idempotent. */
export async function ensureIntegration(
  ctx: IntakeContext,
  app: ApplicationDoc,
): Promise<IntegrationDoc> {
  const integrationId = app.integration_id ?? newId('int');
  const now = new Date();
  const doc = await ctx.collections.integrations.findOneAndUpdate(
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
}

/** What a caller of `moveApplication` says about its move, beside the machine. */
export type ApplicationMove = Pick<
  Move<ApplicationDoc, ApplicationStatus, ApplicationAction, AccessEventType>,
  'visible' | 'notFoundMessage' | 'guard' | 'change' | 'expect' | 'then'
>;

/**
 * Moves an application along ACCESS_APPLICATION_MACHINE (`moveDocument`); a staff move is
 * announced on HANDOFF_ACCESS and audited.
 */
export function moveApplication(
  ctx: IntakeContext,
  id: string,
  action: ApplicationAction,
  staff: Staff | null,
  move: ApplicationMove,
): Promise<ApplicationDoc> {
  return moveDocument(
    // The caller's change is already durable; a failed publish is left to the sweep.
    { store: ctx.store, publish: ctx.outbox.publishOrLeave },
    {
      ...move,
      machine: ACCESS_APPLICATION_MACHINE,
      collection: ctx.collections.applications,
      notFound: 'application_not_found',
      id,
      action,
      view: applicationView,
      announce: (type, after) => accessEvent(type, after, staff),
      ...(staff
        ? {
            audit: {
              service: 'intake',
              actor: staff.actor,
              call_id: staff.call_id,
              // As the access events name it: `application.approved` for
              // `access.application.approved`.
              action: (
                ACCESS_APPLICATION_MACHINE.events[action] ?? `application.${action}`
              ).replace(/^access\./, ''),
            },
          }
        : {}),
    },
  );
}
