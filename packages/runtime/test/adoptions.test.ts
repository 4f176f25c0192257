import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createLogger } from '@handoff/observability';
import { connectStore, type Store } from '@handoff/store';
import { freshDatabase } from '@handoff/testkit';
import { ADOPTIONS, adoptOnce } from '../src/index.ts';

const logger = createLogger({ service: 'adoptions-test', version: '0', level: 'silent' });
let store: Store;
let other: Store;

beforeAll(async () => {
  const where = freshDatabase('adoptions');
  store = await connectStore({ ...where, appName: 'adoptions-test', logger });
  other = await connectStore({ ...where, appName: 'adoptions-test-2', logger });
});

afterAll(async () => {
  await store.close();
  await other.close();
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

  it('lets replicas that start at the same moment both record it, whoever writes first', async () => {
    // A second milestones replica crashed at start on the record's duplicate key.
    for (let round = 0; round < 5; round += 1) {
      const name = `race_${round}`;
      const results = await Promise.all(
        [store, other, store, other].map((replica) => adoptOnce(replica, name, async () => 0)),
      );
      expect(results).toEqual([0, 0, 0, 0]);
    }
  });
});
