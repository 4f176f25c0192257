import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { call } from '@handoff/bus';
import {
  EVENTS_STREAM,
  EventEnvelope,
  idPattern,
  Message,
  messageOps,
  newId,
  requestOps,
  subjects,
} from '@handoff/contracts';
import { bootstrap as intake } from '@handoff/intake';
import {
  domainEvent,
  OUTBOX_WINDOW_MS,
  OUTBOX_WRITERS,
  withOutbox,
  type OutboxWriterDoc,
  sha256Hex,
} from '@handoff/runtime';
import { eventually, natsOptions, uniqueDatabase, serviceEnv } from '@handoff/testkit';
import { jetstream } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { randomUUID } from 'node:crypto';
import { bootstrap } from '../src/bootstrap.ts';
import { messageView, type MessageDoc } from '../src/store/messages.ts';
import { CONVERSATION_LIMIT } from '../src/handlers/messages.ts';

type Service = Awaited<ReturnType<typeof bootstrap>>;
type Intake = Awaited<ReturnType<typeof intake>>;
let service: Service;
let intakeService: Intake;
let nc: NatsConnection;
const opts = { timeoutMs: 5_000 };

const env = (database: string, user: 'intake' | 'conversation' = 'conversation') =>
  serviceEnv(user, database);

beforeAll(async () => {
  // The real intake service: it owns requests and hands out their event sequence numbers.
  intakeService = await intake({ env: env(uniqueDatabase('intake'), 'intake') });
  service = await bootstrap({ env: env(uniqueDatabase('conversation')) });
  nc = await connect({ ...natsOptions() });
});

afterAll(async () => {
  await nc.close();
  await service.stop();
  await intakeService.stop();
});

const messages = () => service.store.db.collection<MessageDoc>('messages');

async function newRequest() {
  return call(
    nc,
    requestOps.create,
    {
      integration_id: 'int_test',
      // Each request needs a token of its own: intake keeps token hashes unique.
      token_hash: sha256Hex(`hrt_${randomUUID()}`),
      input: { message: 'hi' },
    },
    opts,
  );
}

/** Writes a message to a request as the integration `int_test`, by `author_role`. */
function post(
  request_id: string,
  author_role: 'customer' | 'agent' | 'provider',
  message: string,
  author_provider_id?: string,
) {
  return call(
    nc,
    messageOps.create,
    {
      request_id,
      integration_id: 'int_test',
      author_role,
      ...(author_provider_id ? { author_provider_id } : {}),
      message,
    },
    opts,
  );
}

/** The events of one request on HANDOFF_EVENTS under `filter`, in stream order, validated. */
async function eventsOf(requestId: string, count: number, filter = 'handoff.events.>') {
  return eventually(
    async () => {
      const consumer = await jetstream(nc).consumers.get(EVENTS_STREAM.name, {
        filter_subjects: [filter],
      });
      const found: EventEnvelope[] = [];
      const batch = await consumer.fetch({ max_messages: 10_000, expires: 1_000 });
      for await (const msg of batch) {
        const raw = msg.json<{ data?: { request_id?: unknown } }>();
        if (raw.data?.request_id === requestId) found.push(EventEnvelope.parse(raw));
        if (msg.info.pending === 0) break;
      }
      await batch.close();
      return found.length >= count ? found : undefined;
    },
    { what: `${count} events of ${requestId}` },
  );
}

