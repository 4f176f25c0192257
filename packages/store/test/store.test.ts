import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ferretBackend, freshDatabase } from '@handoff/testkit';
import type { Collection, Document, Filter, OptionalUnlessRequiredId } from 'mongodb';
import {
  bulkWriteInChunks,
  byIdWhere,
  byKeyWhere,
  narrowedFirst,
  connectStore,
  DUPLICATE_KEY,
  ensureCollections,
  MAX_OPERATIONS_PER_COMMAND,
  pageFilter,
  paginate,
  type IndexDefinition,
  type Store,
} from '../src/index.ts';
import { dropStore, logger, testStore } from './support.ts';

let store: Store;

beforeAll(async () => {
  store = await testStore('store', 'store-test');
});

afterAll(() => dropStore(store));

/** The indexes PostgreSQL's plan of `filter` uses, from FerretDB's explain (none: a scan). */
async function indexesUsed<T extends Document>(
  collection: Collection<T>,
  filter: Record<string, unknown>,
): Promise<(string | undefined)[]> {
  const explained = JSON.stringify(await collection.find(filter as Filter<T>).explain());
  return [...explained.matchAll(/"Index Name":"([^"]+)"/g)].map((match) => match[1]);
}

/**
 * A collection of the test database with these indexes and documents, made before the tests of
 * the block that asks for it; the function returned reads it.
 */
function seeded<T extends Document>(
  name: string,
  indexes: IndexDefinition[],
  documents: OptionalUnlessRequiredId<T>[],
): () => Collection<T> {
  const collection = () => store.db.collection<T>(name);
  beforeAll(async () => {
    await ensureCollections(store.db, { [name]: indexes });
    await collection().insertMany(documents);
  });
  return collection;
}

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
      code: DUPLICATE_KEY,
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

describe('paginate', () => {
  interface Item {
    _id: string;
    owner: string;
  }
  const items = seeded<Item>(
    'page_items',
    [{ key: { owner: 1, _id: -1 }, options: { name: 'owner_newest' } }],
    Array.from({ length: 300 }, (_, i) => ({
      _id: `itm_${String(i).padStart(4, '0')}`,
      owner: `o_${i % 3}`,
    })),
  );

  it('pages newest first both ways, with or without an _id condition of the caller', async () => {
    const first = await paginate(items(), { owner: 'o_1' }, { limit: 2 });
    expect(first.data.map((item) => item._id)).toEqual(['itm_0298', 'itm_0295']);
    expect(first.has_more).toBe(true);
    const next = await paginate(
      items(),
      { owner: 'o_1' },
      { limit: 2, starting_after: 'itm_0295' },
    );
    expect(next.data.map((item) => item._id)).toEqual(['itm_0292', 'itm_0289']);
    const back = await paginate(items(), { owner: 'o_1' }, { limit: 2, ending_before: 'itm_0292' });
    expect(back.data.map((item) => item._id)).toEqual(['itm_0298', 'itm_0295']);
    const bounded = await paginate(
      items(),
      { owner: 'o_1', _id: { $gte: 'itm_0290' } },
      { limit: 5, starting_after: 'itm_0295' },
    );
    expect(bounded.data.map((item) => item._id)).toEqual(['itm_0292']);
    expect(bounded.has_more).toBe(false);
  });

  it('gives the database one flat filter, which an index serves', async () => {
    expect(pageFilter({ owner: 'o_1' }, { limit: 2, starting_after: 'itm_1' }).where).toEqual({
      owner: 'o_1',
      _id: { $lt: 'itm_1' },
    });
    expect(pageFilter({ owner: 'o_1' }, { limit: 2 }).where).toEqual({ owner: 'o_1' });
    if (ferretBackend(process.env) === 'postgresql') {
      // FerretDB's explain carries PostgreSQL's plan: a scan of the table would name no index.
      const { where } = pageFilter<Item>({ owner: 'o_1' }, { limit: 2, starting_after: 'itm_1' });
      const plan = JSON.stringify(await items().find(where).sort({ _id: -1 }).explain());
      expect(plan).toMatch(/"Index Name":"[^"]*_gin_/);
    }
  });
});

