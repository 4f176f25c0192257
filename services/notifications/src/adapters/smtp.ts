// The SMTP client: a nodemailer pool of connections to SMTP_URL. It says what became of each
// hand-over: taken, refused for good (5xx: the address is marked), or not now (4xx, no
// connection, a timeout: tried again later).
import { readFileSync } from 'node:fs';
import nodemailer from 'nodemailer';
import type SMTPPool from 'nodemailer/lib/smtp-pool';

export interface SmtpSettings {
  SMTP_URL: string;
  SMTP_REQUIRE_TLS: boolean;
  SMTP_TLS_CA?: string | undefined;
  SMTP_TIMEOUT_MS: number;
  SMTP_POOL_SIZE: number;
  MAIL_FROM: string;
}

export interface OutgoingMail {
  to: string;
  /** The recipient's name for the To header (a provider's), or null. */
  toName: string | null;
  subject: string;
  text: string;
  html: string;
  messageId: string;
  headers: Record<string, string>;
}

export type SendOutcome =
  | { outcome: 'accepted' }
  /** 5xx: this address will not take mail. */
  | { outcome: 'refused'; code: number | null; reason: string }
  /**
   * 4xx, a connection that failed or timed out, or a 5xx to what is about our sending and not the
   * recipient (`sender`: credentials, MAIL FROM): worth trying again later, the last once the
   * settings are fixed.
   */
  | { outcome: 'deferred'; code: number | null; reason: string; sender?: true };

export interface SmtpSender {
  send(mail: OutgoingMail): Promise<SendOutcome>;
  /** The domain of MAIL_FROM, which Message-IDs end in. */
  domain: string;
  close(): void;
}

interface SmtpError {
  code?: string;
  responseCode?: number;
  response?: string;
  message?: string;
  /** The SMTP command nodemailer was answered on (`RCPT TO`, `DATA`, `MAIL FROM`, `AUTH PLAIN`…). */
  command?: string;
}

/**
 * The commands whose 5xx is about the recipient: its address (RCPT TO), or this mail to it (DATA,
 * with one recipient per mail). A 5xx to any other (AUTH, MAIL FROM, EHLO, STARTTLS) refuses our
 * sending, whoever the mail is for: marking the recipient then would silence every provider for a
 * wrong password or sender.
 */
const ABOUT_THE_RECIPIENT: ReadonlySet<string> = new Set(['RCPT TO', 'DATA']);

/**
 * What a failed hand-over means. Only a 5xx reply about the recipient is final; everything else
 * (a 4xx, a connection refused or dropped, a timeout, TLS that could not start, a 5xx to our
 * credentials or sender) may pass.
 */
export function classifyFailure(error: unknown): Exclude<SendOutcome, { outcome: 'accepted' }> {
  const e = (typeof error === 'object' && error !== null ? error : {}) as SmtpError;
  const code = typeof e.responseCode === 'number' ? e.responseCode : null;
  // The server's own words, first line only: they never contain the mail.
  const reason = (e.response ?? e.message ?? String(error)).split('\n')[0]?.slice(0, 300) ?? '';
  if (code !== null && code >= 500 && code < 600) {
    if (e.command === undefined || ABOUT_THE_RECIPIENT.has(e.command)) {
      return { outcome: 'refused', code, reason };
    }
    return { outcome: 'deferred', code, reason: `${e.command}: ${reason}`, sender: true };
  }
  return { outcome: 'deferred', code, reason: e.code ? `${e.code}: ${reason}` : reason };
}

export function mailDomain(from: string): string {
  const address = /<([^>]+)>/.exec(from)?.[1] ?? from;
  return address.split('@')[1]?.trim() || 'handoff.local';
}

export function smtpSender(settings: SmtpSettings): SmtpSender {
  const options: SMTPPool.Options = {
    pool: true,
    url: settings.SMTP_URL,
    maxConnections: settings.SMTP_POOL_SIZE,
    connectionTimeout: settings.SMTP_TIMEOUT_MS,
    greetingTimeout: settings.SMTP_TIMEOUT_MS,
    socketTimeout: settings.SMTP_TIMEOUT_MS,
    requireTLS: settings.SMTP_REQUIRE_TLS,
    ...(settings.SMTP_TLS_CA ? { tls: { ca: readFileSync(settings.SMTP_TLS_CA) } } : {}),
    // Nodemailer's own log would print envelopes; our logger says what is needed.
    logger: false,
    debug: false,
  };
  const transport = nodemailer.createTransport(options);
  return {
    domain: mailDomain(settings.MAIL_FROM),
    async send(mail) {
      try {
        const info = await transport.sendMail({
          from: settings.MAIL_FROM,
          // An address object: the address is used as it is, never parsed as a list.
          to: { name: mail.toName ?? '', address: mail.to },
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          messageId: mail.messageId,
          headers: mail.headers,
        });
        // One recipient per mail: refused, it is the rejected one.
        if (info.rejected.length > 0) {
          const refusal = info.rejectedErrors?.[0];
          return refusal
            ? classifyFailure(refusal)
            : { outcome: 'refused', code: null, reason: 'recipient rejected' };
        }
        return { outcome: 'accepted' };
      } catch (error) {
        return classifyFailure(error);
      }
    },
    close: () => transport.close(),
  };
}
