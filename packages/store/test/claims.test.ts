import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CLAIM_TTL_MS, CLAIMS_COLLECTION, versionClaims, type Store } from '../src/index.ts';
import { dropStore, testStore } from './support.ts';

let store: Store;

beforeAll(async () => {
  store = await testStore('claims', 'store-claims-test');
});

afterAll(() => dropStore(store));

describe('version claims', () => {
  it('are what the store uses on FerretDB, and nothing on MongoDB', async () => {
    const info = await store.db.admin().command({ buildInfo: 1 });
    expect(store.claims !== undefined).toBe(typeof info.ferretdbVersion === 'string');
  });

  it('let one of many concurrent writers take a version, and the version again once released', async () => {
    const claims = versionClaims(store.db);
    const tries = await Promise.all(
      Array.from({ length: 8 }, () => claims.take('things', 'thg_1', 'open@1')),
    );
    const won = tries.filter((release) => release !== undefined);
    expect(won).toHaveLength(1);
    await won[0]?.();
    const again = await claims.take('things', 'thg_1', 'open@1');
    expect(again).toBeDefined();
    // Another version of the same document is its own claim.
    expect(await claims.take('things', 'thg_1', 'done@2')).toBeDefined();
    await again?.();
  });

  it(`drop a claim whose holder died after ${CLAIM_TTL_MS / 1000} s, and only then`, async () => {
    const claims = versionClaims(store.db);
    const held = store.db.collection<{ _id: string; at: Date }>(CLAIMS_COLLECTION);
    await held.insertOne({ _id: 'things/thg_2/open@1', at: new Date(Date.now() - 1_000) });
    expect(await claims.take('things', 'thg_2', 'open@1')).toBeUndefined();
    await held.updateOne(
      { _id: 'things/thg_2/open@1' },
      { $set: { at: new Date(Date.now() - CLAIM_TTL_MS - 1_000) } },
    );
    expect(await claims.take('things', 'thg_2', 'open@1')).toBeDefined();
  });
});
