// The mail log: one document per mail, keyed by what it is about, its recipient and its kind,
// written before the mail is handed to the SMTP server and marked once the server took it.
import type { MailKind } from '@handoff/contracts';
import { insertOnce, type Store } from '@handoff/store';
import { createHash } from 'node:crypto';
import { MAIL_COLLECTIONS } from './collections.ts';

export type MailStatus = 'sending' | 'sent' | 'failed' | 'held';

export interface MailLogDoc {
  /** `<about>|<recipient>|<kind>` (see MailIntent.about). */
  _id: string;
  /** The event that first called for the mail; named in its Message-ID and X-Handoff-Event. */
  event_id: string;
  kind: MailKind;
  /** The provider it went to, or null for staff. */
  provider_id: string | null;
  to: string;
  status: MailStatus;
  message_id: string;
  /** Hand-overs to the SMTP server that failed for now (4xx, connection). */
  failures: number;
  last_error: string | null;
  created_at: Date;
  sent_at: Date | null;
  /** The hour (since the epoch) after which the entry is deleted. */
  expires_bucket: number;
}

const HOUR_MS = 60 * 60 * 1000;
/**
 * How long an entry is kept: longer than HANDOFF_EVENTS keeps events (30 days), so no event can
 * come again after its mail's entry is gone.
 */
export const MAIL_LOG_KEEP_MS = 35 * 24 * HOUR_MS;

export const mailKey = (about: string, recipient: string, kind: MailKind) =>
  `${about}|${recipient}|${kind}`;

/**
 * The mail's Message-ID: the same for every hand-over of one mail (a resend after a crash is
 * recognisably the same mail), naming the event that called for it.
 */
export function messageIdOf(key: string, eventId: string, kind: MailKind, domain: string): string {
  const hash = createHash('sha256').update(key).digest('hex').slice(0, 16);
  return `<${eventId}.${kind}.${hash}@${domain}>`;
}

export function mailLog(store: Store) {
  const collection = store.db.collection<MailLogDoc>(MAIL_COLLECTIONS.log);
  return {
    collection,
    find: (key: string) => collection.findOne({ _id: key }),
    /**
     * The entry of a mail about to be sent: this one inserted (`fresh`), or the one there (read
     * only when the insert found it: a mail's first try costs one command, not two).
     */
    async open(doc: MailLogDoc): Promise<{ doc: MailLogDoc; fresh: boolean }> {
      if ((await insertOnce(collection, doc)) === 'inserted') return { doc, fresh: true };
      const existing = await collection.findOne({ _id: doc._id });
      if (!existing) throw new Error(`mail log entry ${doc._id} vanished`);
      return { doc: existing, fresh: false };
    },
    async settle(
      key: string,
      change: Partial<Pick<MailLogDoc, 'status' | 'sent_at' | 'last_error'>>,
      failed = false,
    ): Promise<void> {
      await collection.updateOne(
        { _id: key },
        { $set: change, ...(failed ? { $inc: { failures: 1 } } : {}) },
      );
    },
    /** Deletes the entries of the given expiry hours, one equality each. */
    async prune(hours: readonly number[]): Promise<number> {
      let deleted = 0;
      for (const hour of hours) {
        deleted += (await collection.deleteMany({ expires_bucket: hour })).deletedCount;
      }
      return deleted;
    },
  };
}
export type MailLog = ReturnType<typeof mailLog>;

export const expiryBucketOf = (at: Date) => Math.floor((at.getTime() + MAIL_LOG_KEEP_MS) / HOUR_MS);
export const hourOf = (at: Date) => Math.floor(at.getTime() / HOUR_MS);
