// Writes of kept documents: their messages stay after the publish, marked with the window of the
// writer that wrote them, so a crash is covered by the writer registry, not by a second write.
import {
  OUTBOX_WINDOW_MS,
  windowSecond,
  type OutboxFields,
  type OutboxMessage,
} from './document.ts';
import type { MarkedAt, WriterRegistry } from './writers.ts';

/**
 * How long a move of a kept document keeps the messages (and windows) of earlier writes: long
 * published by then, since a writer that dies is adopted within seconds while any process of
 * its service runs, and a process adopts before it serves.
 */
export const KEPT_FOR_MS = 10 * 60_000;

/**
 * `doc`, new, to insert into the collection named `collection`, with `messages` in its outbox,
 * marked with the writer's window of now.
 */
export function keptDocument<T extends { _id: string }>(
  registry: WriterRegistry,
  collection: string,
  doc: T,
  messages: readonly OutboxMessage[],
): T & OutboxFields {
  if (messages.length === 0) return { ...doc, outbox: [] };
  const outbox_window = registry.mark(messages, { collection, documentId: doc._id });
  return { ...doc, outbox: [...messages], outbox_window };
}

/**
 * A change of a kept document (`at`) as it stood (`before`) that adds `messages`: `update` with the
 * outbox set to the messages of the last {@link KEPT_FOR_MS} not published here and these, and
 * the windows likewise; and the condition that the outbox is still the one read, for the
 * compare-and-set (so that no message another write added meanwhile is lost).
 */
export function keptUpdate<U extends { $set?: object }>(
  registry: WriterRegistry,
  at: MarkedAt,
  before: OutboxFields,
  update: U,
  messages: readonly OutboxMessage[],
  now = Date.now(),
): { update: U & { $set: OutboxFields }; unchanged: Record<string, unknown> } {
  const kept = before.outbox ?? [];
  const unchanged = { outbox: before.outbox ? { $size: kept.length } : { $exists: false } };
  if (messages.length === 0) return { update: { ...update, $set: { ...update.$set } }, unchanged };
  const since = now - KEPT_FOR_MS;
  const windows = [before.outbox_window ?? []].flat();
  const outbox_window = [
    ...windows.filter((window) => windowSecond(window) * OUTBOX_WINDOW_MS >= since),
    registry.mark(messages, at),
  ];
  const outbox = [
    ...kept.filter(
      (message) =>
        new Date(message.created_at).getTime() >= since && !registry.publishedHere(message.id),
    ),
    ...messages,
  ];
  return {
    update: {
      ...update,
      $set: { ...update.$set, outbox, outbox_window: [...new Set(outbox_window)] },
    },
    unchanged,
  };
}
