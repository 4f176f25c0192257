import { z } from 'zod';
import { listOf, listQueryWith, Timestamp } from './common.ts';
import { SCOPES } from './scopes.ts';
import { emailAddress, httpUrl, trimmedText } from './text.ts';

export const Scope = z.enum(SCOPES);
export type Scope = z.infer<typeof Scope>;

const scopeList = z
  .array(Scope)
  .min(1)
  .max(SCOPES.length)
  .refine((list) => new Set(list).size === list.length, { message: 'scopes must not repeat' })
  .meta({ uniqueItems: true });

/** Agent keys: `hk_live_` + 30 base62 + 6 base62 of the CRC32 of everything before them. */
export const API_KEY_PREFIX = 'hk_live_';
export const API_KEY_PATTERN = /^hk_live_[0-9A-Za-z]{36}$/;
/** Any agent key, live or test (`TEST_API_KEY_PATTERN`, test-mode.ts). */
export const AGENT_KEY_PATTERN = /^hk_(?:live|test)_[0-9A-Za-z]{36}$/;
/** Application secrets: `happ_` + 40 base62, shown once at submission. */
export const APPLICATION_SECRET_PATTERN = /^happ_[0-9A-Za-z]{40}$/;

export const KEY_LIFETIME_DAYS = { default: 90, max: 365 } as const;

export const ApplicationStatus = z.enum(['submitted', 'approved', 'rejected']);
export type ApplicationStatus = z.infer<typeof ApplicationStatus>;

export const ApplicationCreate = z.strictObject({
  app_name: trimmedText(100),
  description: trimmedText(2000),
  contact_email: emailAddress(254),
  requested_scopes: scopeList,
  website: httpUrl(2048).optional(),
});
export type ApplicationCreate = z.infer<typeof ApplicationCreate>;

/** What staff see of an application. */
export const Application = z.object({
  object: z.literal('access_application'),
  id: z.string(),
  status: ApplicationStatus,
  app_name: z.string(),
  description: z.string(),
  contact_email: z.string(),
  website: z.string().nullable(),
  requested_scopes: z.array(Scope),
  granted_scopes: z.array(Scope).nullable(),
  rejection_reason: z.string().nullable(),
  integration_id: z.string().nullable(),
  key_claimed: z.boolean(),
  created_at: Timestamp,
  decided_at: Timestamp.nullable(),
  decided_by: z.string().nullable(),
});
export type Application = z.infer<typeof Application>;

/** What the applicant sees with its application secret. */
export const ApplicationStatusView = Application.pick({
  object: true,
  id: true,
  status: true,
  app_name: true,
  requested_scopes: true,
  granted_scopes: true,
  rejection_reason: true,
  integration_id: true,
  key_claimed: true,
  created_at: true,
  decided_at: true,
});
export type ApplicationStatusView = z.infer<typeof ApplicationStatusView>;

export const ApplicationSubmitted = ApplicationStatusView.extend({
  application_secret: z.string().regex(APPLICATION_SECRET_PATTERN),
});

export const ApplicationListQuery = listQueryWith({ status: ApplicationStatus.optional() });

export const ApproveBody = z.strictObject({ scopes: scopeList });
export const RejectBody = z.strictObject({ reason: trimmedText(1000) });
export const NewKeyBody = z.strictObject({
  expires_in_days: z.number().int().min(1).max(KEY_LIFETIME_DAYS.max).optional(),
  livemode: z
    .boolean()
    .optional()
    .meta({
      description:
        'Extension: `false` issues a test key (`hk_test_…`) beside the live ones. It belongs to ' +
        'the integration’s test twin (made on the first test key), which owns all test data.',
    }),
});
export const IntegrationPatch = z.strictObject({ scopes: scopeList });

export const KeyStatus = z.enum(['active', 'expired', 'revoked']);

