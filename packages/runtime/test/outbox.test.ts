import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { connectBus, ensureStreams, type Bus } from '@handoff/bus';
import { AUDIT_STREAM, newId } from '@handoff/contracts';
import { createLogger } from '@handoff/observability';
import { connectStore, MAX_OPERATIONS_PER_COMMAND, type Store } from '@handoff/store';
import { freshDatabase, natsOptions } from '@handoff/testkit';
import type { Collection } from 'mongodb';
import {
  createOutbox,
  markerOf,
  OUTBOX_WINDOW_MS,
  OUTBOX_WRITERS,
  outboxMessage,
  payloadOf,
  pushOutbox,
  withOutbox,
  type Outbox,
  type OutboxDocument,
  type OutboxOptions,
  type OutboxWriterDoc,
} from '../src/index.ts';

const logger = createLogger({ service: 'outbox-test', version: '0', level: 'silent' });
let bus: Bus;
let store: Store;
let docs: Collection<OutboxDocument & { n?: number }>;
let outbox: Outbox;

beforeAll(async () => {
  const { servers, user, pass } = natsOptions();
  bus = await connectBus({ url: servers, user, password: pass, name: 'outbox-test', logger });
  await ensureStreams(bus.jsm);
  store = await connectStore({ ...freshDatabase('outbox'), appName: 'outbox-test', logger });
  docs = store.db.collection('outbox_docs');
  outbox = createOutbox({
    js: bus.js,
    logger,
    collections: [docs],
    serialize: store.serialize,
  });
});

afterAll(async () => {
  await outbox.flush();
  await bus.nc.close();
  await store.close();
});

const message = (ageMs = 0) => {
  const id = newId('evt');
  return {
    ...outboxMessage(id, `handoff.audit.outboxtest.${id}`, { id }),
    created_at: new Date(Date.now() - ageMs),
  };
};

/** How many messages the audit stream holds on this message's subject (0 or 1). */
async function published(subject: string): Promise<number> {
  const info = await bus.jsm.streams.info(AUDIT_STREAM.name, { subjects_filter: subject });
  return info.state.subjects?.[subject] ?? 0;
}

