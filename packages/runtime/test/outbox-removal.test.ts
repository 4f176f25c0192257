import { beforeAll, describe, expect, it } from '@jest/globals';
import { newId } from '@handoff/contracts';
import { MAX_OPERATIONS_PER_COMMAND } from '@handoff/store';
import type { Collection } from 'mongodb';
import { markerOf, pushOutbox, withOutbox, type OutboxDocument } from '../src/index.ts';
import type { Store } from '@handoff/store';
import { clearChunk, removalChunks, removals, type Removal } from '../src/outbox/removal.ts';
import { logger, testMessage, useOutboxServers } from './support/outbox-servers.ts';

const servers = useOutboxServers('outbox-removal');
let docs: Collection<OutboxDocument & { n?: number }>;
beforeAll(() => {
  docs = servers.store.db.collection('removal_docs');
});

const named = (collectionName: string) =>
  ({ collectionName }) as unknown as Collection<OutboxDocument>;

describe('the chunks a batch of removals is cleared in', () => {
  it('groups by collection, document and marker group, each message once', () => {
    const at = new Date();
    const a = { ...testMessage(), created_at: at };
    const b = { ...testMessage(), created_at: at };
    const c = { ...testMessage(), created_at: at };
    const older = testMessage(60_000);
    const batch: Removal[] = [
      { collection: named('one'), documentId: 'd1', message: a },
      { collection: named('one'), documentId: 'd1', message: a },
      { collection: named('one'), documentId: 'd2', message: b },
      { collection: named('two'), documentId: 'd3', message: c },
      { collection: named('one'), documentId: 'd4', message: older },
      // A marker found on an empty outbox.
      { collection: named('one'), documentId: 'd5' },
    ];
    const chunks = removalChunks(batch).map((chunk) => ({
      collection: chunk.collection.collectionName,
      group: chunk.group,
      documents: chunk.documents.map(([id, messages]) => [id, messages.map((m) => m.id)]),
    }));
    const group = (m: { created_at: Date }) => markerOf(m)[1];
    expect(chunks).toEqual([
      {
        collection: 'one',
        group: group(a),
        documents: [
          ['d1', [a?.id]],
          ['d2', [b?.id]],
        ],
      },
      { collection: 'one', group: group(older), documents: [['d4', [older.id]]] },
      { collection: 'one', group: undefined, documents: [['d5', []]] },
      { collection: 'two', group: group(c), documents: [['d3', [c.id]]] },
    ]);
  });

  it('cuts a large group into commands of MAX_OPERATIONS_PER_COMMAND documents', () => {
    const at = new Date();
    const batch = Array.from({ length: MAX_OPERATIONS_PER_COMMAND + 1 }, (_, i) => ({
      collection: named('one'),
      documentId: `d${i}`,
      message: { ...testMessage(), created_at: at },
    }));
    expect(removalChunks(batch).map((chunk) => chunk.documents.length)).toEqual([
      MAX_OPERATIONS_PER_COMMAND,
      1,
    ]);
  });
});

