import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createLogger } from '@handoff/observability';
import { connectStore, type Store } from '@handoff/store';
import { freshDatabase } from '@handoff/testkit';
import { ADOPTIONS, adoptOnce } from '../src/index.ts';

const logger = createLogger({ service: 'adoptions-test', version: '0', level: 'silent' });
let store: Store;

beforeAll(async () => {
  store = await connectStore({ ...freshDatabase('adoptions'), appName: 'adoptions-test', logger });
});

afterAll(async () => {
  await store.close();
});

describe('adoptOnce', () => {
  it('adopts at every start until a pass finds nothing, and never again after that', async () => {
    const passes: number[] = [];
    // What each pass finds: two documents, then what a replica of the old version wrote, then none.
    const found = [2, 1, 0];
    const start = () =>
      adoptOnce(store, 'test_adoption', async () => {
        const changed = found[passes.length] ?? 0;
        passes.push(changed);
        return changed;
      });

    expect(await start()).toBe(2);
    expect(await start()).toBe(1);
    const adoptions = store.db.collection<{ _id: string }>(ADOPTIONS);
    expect(await adoptions.countDocuments({ _id: 'test_adoption' })).toBe(0);
    expect(await start()).toBe(0);
    expect(await adoptions.findOne({ _id: 'test_adoption' })).toMatchObject({
      done_at: expect.any(Date),
    });
    expect(await start()).toBe(0);
    expect(passes).toEqual([2, 1, 0]);
  });
});
