// Sending one mail, at most once per (about, recipient, kind), whatever the redeliveries.
import { BusError, type AccessCache } from '@handoff/bus';
import {
  PROVIDER_MAIL_KIND_LABELS,
  type MailKind,
  type ProviderMailKind,
} from '@handoff/contracts';
import type { Logger } from '@handoff/observability';
import type { Store } from '@handoff/store';
import type { OutgoingMail, SmtpSender } from '../adapters/smtp.ts';
import type { Links } from '../domain/links.ts';
import type { ContentOf, MailIntent } from '../domain/mails.ts';
import { renderMail } from '../domain/render.ts';
import { signUnsubscribe } from '../domain/unsubscribe.ts';
import { addressBook } from '../store/addresses.ts';
import { inbox } from '../store/inbox.ts';
import {
  expiryBucketOf,
  mailKey,
  mailLog,
  messageIdOf,
  type MailLogDoc,
  type MailStatus,
} from '../store/mail-log.ts';
import type { Reader } from './lookups.ts';
import { countEmail } from './mail-metrics.ts';
import { inMailSpan } from './mail-span.ts';

/** The header that names the event a mail answers (the bench matches mails to events by it). */
export const EVENT_HEADER = 'X-Handoff-Event';

export interface PostmanDeps {
  store: Store;
  logger: Logger;
  smtp: SmtpSender;
  links: Links;
  signingKey: Buffer;
  providers: AccessCache<Reader>;
  staffAddresses: readonly string[];
  /** Tells every replica that a provider's address state changed (see `announceChange`). */
  announce(providerIds: readonly string[]): Promise<void>;
}

/** One mail to one address, as the mail log keys it. */
interface Letter {
  key: string;
  eventId: string;
  kind: MailKind;
  providerId: string | null;
  to: string;
  name: string | null;
  /** Whether the address is marked bouncing. */
  marked: boolean;
  /**
   * Whether the mail is held back while the address is marked: a provider's is (it gets mail
   * again after a sign-in mail got through or its address changed); staff's are not, since
   * nothing else would ever clear their mark, and an accepted one clears it.
   */
  holdIfMarked: boolean;
  content: ContentOf;
}

/**
 * Test-only fault hook, as the runtime's outbox has: `HANDOFF_TEST_FAULT=crash-before-smtp` ends
 * the process right after a mail's log entry is written, `crash-after-smtp-accept` right after
 * the SMTP server took the mail (before the entry is marked sent). The crash tests set it on a
 * service process; nothing else does.
 */
function crashForTest(point: 'crash-before-smtp' | 'crash-after-smtp-accept'): void {
  if (process.env.HANDOFF_TEST_FAULT === point) process.exit(86);
}

/** A hand-over the server did not take now is handed over again: the message comes again. */
const OUTCOME_OF = { accepted: 'sent', refused: 'failed', deferred: 'retried' } as const;

const isProviderKind = (kind: MailKind): kind is ProviderMailKind =>
  kind in PROVIDER_MAIL_KIND_LABELS;

/** The mail as handed to the SMTP server: rendered for its reader, with its unsubscribe link. */
function outgoingMail(
  deps: Pick<PostmanDeps, 'links' | 'signingKey'>,
  letter: Letter,
  doc: MailLogDoc,
): OutgoingMail {
  const { links } = deps;
  const provider = letter.providerId;
  const unsubscribe =
    provider && isProviderKind(letter.kind)
      ? {
          url: links.unsubscribe(
            signUnsubscribe(deps.signingKey, { providerId: provider, kind: letter.kind }),
          ),
          kindLabel: PROVIDER_MAIL_KIND_LABELS[letter.kind],
        }
      : undefined;
  const rendered = renderMail(
    letter.content({ name: letter.name }, links, new Date()),
    unsubscribe ? { unsubscribe } : {},
  );
  return {
    to: letter.to,
    toName: letter.name,
    ...rendered,
    messageId: doc.message_id,
    headers: {
      [EVENT_HEADER]: doc.event_id,
      ...(unsubscribe ? { 'List-Unsubscribe': `<${unsubscribe.url}>` } : {}),
    },
  };
}

