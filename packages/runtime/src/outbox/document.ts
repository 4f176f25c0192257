// What the outbox reads and writes in a document: its messages, the marker of a document whose
// messages wait for their publish, the windows of kept documents, and the indexes that find them.
import { activeTraceHeaders } from '@handoff/observability';
import type { IndexDefinition } from '@handoff/store';

/**
 * A message waiting to be published. It is written inside the very document whose change it
 * announces, in the same single-document update, so the change and its message cannot drift
 * apart: if the process dies before publishing, the sweep publishes it later.
 */
export interface OutboxMessage {
  /** The event id; also the JetStream `Nats-Msg-Id`, so a repeated publish is stored once. */
  id: string;
  subject: string;
  /**
   * The body, as the JSON text that is published: one string field rather than the event's
   * object tree, since every later read of the document decodes what it holds (FerretDB turns
   * each field of a nested object into values of its own, and the messages of kept collections
   * stay in their documents). Messages written before hold the object; {@link payloadOf}
   * reads either.
   */
  payload: string | Record<string, unknown>;
  created_at: Date;
  /** Kept beside the message for `beforePublish` (e.g. an audit entry); never published. */
  local?: Record<string, unknown>;
  /**
   * NATS headers to publish the message with (beside `Nats-Msg-Id`); while traces are recorded,
   * the `traceparent` of the write that made the message, so that its publish (by the call, or by
   * a later sweep) and what consumers do with it join that call's trace.
   */
  headers?: Record<string, string>;
}

/** The fields of any document that the outbox reads and writes. */
export interface OutboxFields {
  outbox?: OutboxMessage[];
  /**
   * Present while the outbox may hold messages: set in the write that adds one, unset once it is
   * empty. The sweep finds pending documents by the equality `outbox_pending: true`, which an
   * index serves (FerretDB pushes down only equality filters; a range over `outbox.created_at`
   * read every document). Written as `[true, group]` (see {@link markerOf}), which that equality
   * matches as well (an array field equals each of its elements, on MongoDB and FerretDB alike);
   * a bare `true` is the marker of documents written before the group.
   */
  outbox_pending?: OutboxMarker;
  /**
   * On a document of a kept collection: the writer and the second of the write that added its
   * messages, `<writer>:<second>`; after a move, those of the writes whose messages it still
   * keeps (an array equals each of its elements, on MongoDB and FerretDB alike). Never cleared:
   * the messages stay in the document after their publish, and only a writer that died has its
   * documents looked up by it (see {@link OutboxOptions.kept}).
   */
  outbox_window?: string | string[];
}

/** The marker of a document whose outbox holds messages: `true`, with or without its group. */
export type OutboxMarker = true | [true, string];

/**
 * How long a marker group lasts: the documents whose messages were written within the same
 * 20 ms share one, so the removal of their published messages finds them all with one indexed
 * equality, however many other documents are pending.
 */
export const MARKER_GROUP_MS = 20;

/** The marker a write adding `message` sets: `true` and the group of the message's time. */
export function markerOf(message: Pick<OutboxMessage, 'created_at'>): [true, string] {
  return [true, markerGroup(message)];
}

/** The marker group of a message's time (see {@link markerOf}). */
export function markerGroup(message: Pick<OutboxMessage, 'created_at'>): string {
  return `g${Math.floor(new Date(message.created_at).getTime() / MARKER_GROUP_MS)}`;
}

/** The part of any document that the outbox reads and writes. */
export interface OutboxDocument extends OutboxFields {
  _id: string;
}

/** The one index of the outbox, on every collection whose documents carry messages. */
export const outboxIndex: IndexDefinition = {
  key: { outbox_pending: 1 },
  options: { name: 'outbox_marker' },
};
/** The index of kept collections: a dead writer's documents, one second of writes at a time. */
export const outboxWindowIndex: IndexDefinition = {
  key: { outbox_window: 1 },
  options: { name: 'outbox_window' },
};

/** How long a window of a kept collection lasts. */
export const OUTBOX_WINDOW_MS = 1_000;

/** The second a window names. */
export function windowSecond(window: string): number {
  return Number(window.slice(window.lastIndexOf(':') + 1));
}

/** The index the sweep used before the marker (a range over `outbox.created_at`). */
export const RETIRED_OUTBOX_INDEX = 'outbox_pending';

/** A new document with `messages` in its outbox, to insert as it is. */
export function withOutbox<T extends object>(
  doc: T,
  messages: readonly OutboxMessage[],
): T & OutboxFields {
  const [first] = messages;
  return first
    ? { ...doc, outbox: [...messages], outbox_pending: markerOf(first) }
    : { ...doc, outbox: [] };
}

type OutboxPush = OutboxMessage | { $each: OutboxMessage[] };

/** An update and the outbox part `pushOutbox` adds to it. */
export type WithOutboxPush<U extends { $set?: object; $push?: object }> = Omit<
  U,
  '$set' | '$push'
> & {
  $set: NonNullable<U['$set']> & { outbox_pending?: OutboxMarker };
  $push: NonNullable<U['$push']> & { outbox?: OutboxPush };
};

/** `update` that also adds `messages` to the document's outbox, in the same write. */
export function pushOutbox<U extends { $set?: object; $push?: object }>(
  update: U,
  messages: readonly OutboxMessage[],
): WithOutboxPush<U> {
  const $set = { ...(update.$set as NonNullable<U['$set']>) };
  const $push = { ...(update.$push as NonNullable<U['$push']>) };
  const [only] = messages;
  if (!only) return { ...update, $set, $push };
  const outbox: OutboxPush = messages.length === 1 ? only : { $each: [...messages] };
  return {
    ...update,
    $set: { ...$set, outbox_pending: markerOf(only) },
    $push: { ...$push, outbox },
  };
}

export function outboxMessage(
  id: string,
  subject: string,
  payload: Record<string, unknown>,
  local?: Record<string, unknown>,
  headers?: Record<string, string>,
): OutboxMessage {
  const trace = activeTraceHeaders();
  const all = trace ? { ...headers, ...trace } : headers;
  return {
    id,
    subject,
    payload: JSON.stringify(payload),
    created_at: new Date(),
    ...(local ? { local } : {}),
    ...(all ? { headers: all } : {}),
  };
}

/** A message's body as the JSON text that is published, however it was stored. */
export function bodyOf(message: Pick<OutboxMessage, 'payload'>): string {
  return typeof message.payload === 'string' ? message.payload : JSON.stringify(message.payload);
}

/** A message's body as an object, however it was stored (see {@link OutboxMessage.payload}). */
export function payloadOf(message: Pick<OutboxMessage, 'payload'>): Record<string, unknown> {
  return typeof message.payload === 'string'
    ? (JSON.parse(message.payload) as Record<string, unknown>)
    : message.payload;
}
