import { implement, type Endpoint } from '@handoff/bus';
import { messageOps, newId } from '@handoff/contracts';
import { attachable, type Catalog } from '@handoff/files';
import type { Logger } from '@handoff/observability';
import { createdEarlier, creatingOperation, domainEvent, type Outbox } from '@handoff/runtime';
import { groupedInserts, paginate, type Store } from '@handoff/store';
import {
  messageCollections,
  messageView,
  providerMessageView,
  type MessageDoc,
} from '../store/messages.ts';

/** The conversation shows at most this many messages: the newest ones. */
export const CONVERSATION_LIMIT = 1_000;

export interface MessageDeps {
  store: Store;
  logger: Logger;
  outbox: Outbox;
  /** The conversation's files, which messages attach. */
  files: Catalog;
}

export function messageEndpoints(deps: MessageDeps): Record<string, Endpoint> {
  const c = messageCollections(deps.store);
  // Messages posted at once are inserted together: one command and one commit for all of them.
  const newMessages = groupedInserts(c.messages);

  return {
    ...implement(messageOps.create, async (input) => {
      // A retry whose first answer was lost: the message that attempt wrote.
      const earlier = await createdEarlier(c.messages);
      if (earlier && earlier.request_id === input.request_id) return messageView(earlier);
      const attachments = input.attachments?.length
        ? await attachable(deps.files, input.attachments, {
            request_id: input.request_id,
            uploaded_by: input.author_role === 'provider' ? 'provider' : 'agent',
            ...(input.author_provider_id === undefined
              ? {}
              : { provider_id: input.author_provider_id }),
          })
        : [];
      const doc: MessageDoc = {
        _id: newId('msg'),
        request_id: input.request_id,
        integration_id: input.integration_id,
        author_role: input.author_role,
        ...(input.author_role === 'provider' && input.author_provider_id !== undefined
          ? { author_provider_id: input.author_provider_id }
          : {}),
        message: input.message,
        ...(attachments.length > 0 ? { attachments } : {}),
        created_at: new Date(),
        ...creatingOperation(),
      };
      // The agent's view: the event carries no author id, so webhooks deliver none.
      const view = messageView(doc);
      const event = domainEvent('message.created', doc.request_id, view, doc.integration_id);
      // Kept: a message is never changed, so its event stays in it after the publish.
      await newMessages.insert(deps.outbox.withMessages(c.messages, doc, [event]));
      // The message is already stored; a failed publish is left to the sweep.
      await deps.outbox.publishOrLeave(c.messages, doc._id, [event]);
      return view;
    }),

    ...implement(messageOps.list, async ({ request_id, limit, starting_after, ending_before }) => {
      if (limit !== undefined) {
        const page = await paginate(
          c.messages,
          { request_id },
          { limit, starting_after, ending_before },
        );
        return {
          object: 'list' as const,
          data: page.data.map(messageView),
          has_more: page.has_more,
        };
      }
      // One more than shown tells whether older messages were left out.
      const newest = await c.messages
        .find({ request_id }, { projection: { outbox: 0 } })
        .sort({ _id: -1 })
        .limit(CONVERSATION_LIMIT + 1)
        .toArray();
      const shown = newest.slice(0, CONVERSATION_LIMIT).reverse();
      return {
        object: 'list' as const,
        data: shown.map(messageView),
        has_more: newest.length > CONVERSATION_LIMIT,
      };
    }),

    ...implement(messageOps.listForProvider, async ({ request_id, provider_id, ...query }) => {
      const page = await paginate(c.messages, { request_id }, query);
      return {
        object: 'list' as const,
        data: page.data.map((doc) => providerMessageView(doc, provider_id)),
        has_more: page.has_more,
      };
    }),

    ...implement(messageOps.writtenBy, async ({ request_id, provider_id, ids }) => {
      // One lookup by `_id` each: an `$in` is no equality, and FerretDB would read every
      // message of the request (or of the collection) to answer it.
      const found = await Promise.all(
        [...new Set(ids)].map((id) =>
          c.messages.findOne({ _id: id }, { projection: { request_id: 1, author_provider_id: 1 } }),
        ),
      );
      return {
        ids: found.flatMap((doc) =>
          doc && doc.request_id === request_id && doc.author_provider_id === provider_id
            ? [doc._id]
            : [],
        ),
      };
    }),
  };
}
