// The variables of services/notifications. The schema lives in this package rather than in the service so
// that the dev stack (which checks a stack's settings before it starts anything) and the deploy
// checks read the same schema without importing a service. The service reads it in src/env.ts.
import { z } from 'zod';
import { baseServiceEnv, durationMs, envBoolean } from '../index.ts';

const httpBase = z
  .string()
  .refine((value) => /^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/.test(value), {
    message: 'must be an http(s) URL without query or fragment, e.g. https://handoff.example.com',
  })
  .transform((value) => value.replace(/\/+$/, ''));

/** One address, or `Name <address>`. */
const mailbox = z
  .string()
  .refine((value) => /^(?:[^<>]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/.test(value.trim()), {
    message: 'must be an address, or `Name <address>`',
  });

const addresses = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean),
  )
  .refine((list) => list.every((address) => /^[^\s@<>,]+@[^\s@<>,]+$/.test(address)), {
    message: 'must be comma-separated addresses',
  });

export const notificationsEnv = baseServiceEnv.extend({
  /**
   * The SMTP server mail is handed to: `smtp://[user:password@]host:port` (STARTTLS when the
   * server offers it), or `smtps://…` for TLS from the first byte (port 465). User and password
   * are percent-encoded.
   */
  SMTP_URL: z
    .string()
    .refine((value) => /^smtps?:\/\/[^\s/]+(:\d+)?\/?$/.test(value), {
      message: 'must be smtp://[user:password@]host:port or smtps://…',
    })
    .default('smtp://127.0.0.1:1025'),
  /** `true` refuses to send unless the server upgrades the connection with STARTTLS. */
  SMTP_REQUIRE_TLS: envBoolean.default(false),
  /** PEM file of a CA the SMTP server's certificate is checked against (besides the system's). */
  SMTP_TLS_CA: z.string().min(1).optional(),
  /** How long one SMTP exchange (connect, greeting, and each command) may take. */
  SMTP_TIMEOUT_MS: durationMs.default(15_000),
  /** Connections kept open to the SMTP server. */
  SMTP_POOL_SIZE: z.coerce.number().int().min(1).max(50).default(5),
  /** Who the mail comes from: an address, or `Name <address>`. */
  MAIL_FROM: mailbox.default('Handoff <no-reply@handoff.local>'),
  /**
   * The gateway's public address: mails link to `<PUBLIC_URL>/workspace/...` (providers) and
   * `<PUBLIC_URL>/console` (staff).
   */
  PUBLIC_URL: httpBase.default('http://127.0.0.1:8080'),
  /** Comma-separated staff addresses told when a queue needs a decision; unset: none. */
  STAFF_NOTIFY_EMAIL: addresses.optional(),
  /**
   * base64 of 32 bytes: signs the unsubscribe links (HMAC-SHA256), so a link names one provider
   * and one kind and cannot be made for another.
   */
  NOTIFICATIONS_SIGNING_KEY: z
    .string()
    .refine((value) => Buffer.from(value, 'base64').length === 32, {
      message: 'must be base64 of exactly 32 bytes',
    }),
  /** Events handled at once (each may wait on the SMTP server). */
  MAIL_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(16),
  /** How long before a provider's deadline its reminder goes. */
  REMINDER_BEFORE_MS: durationMs.default(24 * 60 * 60 * 1000),
});
export type NotificationsEnv = z.output<typeof notificationsEnv>;
