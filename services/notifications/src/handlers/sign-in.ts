// `mail.sign_in`: the sign-in link, mailed in the background and answered at once. The token is
// in the mail and nowhere else here: never stored, never logged.
import { implement, retryDelayMs, type Endpoint } from '@handoff/bus';
import { notificationOps } from '@handoff/contracts';
import type { Logger } from '@handoff/observability';
import { randomUUID } from 'node:crypto';
import type { SmtpSender } from '../adapters/smtp.ts';
import type { Links } from '../domain/links.ts';
import { signInMail } from '../domain/mails.ts';
import { renderMail } from '../domain/render.ts';
import type { AddressBook } from '../store/addresses.ts';
import { countEmail } from './mail-metrics.ts';
import { inMailSpan } from './mail-span.ts';

export function signInEndpoints(deps: {
  logger: Logger;
  smtp: SmtpSender;
  links: Links;
  addresses: AddressBook;
  /** Tells every replica that a provider's address state changed (see `announceChange`). */
  announce(providerIds: readonly string[]): Promise<void>;
}): { endpoints: Record<string, Endpoint>; stop(): Promise<void> } {
  const { logger, smtp, links, addresses } = deps;
  const sending = new Set<Promise<void>>();
  const waits = new Set<() => void>();
  let stopped = false;

  /** Waits `ms`, or less when the service stops. */
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        waits.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      waits.add(done);
    });

  /**
   * Hands the mail over, again after a failure that may pass (2^n s, at most 30 s) while the link
   * lives: a mail that arrives after its link expired is of no use. Transactional: it goes whatever
   * the provider's settings and to a bouncing address too (it may be the mail that shows the
   * address works again).
   */
  const mail = async (input: {
    provider_id: string;
    to: string;
    name: string;
    token: string;
    expires_at: string;
  }) => {
    const expiresAt = new Date(input.expires_at);
    const fields = { provider_id: input.provider_id, kind: 'sign_in' };
    const content = signInMail(input.name, input.token, expiresAt);
    const messageId = `<sign-in.${randomUUID()}@${smtp.domain}>`;
    for (let attempt = 1; !stopped; attempt += 1) {
      const rendered = renderMail(content({ name: input.name }, links, new Date()));
      const result = await inMailSpan({ kind: 'sign_in' }, () =>
        smtp.send({ to: input.to, toName: input.name, ...rendered, messageId, headers: {} }),
      );
      if (result.outcome === 'accepted') {
        countEmail('sign_in', 'sent');
        if (await addresses.bouncing(input.to)) {
          await addresses.clear(input.to);
          await deps.announce([input.provider_id]);
        }
        logger.info(fields, 'mail sent');
        return;
      }
      if (result.outcome === 'refused') {
        countEmail('sign_in', 'failed');
        await addresses.markBouncing(input.to, result.code, result.reason);
        await deps.announce([input.provider_id]);
        logger.warn({ ...fields, smtp_code: result.code }, 'mail refused for good; address marked');
        return;
      }
      const delayMs = retryDelayMs(attempt);
      if (Date.now() + delayMs >= expiresAt.getTime()) {
        countEmail('sign_in', 'failed');
        logger.warn(
          { ...fields, attempts: attempt },
          'sign-in mail not sent before its link expired',
        );
        return;
      }
      countEmail('sign_in', 'retried');
      // The server's words (never the mail): a refusal of our sending names the setting to fix.
      logger.warn(
        { ...fields, retry_in_ms: delayMs, smtp_code: result.code, reason: result.reason },
        'sign-in mail not sent; will retry',
      );
      await pause(delayMs);
    }
  };

  return {
    endpoints: implement(notificationOps.sendSignIn, async (input) => {
      const task = mail(input).catch((error: unknown) => {
        logger.error({ err: error, provider_id: input.provider_id }, 'sign-in mail failed');
      });
      sending.add(task);
      void task.finally(() => sending.delete(task));
      return { queued: true as const };
    }),
    async stop() {
      stopped = true;
      for (const wake of [...waits]) wake();
      await Promise.allSettled([...sending]);
    },
  };
}