describe('the conversation of a request', () => {
  it('answers a retried create of the same operation with the message its first attempt wrote', async () => {
    // `npm run chaos` found retried creates made twice: the first attempt's answer was lost (the
    // service killed after its insert, a bus timeout), the gateway freed the Idempotency-Key and
    // the SDK's retry, with the same key and so the same operation, ran the create again.
    const request = await newRequest();
    const send = (operation: string, message: string) =>
      call(
        nc,
        messageOps.create,
        { request_id: request.id, integration_id: 'int_test', author_role: 'agent', message },
        { ...opts, operation },
      );
    const first = await send('op_retried_message', 'Only once, please.');
    const again = await send('op_retried_message', 'Only once, please.');
    const other = await send('op_another_message', 'Only once, please.');
    expect(again).toEqual(first);
    expect(other.id).not.toBe(first.id);
    const listed = await call(nc, messageOps.list, { request_id: request.id }, opts);
    expect(listed.data.map((message) => message.id).sort()).toEqual([first.id, other.id].sort());
    // One event for the first attempt and its retry together.
    const events = await eventsOf(request.id, 2, subjects.event('message.created'));
    expect(events.filter((event) => event.data.object.id === first.id)).toHaveLength(1);
  });

  it('stores messages and lists them oldest first, with author roles', async () => {
    const request = await newRequest();
    const other = await newRequest();

    const first = await post(request.id, 'customer', 'Can you start on Monday?');
    const second = await post(request.id, 'agent', 'Yes, Monday works.');
    await post(other.id, 'provider', 'Not in this conversation.');

    expect(Message.parse(first)).toEqual(first);
    expect(first).toMatchObject({
      object: 'message',
      request_id: request.id,
      author_role: 'customer',
      message: 'Can you start on Monday?',
    });
    expect(first.id).toMatch(idPattern('msg'));
    expect(new Date(first.created_at).toISOString()).toBe(first.created_at);

    const list = await call(nc, messageOps.list, { request_id: request.id }, opts);
    expect(list).toEqual({ object: 'list', data: [first, second], has_more: false });
    expect(list.data.map((m) => m.author_role)).toEqual(['customer', 'agent']);

    // Published at once. A message is written once and never changed, so its event stays in
    // it (kept, in this writer's window) rather than costing a second write, and it is not
    // pending for the sweep.
    await service.outbox.flush();
    const stored = await messages().findOne({ _id: first.id });
    expect(stored).toMatchObject({ request_id: request.id, integration_id: 'int_test' });
    expect(stored?.outbox).toEqual([
      expect.objectContaining({ subject: subjects.event('message.created') }),
    ]);
    expect(stored?.outbox_window).toMatch(/^w_[0-9a-f-]+:\d+$/);
    expect(stored?.outbox_pending).toBeUndefined();
  });

  it('lists an empty conversation', async () => {
    const request = await newRequest();
    await expect(call(nc, messageOps.list, { request_id: request.id }, opts)).resolves.toEqual({
      object: 'list',
      data: [],
      has_more: false,
    });
  });

  it('shows only the newest 1,000 messages, oldest first, and says that more exist; pages reach them all', async () => {
    const requestId = newId('req');
    const start = Date.now() - 3_600_000;
    const docs: MessageDoc[] = Array.from({ length: CONVERSATION_LIMIT + 1 }, (_, i) => ({
      _id: newId('msg', start + i),
      request_id: requestId,
      integration_id: 'int_test',
      author_role: i % 2 === 0 ? 'customer' : 'agent',
      message: `message ${i}`,
      created_at: new Date(start + i),
    }));
    await messages().insertMany(docs);

    const list = await call(nc, messageOps.list, { request_id: requestId }, opts);
    expect(list.has_more).toBe(true);
    expect(list.data).toHaveLength(CONVERSATION_LIMIT);
    expect(list.data[0]?.message).toBe('message 1');
    expect(list.data.at(-1)?.message).toBe(`message ${CONVERSATION_LIMIT}`);

    // With `limit`, pages newest first reach every message, the oldest one included.
    const newest = await call(nc, messageOps.list, { request_id: requestId, limit: 100 }, opts);
    expect(newest.has_more).toBe(true);
    expect(newest.data[0]?.message).toBe(`message ${CONVERSATION_LIMIT}`);
    let cursor = newest.data.at(-1)?.id;
    let seen = newest.data.length;
    let last = newest;
    while (last.has_more) {
      last = await call(
        nc,
        messageOps.list,
        { request_id: requestId, limit: 100, starting_after: cursor },
        opts,
      );
      seen += last.data.length;
      cursor = last.data.at(-1)?.id;
    }
    expect(seen).toBe(CONVERSATION_LIMIT + 1);
    expect(last.data.at(-1)?.message).toBe('message 0');
    // And back towards the newer ones.
    const back = await call(
      nc,
      messageOps.list,
      { request_id: requestId, limit: 2, ending_before: docs[0]?._id },
      opts,
    );
    expect(back.data.map((m) => m.message)).toEqual(['message 2', 'message 1']);
    expect(back.has_more).toBe(true);
  });
});