describe('clearing a chunk', () => {
  /** Documents each holding one message, written at one time, and their removals. */
  async function written(count: number, marker?: true) {
    const at = new Date();
    const messages = Array.from({ length: count }, () => ({ ...testMessage(), created_at: at }));
    const ids = messages.map(() => newId('msg'));
    await docs.insertMany(
      ids.map((id, i) => {
        const doc = withOutbox({ _id: id }, messages.slice(i, i + 1));
        return marker ? { ...doc, outbox_pending: marker } : doc;
      }),
    );
    const batch = ids.map((documentId, i) => ({
      collection: docs,
      documentId,
      message: messages[i],
    }));
    return { ids, messages, batch };
  }

  it('clears the documents of one marker group with one command', async () => {
    const { ids, batch } = await written(3);
    const [chunk] = removalChunks(batch);
    expect(chunk && (await clearChunk(chunk, servers.store.serialize))).toEqual({
      by: 'group',
      documents: 3,
    });
    expect(await docs.countDocuments({ _id: { $in: ids }, outbox: { $size: 0 } })).toBe(3);
    expect(await docs.countDocuments({ _id: { $in: ids }, outbox_pending: true })).toBe(0);
  });

  it("fails, rather than waits for ever, when one document's turn cannot be had", async () => {
    const { ids, batch } = await written(3);
    const [chunk] = removalChunks(batch);
    // As `serialize` fails with STORE_LOCKS when the database is away as the lock is taken.
    const lockLost: Store['serialize'] = (collection, id, task) =>
      id === ids[1]
        ? Promise.reject(new Error('the lock could not be taken'))
        : servers.store.serialize(collection, id, task);
    expect(chunk && (await clearChunk(chunk, lockLost))).toMatchObject({
      by: 'failed',
      documents: 3,
      error: expect.objectContaining({ message: 'the lock could not be taken' }),
    });
    // Nothing cleared, every marker kept for the next batch; the other turns were let go.
    expect(await docs.countDocuments({ _id: { $in: ids }, outbox_pending: true })).toBe(3);
    expect(chunk && (await clearChunk(chunk, servers.store.serialize))).toMatchObject({
      documents: 3,
    });
  });

  it('clears documents marked before the groups one by one', async () => {
    const { ids, batch } = await written(2, true);
    const [chunk] = removalChunks(batch);
    expect(chunk && (await clearChunk(chunk, servers.store.serialize))).toEqual({
      by: 'each',
      documents: 2,
    });
    expect(await docs.countDocuments({ _id: { $in: ids }, outbox_pending: true })).toBe(0);
  });

  it('takes the long way when a document got a message meanwhile, and keeps its marker', async () => {
    const { ids, batch } = await written(1);
    const [id] = ids;
    const later = testMessage();
    await docs.updateOne({ _id: id }, pushOutbox({ $set: { n: 2 } }, [later]));
    const [chunk] = removalChunks(batch);
    expect(chunk && (await clearChunk(chunk, servers.store.serialize))).toEqual({
      by: 'long-way',
      documents: 1,
    });
    const doc = await docs.findOne({ _id: id });
    expect(doc?.outbox?.map((m) => m.id)).toEqual([later.id]);
    expect(doc?.outbox_pending).toEqual(markerOf(later));
  });

  it('reports a failed removal, leaving the messages for the sweep', async () => {
    const { ids, batch } = await written(1);
    const failing = new Proxy(docs, {
      get(target, property, receiver) {
        if (property === 'updateMany') return () => Promise.reject(new Error('database away'));
        return Reflect.get(target, property, receiver) as unknown;
      },
    });
    const [chunk] = removalChunks(batch.map((removal) => ({ ...removal, collection: failing })));
    const cleared = chunk && (await clearChunk(chunk, servers.store.serialize));
    expect(cleared).toMatchObject({ by: 'failed', collection: docs.collectionName, documents: 1 });
    expect(await docs.countDocuments({ _id: { $in: ids }, outbox_pending: true })).toBe(1);
  });
});

describe('batched removals', () => {
  it('wait for the batch delay, or for the batch size, before one write', async () => {
    const slow = removals({
      logger,
      serialize: servers.store.serialize,
      delayMs: 3_600_000,
      batchSize: 3,
    });
    const at = new Date();
    const messages = Array.from({ length: 3 }, () => ({ ...testMessage(), created_at: at }));
    const ids = messages.map(() => newId('msg'));
    await docs.insertMany(ids.map((id, i) => withOutbox({ _id: id }, messages.slice(i, i + 1))));
    const pending = () => docs.countDocuments({ _id: { $in: ids }, outbox_pending: true });
    slow.remove({ collection: docs, documentId: ids[0] ?? '', message: messages[0] });
    slow.remove({ collection: docs, documentId: ids[1] ?? '', message: messages[1] });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await pending()).toBe(3);
    // The third fills the batch: written without waiting for the delay.
    slow.remove({ collection: docs, documentId: ids[2] ?? '', message: messages[2] });
    await slow.flush();
    expect(await pending()).toBe(0);

    const quick = removals({ logger, serialize: servers.store.serialize, delayMs: 10 });
    const message = testMessage();
    const id = newId('msg');
    await docs.insertOne(withOutbox({ _id: id }, [message]));
    quick.remove({ collection: docs, documentId: id, message });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await docs.findOne({ _id: id })).toEqual({ _id: id, outbox: [] });
  });
});
