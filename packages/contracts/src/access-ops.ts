import { z } from 'zod';
import {
  Application,
  ApplicationCreate,
  AuditList,
  ApplicationList,
  ApplicationListQuery,
  ApplicationStatusView,
  ApplicationSubmitted,
  Integration,
  IssuedKey,
  KeySummary,
  KeyVerification,
  Scope,
} from './access.ts';
import { BusPage, ListQuery, listOf, Sha256Hex, StaffAction } from './common.ts';
import { operation, type Operation } from './operation.ts';
import { intakeOp } from './service-ops.ts';

/** An application as its applicant opens it: by id, with the SHA-256 of its secret. */
const ApplicationBySecret = z.object({ id: z.string(), secret_hash: Sha256Hex });

/** A staff member acting on one application, and on one integration. */
const OnApplication = StaffAction.extend({ id: z.string() });
const OnIntegration = StaffAction.extend({ integration_id: z.string() });

/** The access operations that the intake service serves for the gateway. */
export const accessOps = {
  submit: intakeOp(
    'access.submit',
    z.object({ application: ApplicationCreate }),
    ApplicationSubmitted,
  ),
  status: intakeOp('access.status', ApplicationBySecret, ApplicationStatusView),
  claimKey: intakeOp('access.claim_key', ApplicationBySecret, IssuedKey),
  list: intakeOp('access.list', z.object({ query: ApplicationListQuery }), ApplicationList),
  get: intakeOp('access.get', z.object({ id: z.string() }), Application),
  approve: intakeOp(
    'access.approve',
    OnApplication.extend({ scopes: z.array(Scope) }),
    Application,
  ),
  reject: intakeOp('access.reject', OnApplication.extend({ reason: z.string() }), Application),
  issueKey: intakeOp(
    'access.issue_key',
    OnIntegration.extend({
      expires_in_days: z.number().int().optional(),
      /** False: a test key, on the integration's test twin (made when first asked for). */
      livemode: z.boolean().optional(),
    }),
    IssuedKey,
  ),
  revokeKey: intakeOp('access.revoke_key', StaffAction.extend({ key_id: z.string() }), KeySummary),
  updateIntegration: intakeOp(
    'access.update_integration',
    OnIntegration.extend({ scopes: z.array(Scope) }),
    Integration,
  ),
  /** Staff: integrations, newest first, optionally those holding a scope. */
  listIntegrations: intakeOp(
    'access.list_integrations',
    BusPage.extend({ scope: Scope.optional() }),
    listOf(Integration),
  ),
  getIntegration: intakeOp(
    'access.get_integration',
    z.object({ integration_id: z.string() }),
    Integration,
  ),
  verifyKey: intakeOp('access.verify_key', z.object({ key_hash: Sha256Hex }), KeyVerification),
} as const;

/** Services that keep an audit log of the staff actions they carry out. */
export const AUDITED_SERVICES = ['intake', 'payments', 'milestones', 'webhook-dispatcher'] as const;

/** Each audited service pages through its own audit log; the gateway merges them. */
export const auditOps = Object.fromEntries(
  AUDITED_SERVICES.map((service) => [
    service,
    operation(service, 'audit.list', z.object({ query: ListQuery }), AuditList),
  ]),
) as Record<
  (typeof AUDITED_SERVICES)[number],
  Operation<z.ZodObject<{ query: typeof ListQuery }>, typeof AuditList>
>;