describe('a provider’s own messages', () => {
  it('keeps the writing provider with the message, and tells only that provider it is its own', async () => {
    const request = await newRequest();
    const write = (
      author_role: 'provider' | 'agent',
      message: string,
      author_provider_id?: string,
    ) => post(request.id, author_role, message, author_provider_id);
    const mine = await write('provider', 'From the first provider.', 'prv_first');
    const theirs = await write('provider', 'From the second provider.', 'prv_second');
    const agent = await write('agent', 'From the agent.', 'prv_first');
    const older = await write('provider', 'From before authors were kept.');

    // The agent's view and the event name no provider.
    expect(Object.keys(mine).sort()).toEqual(Object.keys(agent).sort());
    const events = await eventsOf(request.id, 4, subjects.event('message.created'));
    expect(events.map((event) => event.data.object)).toEqual([mine, theirs, agent, older]);
    // The document keeps it: for a provider's message only.
    const stored = await messages().find({ request_id: request.id }).sort({ _id: 1 }).toArray();
    expect(stored.map((doc) => doc.author_provider_id)).toEqual([
      'prv_first',
      'prv_second',
      undefined,
      undefined,
    ]);

    const page = await call(
      nc,
      messageOps.listForProvider,
      { request_id: request.id, provider_id: 'prv_first', limit: 100 },
      opts,
    );
    expect(page).toEqual({
      object: 'list',
      data: [older, agent, theirs, mine].map((message) => ({
        ...message,
        mine: message.id === mine.id,
      })),
      has_more: false,
    });
    const second = await call(
      nc,
      messageOps.listForProvider,
      { request_id: request.id, provider_id: 'prv_second', limit: 2, starting_after: agent.id },
      opts,
    );
    expect(second.data.map((message) => [message.id, message.mine])).toEqual([
      [theirs.id, true],
      [mine.id, false],
    ]);

    const other = await newRequest();
    const elsewhere = await post(other.id, 'provider', 'On another request.', 'prv_first');
    const written = (provider_id: string, ids: string[]) =>
      call(nc, messageOps.writtenBy, { request_id: request.id, provider_id, ids }, opts);
    const every = [mine.id, theirs.id, agent.id, older.id, elsewhere.id, 'msg_unknown'];
    expect(await written('prv_first', every)).toEqual({ ids: [mine.id] });
    expect(await written('prv_second', [...every, theirs.id])).toEqual({ ids: [theirs.id] });
    expect(await written('prv_third', every)).toEqual({ ids: [] });
  });
});

describe('message.created events', () => {
  it('publishes message.created on HANDOFF_EVENTS with the next sequence of the request', async () => {
    const request = await newRequest();
    const created: Message[] = [];
    for (const text of ['first', 'second']) {
      created.push(await post(request.id, 'agent', text));
    }

    const messageEvents = await eventsOf(request.id, 2, subjects.event('message.created'));
    expect(messageEvents).toHaveLength(2);
    expect(messageEvents.map((e) => e.type)).toEqual(['message.created', 'message.created']);
    expect(messageEvents.map((e) => e.data.object)).toEqual(created);
    for (const event of messageEvents) {
      expect(event.id).toMatch(idPattern('evt'));
      expect(event.data.request_id).toBe(request.id);
    }

    // request.created from intake is 1; each message takes the next number, with no gap.
    const all = await eventsOf(request.id, 3);
    expect(all.map((e) => [e.type, e.data.sequence])).toEqual([
      ['request.created', 1],
      ['message.created', 2],
      ['message.created', 3],
    ]);
  });

  /** The request's one `message.created`: the event `eventId`, numbered after `request.created`. */
  const expectPublishedOnce = async (requestId: string, eventId: string, view: Message) => {
    const events = await eventsOf(requestId, 1, subjects.event('message.created'));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      id: eventId,
      type: 'message.created',
      data: { request_id: requestId, sequence: 2, object: view },
    });
  };

  /** A message as a process wrote it just before it crashed, and its view. */
  const writtenBeforeACrash = (requestId: string) => {
    const doc: MessageDoc = {
      _id: newId('msg'),
      request_id: requestId,
      integration_id: 'int_test',
      author_role: 'customer',
      message: 'written just before a crash',
      created_at: new Date(),
    };
    return { doc, view: messageView(doc) };
  };

  it('publishes the messages of a writer that stopped, numbered like any other', async () => {
    const request = await newRequest();
    const { doc, view } = writtenBeforeACrash(request.id);
    const event = domainEvent('message.created', request.id, view);
    // What a process that died right after the write leaves: its registry entry, no longer
    // refreshed, and the message in its window.
    const writers = service.store.db.collection<OutboxWriterDoc>(OUTBOX_WRITERS);
    const gone = `w_gone_${randomUUID()}`;
    const at = Date.now() - 60_000;
    await writers.insertOne({ _id: gone, beat_at: new Date(at), low_water: new Date(at) });
    await messages().insertOne({
      ...doc,
      outbox: [event],
      outbox_window: `${gone}:${Math.floor(at / OUTBOX_WINDOW_MS)}`,
    });

    await service.outbox.sweep();

    await expectPublishedOnce(request.id, event.id, view);
    expect(await writers.findOne({ _id: gone })).toBeNull();
  });

  it('publishes what a crash left in an outbox written before kept messages, then clears it', async () => {
    const request = await newRequest();
    const { doc, view } = writtenBeforeACrash(request.id);
    const pending = {
      ...domainEvent('message.created', request.id, view),
      created_at: new Date(Date.now() - 60_000),
    };
    // What the write before a crash leaves: the message and the pending marker.
    await messages().insertOne(withOutbox(doc, [pending]));

    await service.outbox.sweep();

    const stored = await messages().findOne({ _id: doc._id });
    expect(stored?.outbox ?? []).toEqual([]);
    await expectPublishedOnce(request.id, pending.id, view);
    const list = await call(nc, messageOps.list, { request_id: request.id }, opts);
    expect(list.data).toEqual([view]);
  });
});
