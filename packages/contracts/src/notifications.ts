import { z } from 'zod';
import { notificationsOp } from './service-ops.ts';
import { broadcastSubject, streamUnder } from './subjects.ts';
import { PROVIDER_MAIL_KINDS } from './mail-kinds.ts';

/**
 * The notifications service: email to providers and staff, fed by the event stream, and the
 * providers' unread counts. These are the kinds of mail a provider may turn off one by one; the
 * sign-in mail is transactional and always goes, and staff mail goes to the addresses configured.
 */
export const ProviderMailKind = z.enum(PROVIDER_MAIL_KINDS);
export type ProviderMailKind = z.infer<typeof ProviderMailKind>;

/** Every kind of mail the service sends. */
export const MAIL_KINDS = [...PROVIDER_MAIL_KINDS, 'sign_in', 'staff_queue'] as const;
export const MailKind = z.enum(MAIL_KINDS);
export type MailKind = z.infer<typeof MailKind>;

const Kinds = z.object(
  Object.fromEntries(PROVIDER_MAIL_KINDS.map((kind) => [kind, z.boolean()])) as Record<
    ProviderMailKind,
    z.ZodBoolean
  >,
);

/** A provider's email settings: which kinds it gets, and whether mail reaches its address. */
export const NotificationSettings = z.object({
  object: z.literal('notification_settings'),
  /** The address mail goes to (the provider's, set by staff). */
  email: z.string(),
  /**
   * `ok`, or `bouncing` once a mail to it bounced or was refused for good (5xx): mail to it is
   * held back (the sign-in mail still goes) until a later one is accepted or the address changes.
   */
  email_status: z.enum(['ok', 'bouncing']),
  /** Each kind: true when the provider gets it. */
  kinds: Kinds,
});
export type NotificationSettings = z.infer<typeof NotificationSettings>;

export const NotificationSettingsPatch = z.strictObject({
  kinds: z
    .strictObject(
      Object.fromEntries(
        PROVIDER_MAIL_KINDS.map((kind) => [kind, z.boolean().optional()]),
      ) as Record<ProviderMailKind, z.ZodOptional<z.ZodBoolean>>,
    )
    .refine((kinds) => Object.keys(kinds).length > 0, { message: 'name at least one kind' })
    .meta({ minProperties: 1 }),
});

/** `POST /v1/notifications/unsubscribe`: the token of a mail's unsubscribe link. */
export const Unsubscribe = z.strictObject({ token: z.string().min(1).max(512) });

/** What an unsubscribe link turned off. */
export const Unsubscribed = z.object({
  object: z.literal('unsubscribe'),
  kind: ProviderMailKind,
  /** The kind in words, for the page that confirms it. */
  description: z.string(),
  subscribed: z.literal(false),
});

/** A request the provider has read: its unread count is back to 0. */
export const RequestRead = z.object({
  object: z.literal('request_read'),
  request_id: z.string(),
  unread_messages: z.literal(0),
});

/** Unread counts of a provider's requests: messages from others since it last read each. */
export const UnreadCounts = z.object({ requests: z.record(z.string(), z.number().int().min(0)) });

const Id = z.string().max(64);

/** The notifications service's operations. */
export const notificationOps = {
  /**
   * Sends a sign-in link (intake's, the token in it never stored by anyone), retried while the
   * link lives. Answered once the mail is accepted for sending.
   */
  sendSignIn: notificationsOp(
    'mail.sign_in',
    z.object({
      provider_id: Id,
      to: z.string(),
      name: z.string(),
      token: z.string(),
      expires_at: z.iso.datetime(),
    }),
    z.object({ queued: z.literal(true) }),
  ),
  settings: notificationsOp('settings.get', z.object({ provider_id: Id }), NotificationSettings),
  updateSettings: notificationsOp(
    'settings.update',
    z.object({ provider_id: Id, patch: NotificationSettingsPatch }),
    NotificationSettings,
  ),
  /** `validation_failed` when the token does not verify. */
  unsubscribe: notificationsOp('settings.unsubscribe', Unsubscribe, Unsubscribed),
  unread: notificationsOp(
    'inbox.unread',
    z.object({ provider_id: Id, request_ids: z.array(Id).max(100) }),
    UnreadCounts,
  ),
  markRead: notificationsOp(
    'inbox.read',
    z.object({ provider_id: Id, request_id: Id }),
    RequestRead,
  ),
} as const;

/** The notifications service's broadcasts between its own replicas. */
export const notificationSubjects = {
  /**
   * An `AccessInvalidation` naming `provider_ids`: every replica drops what it holds of those
   * providers (their email settings, whether their address bounces).
   */
  changed: broadcastSubject('notifications', 'changed'),
} as const;

/**
 * The notifications service's own work queue: reminders of deadlines, each held by the server
 * (a delayed nak) until it is due, so nothing polls for them.
 */
export const REMINDERS_STREAM = streamUnder('HANDOFF_REMINDERS', 'reminders');
