import type { FileMeta, Message, ProviderMessage } from '@handoff/contracts';
import type { OutboxDocument } from '@handoff/runtime';
import type { Store } from '@handoff/store';
import type { Collection } from 'mongodb';

export interface MessageDoc extends OutboxDocument {
  /** A `msg_` id: it sorts by creation time, so it orders the conversation. */
  _id: string;
  request_id: string;
  /** The owning integration, kept for tenant scoping; the gateway checks it before calling. */
  integration_id: string;
  author_role: Message['author_role'];
  /**
   * The provider who wrote it, when `author_role` is `provider`: it tells a provider its own
   * messages from another's (`mine`), and is in no view the agent or its webhooks read. Absent
   * on messages stored before it was kept.
   */
  author_provider_id?: string;
  message: string;
  /** The attached files' metadata, as they were when the message was written. */
  attachments?: FileMeta[];
  created_at: Date;
}

export function messageView(doc: MessageDoc): Message {
  return {
    object: 'message',
    id: doc._id,
    request_id: doc.request_id,
    author_role: doc.author_role,
    message: doc.message,
    ...(doc.attachments?.length ? { attachments: doc.attachments } : {}),
    created_at: doc.created_at.toISOString(),
  };
}

/** The message as `providerId` reads it: whether that provider wrote it. */
export function providerMessageView(doc: MessageDoc, providerId: string): ProviderMessage {
  return { ...messageView(doc), mine: doc.author_provider_id === providerId };
}

export interface MessageCollections {
  messages: Collection<MessageDoc>;
}

export function messageCollections(store: Store): MessageCollections {
  return { messages: store.db.collection<MessageDoc>('messages') };
}