describe('byIdWhere', () => {
  interface Moving {
    _id: string;
    status: string;
    updated_at: number;
  }
  const moving = seeded<Moving>(
    'moving',
    [{ key: { status: 1, _id: -1 }, options: { name: 'status_newest' } }],
    Array.from({ length: 2_000 }, (_, i) => ({ _id: `mv_${i}`, status: 'open', updated_at: i })),
  );

  it('changes the document only while it still matches the conditions', async () => {
    expect(byIdWhere<Moving>('mv_1')).toEqual({ _id: 'mv_1' });
    const stale = await moving().updateOne(
      byIdWhere<Moving>('mv_1', { status: 'open', updated_at: 0 }),
      { $set: { status: 'closed' } },
    );
    expect(stale.matchedCount).toBe(0);
    const current = await moving().updateOne(
      byIdWhere<Moving>('mv_1', { status: 'open', updated_at: 1 }),
      { $set: { status: 'closed', updated_at: 2 } },
    );
    expect(current.modifiedCount).toBe(1);
    expect(await moving().findOne({ _id: 'mv_1' })).toEqual({
      _id: 'mv_1',
      status: 'closed',
      updated_at: 2,
    });
  });

  it('finds the document by its _id alone, not by every document sharing its status', async () => {
    if (ferretBackend(process.env) !== 'postgresql') return;
    const indexes = (filter: Record<string, unknown>) => indexesUsed(moving(), filter);
    const [idTwin] = await indexes({ _id: 'mv_7' });
    expect(idTwin).toMatch(/_gin_/);
    // The flat filter `{_id, status, updated_at}` gets the status twin too (all 2,000 open
    // documents' entries) as long as PostgreSQL has no statistics on the new documents.
    expect(await indexes(byIdWhere<Moving>('mv_7', { status: 'open', updated_at: 7 }))).toEqual([
      idTwin,
    ]);
  });
});

describe('byKeyWhere', () => {
  interface Offer {
    _id: string;
    request_id: string;
    provider_id: string;
    status: string;
  }
  const offers = seeded<Offer>(
    'offers',
    [
      { key: { request_id: 1, _id: -1 }, options: { name: 'request_newest' } },
      { key: { provider_id: 1, _id: -1 }, options: { name: 'provider_newest' } },
      { key: { status: 1 }, options: { name: 'status' } },
    ],
    // One busy provider with an offer on each of 2,000 requests, every offer open.
    Array.from({ length: 2_000 }, (_, i) => ({
      _id: `of_${i}`,
      request_id: `rq_${i}`,
      provider_id: 'pv_busy',
      status: 'open',
    })),
  );

  it('finds the documents of the key that match the conditions', async () => {
    const filter = byKeyWhere<Offer>(
      { request_id: 'rq_7' },
      { provider_id: 'pv_busy', status: { $in: ['open', 'countered'] } },
    );
    expect(filter).toEqual({
      request_id: 'rq_7',
      $and: [{ provider_id: 'pv_busy' }, { status: { $in: ['open', 'countered'] } }],
    });
    expect(await offers().find(filter).toArray()).toEqual([
      { _id: 'of_7', request_id: 'rq_7', provider_id: 'pv_busy', status: 'open' },
    ]);
    expect(
      await offers().countDocuments(
        byKeyWhere<Offer>({ request_id: 'rq_7' }, { status: 'closed' }),
      ),
    ).toBe(0);
    expect(byKeyWhere<Offer>({ request_id: 'rq_7' })).toEqual({ request_id: 'rq_7' });
  });

  it('checks a broad field on what the other fields find, unless it is the only one', async () => {
    const narrowed = narrowedFirst<Offer>({ status: 'open', request_id: 'rq_7' }, ['status']);
    expect(narrowed).toEqual({ request_id: 'rq_7', $and: [{ status: 'open' }] });
    expect(await offers().countDocuments(narrowed)).toBe(1);
    // Alone, the status is the only lookup there is; without it, nothing is moved.
    expect(narrowedFirst<Offer>({ status: 'open' }, ['status'])).toEqual({ status: 'open' });
    expect(narrowedFirst<Offer>({ request_id: 'rq_7' }, ['status'])).toEqual({
      request_id: 'rq_7',
    });
  });

  it("reads the key's documents alone, not every document of the provider or the status", async () => {
    if (ferretBackend(process.env) !== 'postgresql') return;
    const indexes = (filter: Record<string, unknown>) => indexesUsed(offers(), filter);
    const [requestTwin] = await indexes({ request_id: 'rq_7' });
    expect(requestTwin).toMatch(/_gin_/);
    // Without statistics on the new documents, the flat filter gets the provider's or the status's
    // twin too (2,000 entries each), ANDed with or even instead of the request's.
    const flat = await indexes({ request_id: 'rq_7', provider_id: 'pv_busy', status: 'open' });
    expect(flat.length).toBeGreaterThan(1);
    expect(
      await indexes(
        byKeyWhere<Offer>({ request_id: 'rq_7' }, { provider_id: 'pv_busy', status: 'open' }),
      ),
    ).toEqual([requestTwin]);
  });
});

describe('command monitoring', () => {
  it('is off while no traces are recorded, and on when asked', async () => {
    const seen = async (monitorCommands?: boolean) => {
      const other = await connectStore({
        ...freshDatabase('store-monitoring'),
        appName: 'store-monitoring-test',
        logger,
        ...(monitorCommands === undefined ? {} : { monitorCommands }),
      });
      const commands: string[] = [];
      other.client.on('commandStarted', (event: { commandName: string }) =>
        commands.push(event.commandName),
      );
      try {
        await other.db.collection<{ _id: string }>('watched').findOne({ _id: 'none' });
      } finally {
        await other.close();
      }
      return commands;
    };
    // This process started no telemetry: the driver builds no command events.
    await expect(seen()).resolves.toEqual([]);
    await expect(seen(true)).resolves.toContain('find');
  });
});