export function postman(deps: PostmanDeps) {
  const { store, logger, smtp } = deps;
  const log = mailLog(store);
  const addresses = addressBook(store);
  const unread = inbox(store);

  /**
   * Sends a mail unless its log entry says it went (or failed for good, or was held back), and
   * answers what became of it. A hand-over the SMTP server could not take now throws a retryable
   * `unavailable`: the caller's message comes again later, and this mail with it.
   *
   * The entry is written (`sending`) before the hand-over and marked `sent` after the server
   * accepted it, both in the key's serialized turn: within a process no two hand-overs of one
   * mail overlap, and a message that comes again skips every mail marked. The one way to a second
   * copy: the server accepted the mail and the mark was not written (the process died in between,
   * or the write failed). The entry stays `sending`, the unacknowledged message comes again, and
   * the mail is handed over once more, with the same Message-ID and X-Handoff-Event (both from
   * the entry). So each such crash adds at most one copy of each mail accepted and not yet marked
   * at that moment: at most the hand-overs then in flight (MAIL_CONCURRENCY events' recipients,
   * and the reminder consumer's few), and mail clients show copies with one Message-ID as one. A
   * replica whose event loop stalls past the event's ack wait (progress is reported every few
   * seconds, so only a stall) lets another replica do the same. A crash before the acceptance
   * costs nothing: the retry's hand-over is the only one the server took.
   */
  const deliver = (letter: Letter): Promise<MailStatus> =>
    store.serialize(log.collection, letter.key, async () => {
      const fields = {
        kind: letter.kind,
        event_id: letter.eventId,
        provider_id: letter.providerId,
      };
      const held = letter.marked && letter.holdIfMarked;
      const { doc, fresh } = await log.open(
        entryOf(letter, held ? 'held' : 'sending', smtp.domain),
      );
      if (doc.status !== 'sending' && !(fresh && doc.status === 'held')) return doc.status;
      if (held) {
        if (!fresh) await log.settle(letter.key, { status: 'held' });
        countEmail(letter.kind, 'suppressed');
        logger.info(fields, 'mail held back: the address bounces');
        return 'held';
      }
      crashForTest('crash-before-smtp');
      const result = await inMailSpan(letter, () => smtp.send(outgoingMail(deps, letter, doc)));
      countEmail(letter.kind, OUTCOME_OF[result.outcome]);
      switch (result.outcome) {
        case 'accepted':
          crashForTest('crash-after-smtp-accept');
          await log.settle(letter.key, { status: 'sent', sent_at: new Date(), last_error: null });
          if (letter.marked) await addresses.clear(letter.to);
          logger.info(fields, 'mail sent');
          return 'sent';
        case 'refused':
          await addresses.markBouncing(letter.to, result.code, result.reason);
          if (letter.providerId) await deps.announce([letter.providerId]);
          await log.settle(letter.key, { status: 'failed', last_error: result.reason });
          logger.warn(
            { ...fields, smtp_code: result.code },
            'mail refused for good; address marked',
          );
          return 'failed';
        case 'deferred':
          await log.settle(letter.key, { last_error: result.reason }, true);
          if (result.sender) {
            // Not this mail's fault: every mail waits until the settings are fixed.
            logger.error(
              { ...fields, smtp_code: result.code, reason: result.reason },
              'SMTP server refuses our sending (check SMTP_URL, its credentials and MAIL_FROM); will retry',
            );
          }
          throw new BusError(
            'service_unavailable',
            `SMTP server did not take the mail: ${result.reason}`,
          );
      }
    });

  /** Sends an intent's mails; answers what became of each (skipped: nobody to send it to). */
  async function send(intent: MailIntent, eventId: string): Promise<(MailStatus | 'skipped')[]> {
    if (intent.audience.to === 'staff') {
      const content = intent.content;
      return Promise.all(
        deps.staffAddresses.map(async (to) =>
          deliver({
            key: mailKey(intent.about, `staff:${to.toLowerCase()}`, intent.kind),
            eventId,
            kind: intent.kind,
            providerId: null,
            to,
            name: null,
            marked: await addresses.bouncing(to),
            holdIfMarked: false,
            content,
          }),
        ),
      );
    }
    const { providerId } = intent.audience;
    if (intent.unread) {
      // Counted whatever the provider's settings: the workspace shows the count either way.
      const counted = await unread.count(
        providerId,
        intent.unread.requestId,
        intent.unread.messageId,
        intent.unread.createdAt,
      );
      // One mail per unread run: the rest wait for the provider to read the request.
      if (!counted.first) return ['skipped'];
    }
    const reader = await deps.providers.lookup(providerId);
    // Only active providers get mail, and only the kinds they keep on.
    if (!reader || reader.status !== 'active') return ['skipped'];
    if (isProviderKind(intent.kind) && !reader.kinds[intent.kind]) return ['skipped'];
    return [
      await deliver({
        key: mailKey(intent.about, providerId, intent.kind),
        eventId,
        kind: intent.kind,
        providerId,
        to: reader.email,
        name: reader.name,
        marked: reader.bouncing,
        holdIfMarked: true,
        content: intent.content,
      }),
    ];
  }

  /**
   * Sends every intent of one message; a mail that could not be handed over now fails the whole
   * (after the others were tried), so the message comes again and only what is left is sent.
   */
  async function sendAll(
    intents: readonly MailIntent[],
    eventId: string,
  ): Promise<(MailStatus | 'skipped')[]> {
    const results = await Promise.allSettled(intents.map((intent) => send(intent, eventId)));
    const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failure) throw failure.reason;
    return results.flatMap((r) => (r.status === 'fulfilled' ? r.value : []));
  }

  return { send, sendAll, addresses };
}
export type Postman = ReturnType<typeof postman>;

function entryOf(letter: Letter, status: MailStatus, domain: string): MailLogDoc {
  const now = new Date();
  return {
    _id: letter.key,
    event_id: letter.eventId,
    kind: letter.kind,
    provider_id: letter.providerId,
    to: letter.to,
    status,
    message_id: messageIdOf(letter.key, letter.eventId, letter.kind, domain),
    failures: 0,
    last_error: null,
    created_at: now,
    sent_at: null,
    expires_bucket: expiryBucketOf(now),
  };
}
