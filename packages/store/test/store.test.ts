import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createLogger } from '@handoff/observability';
import { testServers, uniqueDatabase } from '@handoff/testkit';
import {
  bulkWriteInChunks,
  connectStore,
  ensureCollections,
  MAX_OPERATIONS_PER_COMMAND,
  type Store,
} from '../src/index.ts';

const logger = createLogger({ service: 'store-test', version: '0', level: 'silent' });
let store: Store;

beforeAll(async () => {
  store = await connectStore({
    url: testServers().mongoUrl,
    database: uniqueDatabase('store'),
    appName: 'store-test',
    logger,
  });
});

afterAll(async () => {
  await store.db.dropDatabase();
  await store.close();
});

const plan = {
  widgets: [
    { key: { code: 1 }, options: { name: 'code_unique', unique: true } },
    { key: { owner: 1, created_at: -1 }, options: { name: 'owner_created' } },
  ],
} as const;

describe('ensureCollections', () => {
  it('creates collections and indexes, and can run again', async () => {
    await ensureCollections(store.db, plan);
    await ensureCollections(store.db, plan);
    const names = (await store.db.collection('widgets').indexes()).map((index) => index.name);
    expect(names).toEqual(expect.arrayContaining(['_id_', 'code_unique', 'owner_created']));
  });

  it('enforces unique indexes', async () => {
    await ensureCollections(store.db, plan);
    const widgets = store.db.collection('widgets');
    await widgets.insertOne({ code: 'a', owner: 'x', created_at: new Date() });
    await expect(
      widgets.insertOne({ code: 'a', owner: 'y', created_at: new Date() }),
    ).rejects.toMatchObject({
      code: 11000,
    });
  });

  it('pings', async () => {
    await expect(store.ping()).resolves.toBe(true);
  });
});

describe('store.serialize', () => {
  it('makes concurrent compare-and-set updates of one document exactly-once', async () => {
    const counters = store.db.collection<{ _id: string; n: number }>('counters');
    await counters.insertOne({ _id: 'c', n: 0 });
    const attempts = await Promise.all(
      Array.from({ length: 30 }, () =>
        store.serialize(counters, 'c', () =>
          counters.updateOne({ _id: 'c', n: 0 }, { $set: { n: 1 } }),
        ),
      ),
    );
    expect(attempts.filter((result) => result.modifiedCount === 1)).toHaveLength(1);
    await Promise.all(
      Array.from({ length: 50 }, () =>
        store.serialize(counters, 'c', () => counters.updateOne({ _id: 'c' }, { $inc: { n: 1 } })),
      ),
    );
    expect((await counters.findOne({ _id: 'c' }))?.n).toBe(51);
  });
});

describe('bulkWriteInChunks', () => {
  it('applies every update, in order, in commands no larger than the limit', async () => {
    const items = store.db.collection<{ _id: string; n: number }>('chunked');
    await items.insertMany(Array.from({ length: 100 }, (_, i) => ({ _id: `i${i}`, n: 0 })));
    const sizes: number[] = [];
    const watch = (event: { commandName: string; command: Record<string, unknown> }) => {
      if (event.commandName === 'update') sizes.push((event.command.updates as unknown[]).length);
    };
    store.client.on('commandStarted', watch);
    try {
      await bulkWriteInChunks(
        items,
        [
          ...Array.from({ length: 100 }, (_, i) => ({
            updateOne: { filter: { _id: `i${i}` }, update: { $inc: { n: 1 } } },
          })),
          // Ordered: this one sees every increment before it.
          { updateMany: { filter: { n: 1 }, update: { $inc: { n: 10 } } } },
        ],
        { ordered: true },
      );
    } finally {
      store.client.off('commandStarted', watch);
    }
    expect(Math.max(...sizes)).toBeLessThanOrEqual(MAX_OPERATIONS_PER_COMMAND);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(101);
    expect(await items.countDocuments({ n: 11 })).toBe(100);
  });
});
