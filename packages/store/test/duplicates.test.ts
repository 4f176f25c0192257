import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  duplicatePositions,
  ensureCollections,
  groupedInserts,
  insertOnce,
  isDuplicateKey,
  type Store,
} from '../src/index.ts';
import { dropStore, testStore } from './support.ts';

let store: Store;

interface Thing {
  _id: string;
  code: string;
  n: number;
}

beforeAll(async () => {
  store = await testStore('dup', 'store-duplicates-test');
  await ensureCollections(store.db, {
    things: [{ key: { code: 1 }, options: { name: 'code_unique', unique: true } }],
  });
});

afterAll(() => dropStore(store));

const things = () => store.db.collection<Thing>('things');

/** What `write` threw, or a failure when it did not. */
async function failureOf(write: () => Promise<unknown>): Promise<unknown> {
  try {
    await write();
  } catch (error) {
    return error;
  }
  throw new Error('the write was expected to fail');
}

describe('isDuplicateKey', () => {
  it('recognizes a second insert of an _id, and of a unique field', async () => {
    await things().insertOne({ _id: 'a', code: 'code-a', n: 1 });
    const sameId = await failureOf(() => things().insertOne({ _id: 'a', code: 'other', n: 2 }));
    const sameCode = await failureOf(() => things().insertOne({ _id: 'b', code: 'code-a', n: 2 }));
    expect(isDuplicateKey(sameId)).toBe(true);
    expect(isDuplicateKey(sameCode)).toBe(true);
  });

  it('recognizes the duplicates of an unordered insertMany, and where they are', async () => {
    await things().insertMany([
      { _id: 'm1', code: 'code-m1', n: 1 },
      { _id: 'm3', code: 'code-m3', n: 3 },
    ]);
    const error = await failureOf(() =>
      things().insertMany(
        [
          { _id: 'm1', code: 'code-m1', n: 1 },
          { _id: 'm2', code: 'code-m2', n: 2 },
          { _id: 'm3', code: 'code-m3', n: 3 },
        ],
        { ordered: false },
      ),
    );
    expect(isDuplicateKey(error)).toBe(true);
    expect(duplicatePositions(error)).toEqual([0, 2]);
    expect(await things().countDocuments({ _id: { $in: ['m1', 'm2', 'm3'] } })).toBe(3);
  });

  it('is false for any other failure', async () => {
    await things().insertOne({ _id: 'n', code: 'code-n', n: 1 });
    // $inc on a string: refused by the server, for a reason that is not a duplicate.
    const mismatch = await failureOf(() =>
      store.db.collection<{ _id: string }>('things').updateOne({ _id: 'n' }, { $inc: { code: 1 } }),
    );
    expect(isDuplicateKey(mismatch)).toBe(false);
    expect(duplicatePositions(mismatch)).toBeUndefined();
    expect(isDuplicateKey(new Error('E11000 duplicate key'))).toBe(false);
    expect(isDuplicateKey({ code: 11000 })).toBe(false);
    expect(isDuplicateKey(undefined)).toBe(false);
  });
});

describe('insertOnce', () => {
  it('inserts a new document, and leaves one already there as it is', async () => {
    await expect(insertOnce(things(), { _id: 'o', code: 'code-o', n: 1 })).resolves.toBe(
      'inserted',
    );
    await expect(insertOnce(things(), { _id: 'o', code: 'code-o2', n: 2 })).resolves.toBe(
      'existing',
    );
    expect(await things().findOne({ _id: 'o' })).toEqual({ _id: 'o', code: 'code-o', n: 1 });
  });

  it('is safe from many callers at once: one inserts, the others find it', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, (_, n) => insertOnce(things(), { _id: 'race', code: 'race', n })),
    );
    expect(outcomes.filter((outcome) => outcome === 'inserted')).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome === 'existing')).toHaveLength(7);
  });

  it('throws any failure that is not a duplicate', async () => {
    const odd = store.db.collection<{ _id: string[] }>('odd');
    // An array cannot be an _id.
    await expect(insertOnce(odd, { _id: ['x'] })).rejects.toThrow();
  });
});

describe('groupedInserts', () => {
  it('stores the documents of callers at once in one command, each resolved once stored', async () => {
    const inserts = groupedInserts(things());
    const commands: string[] = [];
    const listener = (event: { commandName: string }) => commands.push(event.commandName);
    store.client.on('commandStarted', listener);
    try {
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          inserts.insert({ _id: `g${i}`, code: `grouped-${i}`, n: i }),
        ),
      );
    } finally {
      store.client.off('commandStarted', listener);
    }
    expect(await things().countDocuments({ code: { $regex: '^grouped-' } })).toBe(20);
    // Twenty callers in one turn of the event loop: one insert command, not twenty.
    expect(commands.filter((name) => name === 'insert')).toHaveLength(1);
    await inserts.close();
  });

  it('rejects only the caller whose document a unique index refused', async () => {
    const inserts = groupedInserts(things());
    const outcomes = await Promise.allSettled([
      inserts.insert({ _id: 'u1', code: 'unique-1', n: 1 }),
      inserts.insert({ _id: 'u2', code: 'grouped-0', n: 2 }),
      inserts.insert({ _id: 'u3', code: 'unique-3', n: 3 }),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    const refused = outcomes[1];
    expect(refused?.status === 'rejected' && isDuplicateKey(refused.reason)).toBe(true);
    expect(await things().countDocuments({ _id: { $in: ['u1', 'u2', 'u3'] } })).toBe(2);
    await inserts.close();
  });
});
