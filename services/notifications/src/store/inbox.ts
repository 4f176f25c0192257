// Each provider's unread counts: one document per provider, holding, per request, the messages
// from others it has not read yet and when it last read the request. An inbox read is one lookup
// by `_id`; every change runs in the document's serialized turn (FerretDB does not apply
// concurrent updates of one document atomically).
import type { Store } from '@handoff/store';
import { MAIL_COLLECTIONS } from './collections.ts';

export interface InboxEntry {
  /** Ids of the unread messages, oldest first (at most MAX_UNREAD_IDS). */
  unread: string[];
  /** When the provider last read the request: messages made before it are not counted. */
  read_at: Date | null;
}

export interface InboxDoc {
  /** The provider id. */
  _id: string;
  /** By request id (ids are `req_` and base32: safe as field names). */
  requests: Record<string, InboxEntry>;
}

/**
 * The unread messages remembered per request. The ids make a redelivered message event count
 * once; a provider that lets more pile up sees this number (its workspace shows the messages).
 */
export const MAX_UNREAD_IDS = 999;

const SAFE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Whether a request id can name a field of the inbox document (no `.` or `$`). */
export const isInboxKey = (requestId: string) => SAFE_ID.test(requestId);

export interface Counted {
  /** The message is the first of an unread run (the count went, or would have gone, 0 → 1). */
  first: boolean;
  unread: number;
}

export function inbox(store: Store) {
  const collection = store.db.collection<InboxDoc>(MAIL_COLLECTIONS.inbox);
  const turn = <T>(providerId: string, task: () => Promise<T>) =>
    store.serialize(collection, providerId, task);

  return {
    collection,
    /**
     * Counts a message from others as unread for the provider. Idempotent per message: counted
     * again, it changes nothing and answers the same `first`, so a redelivered event mails (or
     * finds mailed) the same mail.
     */
    count(providerId: string, requestId: string, messageId: string, createdAt: Date) {
      if (!SAFE_ID.test(requestId)) throw new Error('unexpected request id');
      return turn(providerId, async (): Promise<Counted> => {
        const doc = await collection.findOne(
          { _id: providerId },
          { projection: { [`requests.${requestId}`]: 1 } },
        );
        const entry = doc?.requests?.[requestId] ?? { unread: [], read_at: null };
        if (entry.unread.includes(messageId)) {
          return { first: entry.unread[0] === messageId, unread: entry.unread.length };
        }
        if (entry.read_at && createdAt.getTime() <= entry.read_at.getTime()) {
          return { first: false, unread: entry.unread.length };
        }
        if (entry.unread.length >= MAX_UNREAD_IDS) {
          return { first: false, unread: entry.unread.length };
        }
        const unread = [...entry.unread, messageId];
        await collection.updateOne(
          { _id: providerId },
          { $set: { [`requests.${requestId}`]: { unread, read_at: entry.read_at } } },
          { upsert: true },
        );
        return { first: unread.length === 1, unread: unread.length };
      });
    },
    /** Marks the request read now: its count is 0 until a later message. */
    read(providerId: string, requestId: string, at: Date): Promise<void> {
      if (!SAFE_ID.test(requestId)) throw new Error('unexpected request id');
      return turn(providerId, async () => {
        await collection.updateOne(
          { _id: providerId },
          { $set: { [`requests.${requestId}`]: { unread: [], read_at: at } } },
          { upsert: true },
        );
      });
    },
    /** The unread counts of the named requests (0 for those it has none of). */
    async counts(
      providerId: string,
      requestIds: readonly string[],
    ): Promise<Record<string, number>> {
      const wanted = requestIds.filter((id) => SAFE_ID.test(id));
      const doc =
        wanted.length === 0
          ? null
          : await collection.findOne(
              { _id: providerId },
              { projection: Object.fromEntries(wanted.map((id) => [`requests.${id}`, 1])) },
            );
      return Object.fromEntries(
        requestIds.map((id) => [id, doc?.requests?.[id]?.unread.length ?? 0]),
      );
    },
  };
}
export type Inbox = ReturnType<typeof inbox>;