/** A collection, recording each write command the outbox sends and how many at once. */
function countingCommands(collection: Collection<OutboxDocument & { n?: number }> = docs) {
  const commands: { name: string; operations: number }[] = [];
  let inFlight = 0;
  let most = 0;
  const counted = new Proxy(collection, {
    get(target, property, receiver) {
      if (property === 'bulkWrite' || property === 'updateMany' || property === 'updateOne') {
        const name = property;
        return async (first: unknown, ...rest: unknown[]) => {
          commands.push({ name, operations: Array.isArray(first) ? first.length : 1 });
          inFlight += 1;
          most = Math.max(most, inFlight);
          try {
            return await (target[name] as (...args: unknown[]) => Promise<unknown>).call(
              target,
              first,
              ...rest,
            );
          } finally {
            inFlight -= 1;
          }
        };
      }
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
  return { counted, commands, most: () => most };
}

/**
 * An outbox whose removals wait for the explicit flush, however slowly the machine publishes:
 * with the default 25 ms timer a busy machine flushes a document between its two messages, which
 * rightly takes the long way.
 */
function flushedByHand(): Outbox {
  return createOutbox({
    js: bus.js,
    logger,
    collections: [docs],
    serialize: store.serialize,
    clearDelayMs: 3_600_000,
  });
}

/**
 * Three documents' ids and two messages for each, all made at one time: within one marker group.
 * Messages made across a 20 ms group boundary (a busy machine) would split a removal into a
 * command per group.
 */
function writtenTogether() {
  const ids = [newId('msg'), newId('msg'), newId('msg')];
  const at = new Date();
  const messages = ids.map(() => [
    { ...message(), created_at: at },
    { ...message(), created_at: at },
  ]);
  return { ids, messages };
}

async function expectCleared(ids: string[]): Promise<void> {
  const cleared = await docs.find({ _id: { $in: ids } }).toArray();
  expect(cleared).toHaveLength(ids.length);
  for (const doc of cleared) {
    expect(doc.outbox).toEqual([]);
    expect(doc.outbox_pending).toBeUndefined();
  }
}

describe('the outbox', () => {
  it('publishes at once and clears the outbox and its marker with the next batch', async () => {
    const first = message();
    const second = message();
    const id = newId('msg');
    await docs.insertOne(withOutbox({ _id: id }, [first, second]));
    // Marked with the group of its message: `true` too, for the sweep's equality.
    expect((await docs.findOne({ _id: id }))?.outbox_pending).toEqual(markerOf(first));
    expect(await docs.countDocuments({ _id: id, outbox_pending: true })).toBe(1);

    await outbox.publish(docs, id, [first, second]);
    expect(await published(first.subject)).toBe(1);
    expect(await published(second.subject)).toBe(1);
    await outbox.flush();
    const doc = await docs.findOne({ _id: id });
    expect(doc?.outbox).toEqual([]);
    expect(doc?.outbox_pending).toBeUndefined();
  });

  it('clears the documents of one marker group with one command', async () => {
    const { counted, commands } = countingCommands();
    const batched = flushedByHand();
    const { ids, messages } = writtenTogether();
    await docs.insertMany(ids.map((id, i) => withOutbox({ _id: id }, messages[i] ?? [])));
    for (const [i, id] of ids.entries()) await batched.publish(counted, id, messages[i] ?? []);
    expect(commands).toEqual([]);
    await batched.flush();
    // One command for the three; no update per document, no per-message $pull, no marker sweep.
    expect(commands).toEqual([{ name: 'updateMany', operations: 1 }]);
    await expectCleared(ids);
  });

  it('clears documents marked before the groups with one update each', async () => {
    const { counted, commands } = countingCommands();
    const batched = flushedByHand();
    const { ids, messages } = writtenTogether();
    // The marker a document written by an earlier version carries: a bare `true`.
    await docs.insertMany(
      ids.map((id, i) => ({
        ...withOutbox({ _id: id }, messages[i] ?? []),
        outbox_pending: true as const,
      })),
    );
    for (const [i, id] of ids.entries()) await batched.publish(counted, id, messages[i] ?? []);
    await batched.flush();
    // The group finds none of them; then one command of an update per document.
    expect(commands.filter((command) => command.name === 'bulkWrite')).toEqual([
      { name: 'bulkWrite', operations: 3 },
    ]);
    await expectCleared(ids);
  });

  it('removes a large batch in several commands at once, so removals keep up with writes', async () => {
    const { counted, commands, most } = countingCommands();
    const batched = flushedByHand();
    const ids = Array.from({ length: 4 * MAX_OPERATIONS_PER_COMMAND }, () => newId('msg'));
    const at = new Date();
    const messages = ids.map(() => ({ ...message(), created_at: at }));
    await docs.insertMany(ids.map((id, i) => withOutbox({ _id: id }, [messages[i] ?? message()])));
    for (const [i, id] of ids.entries())
      await batched.publish(counted, id, [messages[i] ?? message()]);
    await batched.flush();
    // One command per chunk of MAX_OPERATIONS_PER_COMMAND documents, more than one at a time.
    expect(commands).toHaveLength(4);
    expect(most()).toBeGreaterThan(1);
    await expectCleared(ids);
  });

  it('keeps the marker when a message is added before the published ones are removed', async () => {
    const first = message();
    const id = newId('msg');
    await docs.insertOne(withOutbox({ _id: id }, [first]));
    await outbox.publish(docs, id, [first]);
    // A second change of the document lands between the publish and the batched removal.
    const second = message(60_000);
    await store.serialize(docs, id, () =>
      docs.updateOne({ _id: id }, pushOutbox({ $set: { n: 2 } }, [second])),
    );
    await outbox.flush();
    const doc = await docs.findOne({ _id: id });
    expect(doc?.outbox?.map((m) => m.id)).toEqual([second.id]);
    expect(doc?.outbox_pending).toEqual(markerOf(second));
    // The sweep finds it by the marker, publishes it and clears the document.
    expect(await outbox.sweep()).toBe(1);
    expect(await published(second.subject)).toBe(1);
    expect(await docs.findOne({ _id: id })).toMatchObject({ outbox: [], n: 2 });
    expect((await docs.findOne({ _id: id }))?.outbox_pending).toBeUndefined();
  });

  it('sweeps what a crash left, leaves young messages to their call, and drops a stale marker', async () => {
    const old = message(60_000);
    const young = message();
    const crashed = newId('msg');
    const inFlight = newId('msg');
    const emptied = newId('msg');
    await docs.insertMany([
      withOutbox({ _id: crashed }, [old]),
      withOutbox({ _id: inFlight }, [young]),
      // A crash between the removal of the last message and the unset.
      { _id: emptied, outbox: [], outbox_pending: true },
    ]);
    expect(await outbox.sweep()).toBe(1);
    expect(await published(old.subject)).toBe(1);
    expect(await published(young.subject)).toBe(0);
    const after = await docs
      .find({ _id: { $in: [crashed, inFlight, emptied] } })
      .sort({ _id: 1 })
      .toArray();
    const byId = new Map(after.map((doc) => [doc._id, doc]));
    expect(byId.get(crashed)).toEqual({ _id: crashed, outbox: [] });
    expect(byId.get(inFlight)).toMatchObject({ outbox: [young], outbox_pending: markerOf(young) });
    expect(byId.get(emptied)).toEqual({ _id: emptied, outbox: [] });
    // The young message's own call would publish it; it is not the next test's business.
    await docs.deleteOne({ _id: inFlight });
  });

  it('stores the body as the JSON text it publishes, and publishes an older object body alike', async () => {
    const encoded = message();
    expect(encoded.payload).toBe(JSON.stringify({ id: encoded.id }));
    const legacy = { ...message(), payload: { id: 'evt_legacy', nested: { n: 1 } } };
    for (const sent of [encoded, legacy]) {
      const id = newId('msg');
      await docs.insertOne(withOutbox({ _id: id }, [sent]));
      await outbox.publish(docs, id, [sent]);
      const stored = await bus.jsm.streams.getMessage(AUDIT_STREAM.name, {
        last_by_subj: sent.subject,
      });
      expect(stored?.json()).toEqual(payloadOf(sent));
    }
    expect(payloadOf(legacy)).toEqual({ id: 'evt_legacy', nested: { n: 1 } });
  });

  it('adopts messages written before the marker existed', async () => {
    const legacy = message(60_000);
    const id = newId('msg');
    await docs.insertOne({ _id: id, outbox: [legacy] });
    expect(await outbox.adoptUnmarked()).toBe(1);
    expect(await outbox.sweep()).toBe(1);
    expect(await published(legacy.subject)).toBe(1);
    expect(await docs.findOne({ _id: id })).toEqual({ _id: id, outbox: [] });
  });
});

describe('a kept outbox (documents written once)', () => {
  let kept: Collection<OutboxDocument & { n?: number }>;
  let writers: Collection<OutboxWriterDoc>;
  beforeAll(() => {
    kept = store.db.collection('kept_docs');
    writers = store.db.collection(OUTBOX_WRITERS);
  });

  const keptOutbox = (extra: Partial<OutboxOptions> = {}): Outbox =>
    createOutbox({
      js: bus.js,
      logger,
      collections: [kept],
      kept: [kept],
      writers,
      serialize: store.serialize,
      ...extra,
    });
  /** The writer a kept document names in its window. */
  const writerOf = (doc: OutboxDocument): string =>
    [doc.outbox_window ?? []].flat()[0]?.split(':')[0] ?? '';
  /** A document of `writer`'s window of `at`, with `messages`. */
  const writtenBy = (writer: string, at: number, messages: OutboxDocument['outbox']) => ({
    _id: newId('msg'),
    outbox: messages ?? [],
    outbox_window: `${writer}:${Math.floor(at / OUTBOX_WINDOW_MS)}`,
  });

  it('publishes without writing the document again, and the sweep leaves it alone', async () => {
    const writer = keptOutbox();
    await writer.register();
    const first = message();
    const doc = writer.withMessages(kept, { _id: newId('msg'), n: 1 }, [first]);
    expect(doc).toEqual({
      _id: doc._id,
      n: 1,
      outbox: [first],
      outbox_window: expect.stringMatching(/^w_[0-9a-f-]+:\d+$/),
    });
    const { counted, commands } = countingCommands(kept);
    await kept.insertOne(doc);
    await writer.publish(counted, doc._id, [first]);
    await writer.flush();
    expect(commands).toEqual([]);
    expect(await published(first.subject)).toBe(1);
    expect(await kept.findOne({ _id: doc._id })).toEqual(doc);
    // Not pending for the sweep, nor for the adoption of documents from before the marker.
    expect(await writer.sweep()).toBe(0);
    expect(await writer.adoptUnmarked()).toBe(0);
    await writer.start()();
    expect(await writers.findOne({ _id: writerOf(doc) })).toBeNull();
  });

  it('holds its low-water mark at a message until it is published', async () => {
    const writer = keptOutbox();
    const marked = Date.now();
    const pending = message();
    const doc = writer.withMessages(kept, { _id: newId('msg') }, [pending]);
    await writer.register();
    const entry = () => writers.findOne({ _id: writerOf(doc) });
    expect((await entry())?.low_water.getTime()).toBeGreaterThanOrEqual(marked);
    expect((await entry())?.low_water.getTime()).toBeLessThanOrEqual(Date.now());
    const held = (await entry())?.low_water.getTime() ?? 0;
    await new Promise((resolve) => setTimeout(resolve, 20));
    await writer.register();
    expect((await entry())?.low_water.getTime()).toBe(held);

    await kept.insertOne(doc);
    await writer.publish(kept, doc._id, [pending]);
    const published_at = Date.now();
    await writer.register();
    expect((await entry())?.low_water.getTime()).toBeGreaterThanOrEqual(published_at);
    await writer.start()();
  });

  it('publishes the windows of a writer that stopped beating, and forgets that writer', async () => {
    const writtenAt = Date.now() - 5_000;
    const gone = `w_gone_${randomUUID()}`;
    const live = `w_live_${randomUUID()}`;
    const [a, b, c] = [message(5_000), message(5_000), message(5_000)];
    const before = writtenBy(gone, writtenAt - OUTBOX_WINDOW_MS, [message(6_000)]);
    const crashed = writtenBy(gone, writtenAt, [a, b]);
    const alive = writtenBy(live, writtenAt, [c]);
    await writers.insertMany([
      { _id: gone, beat_at: new Date(writtenAt), low_water: new Date(writtenAt) },
      { _id: live, beat_at: new Date(), low_water: new Date(writtenAt) },
    ]);
    await kept.insertMany([before, crashed, alive]);

    const adopter = keptOutbox({ deadAfterMs: 1_000 });
    await adopter.register();
    expect(await adopter.sweep()).toBe(2);
    expect(await published(a.subject)).toBe(1);
    expect(await published(b.subject)).toBe(1);
    // Before the dead writer's low-water mark: published already.
    expect(await published(before.outbox[0]?.subject ?? '')).toBe(0);
    // A live writer publishes its own.
    expect(await published(c.subject)).toBe(0);
    expect(await writers.findOne({ _id: gone })).toBeNull();
    expect(await writers.findOne({ _id: live })).not.toBeNull();
    // The documents stay as they were written.
    expect(await kept.findOne({ _id: crashed._id })).toEqual(crashed);
    expect(await adopter.sweep()).toBe(0);
    await writers.deleteOne({ _id: live });
    await adopter.start()();
  });

  it('publishes a message whose publish failed with its next sweep', async () => {
    let away = true;
    const js = new Proxy(bus.js, {
      get(target, property, receiver) {
        if (property === 'publish' && away) {
          return () => Promise.reject(new Error('NATS is away'));
        }
        return Reflect.get(target, property, receiver) as unknown;
      },
    });
    const writer = keptOutbox({ js });
    await writer.register();
    const marked = Date.now();
    const lost = message();
    const doc = writer.withMessages(kept, { _id: newId('msg') }, [lost]);
    await kept.insertOne(doc);
    await expect(writer.publish(kept, doc._id, [lost])).rejects.toThrow('NATS is away');
    // Held, for another process to adopt should this one stop now.
    await writer.register();
    const entry = await writers.findOne({ _id: writerOf(doc) });
    expect(entry?.low_water.getTime()).toBeLessThanOrEqual(marked + 1_000);
    expect(entry?.low_water.getTime()).toBeGreaterThanOrEqual(marked);
    away = false;
    expect(await writer.sweep()).toBe(1);
    expect(await published(lost.subject)).toBe(1);
    expect(await writer.sweep()).toBe(0);
    await writer.start()();
    expect(await writers.findOne({ _id: writerOf(doc) })).toBeNull();
  });

  it('stays in the registry when it stops with a message unpublished, for another to adopt', async () => {
    const writer = keptOutbox();
    await writer.register();
    const stop = writer.start();
    const unsent = message();
    // Written, and the process stops before the publish.
    const doc = writer.withMessages(kept, { _id: newId('msg') }, [unsent]);
    await kept.insertOne(doc);
    await stop();
    expect(await writers.findOne({ _id: writerOf(doc) })).not.toBeNull();

    const adopter = keptOutbox({ deadAfterMs: 0 });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await adopter.sweep()).toBe(1);
    expect(await published(unsent.subject)).toBe(1);
    expect(await writers.findOne({ _id: writerOf(doc) })).toBeNull();
  });
});