export const KeySummary = z.object({
  object: z.literal('api_key'),
  id: z.string(),
  integration_id: z.string(),
  /** `hk_live_` and the next four characters, then the last four: enough to recognise a key. */
  prefix: z.string(),
  last4: z.string(),
  status: KeyStatus,
  created_at: Timestamp,
  expires_at: Timestamp,
  revoked_at: Timestamp.nullable(),
});
export type KeySummary = z.infer<typeof KeySummary>;

/** A key as issued: the only time the secret is ever shown. */
export const IssuedKey = z.object({
  object: z.literal('api_key'),
  api_key: z.string().regex(AGENT_KEY_PATTERN),
  key_id: z.string(),
  integration_id: z.string(),
  livemode: z.boolean().meta({
    description:
      'Extension: false for a test key (`hk_test_…`), whose integration is the live one’s test twin.',
  }),
  scopes: z.array(Scope),
  prefix: z.string(),
  last4: z.string(),
  created_at: Timestamp,
  expires_at: Timestamp,
});
export type IssuedKey = z.infer<typeof IssuedKey>;

export const Integration = z.object({
  object: z.literal('integration'),
  id: z.string(),
  application_id: z.string(),
  app_name: z.string(),
  scopes: z.array(Scope),
  livemode: z.boolean().meta({
    description:
      'False for a test integration: the twin that owns an integration’s test keys and test data.',
  }),
  live_integration_id: z
    .string()
    .nullable()
    .meta({ description: 'On a test integration, the live integration it is the twin of.' }),
  test_integration_id: z
    .string()
    .nullable()
    .meta({ description: 'On a live integration, its test twin once a test key was issued.' }),
  created_at: Timestamp,
  updated_at: Timestamp,
  keys: z.array(KeySummary),
});
export type Integration = z.infer<typeof Integration>;

export const AuditEntry = z.object({
  object: z.literal('audit_entry'),
  id: z.string(),
  actor: z.string(),
  action: z.string(),
  target_type: z.string(),
  target_id: z.string(),
  at: Timestamp,
  call_id: z
    .string()
    .nullable()
    .describe(
      'The `Request-Id` of the staff call that made this entry; null for an action no call made.',
    ),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

export const ApplicationList = listOf(Application);
export const AuditList = listOf(AuditEntry);

/** What the gateway learns when it checks a key (by its SHA-256, never the key itself). */
export const KeyVerification = z.object({
  key_id: z.string(),
  integration_id: z.string(),
  /** False for a test key: `integration_id` is then the test twin, which owns all test data. */
  livemode: z.boolean(),
  scopes: z.array(Scope),
  status: KeyStatus,
  expires_at: Timestamp,
});
export type KeyVerification = z.infer<typeof KeyVerification>;

/**
 * Broadcast to every gateway and intake replica so that revocations, scope changes and provider
 * changes apply at once: caches drop what names one of these keys or owners.
 */
export const AccessInvalidation = z.object({
  key_ids: z.array(z.string()).optional(),
  /** An integration (or, from older intakes, a provider) whose keys' answers changed. */
  integration_id: z.string().optional(),
  /** Providers whose record changed (status, name, categories): them and their keys. */
  provider_ids: z.array(z.string()).optional(),
});
export type AccessInvalidation = z.infer<typeof AccessInvalidation>;

/** Access events for staff tools (bus only, never webhooks), on stream HANDOFF_ACCESS. */
export const ACCESS_EVENT_TYPES = [
  'access.application.submitted',
  'access.application.approved',
  'access.application.rejected',
  'access.key.issued',
  'access.key.revoked',
  'access.integration.updated',
] as const;
export const AccessEventType = z.enum(ACCESS_EVENT_TYPES);
export type AccessEventType = z.infer<typeof AccessEventType>;

export const AccessEvent = z.object({
  id: z.string().regex(/^evt_/),
  type: AccessEventType,
  timestamp: Timestamp,
  data: z.object({
    actor: z.string().nullable(),
    object: z.record(z.string(), z.unknown()),
  }),
});
export type AccessEvent = z.infer<typeof AccessEvent>;
