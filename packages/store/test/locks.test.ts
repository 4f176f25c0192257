import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  connectStore,
  documentLocks,
  isFerretDB,
  LOCK_TTL_MS,
  LOCKS_COLLECTION,
  type Store,
} from '../src/index.ts';
import { freshDatabase } from '@handoff/testkit';
import { dropStore, logger, testStore } from './support.ts';

let store: Store;

beforeAll(async () => {
  store = await testStore('locks', 'store-locks-test');
});

afterAll(() => dropStore(store));

describe('document locks', () => {
  it('are taken by serialize only when asked for, on FerretDB', async () => {
    expect(store.locking).toBe(false);
    const locked = await connectStore({
      ...freshDatabase('locks-on'),
      appName: 'store-locks-test-2',
      logger,
      locks: true,
    });
    try {
      const ferret = await isFerretDB(locked.db);
      expect(locked.locking).toBe(ferret);
      const during = await locked.serialize({ collectionName: 'things' }, 'thg_9', () =>
        locked.db.collection(LOCKS_COLLECTION).countDocuments({ _id: 'things/thg_9' as never }),
      );
      expect(during).toBe(ferret ? 1 : 0);
    } finally {
      await dropStore(locked);
    }
  });

  it('let one holder at a time run, in any number of processes, and the others after it', async () => {
    const locks = [documentLocks(store.db), documentLocks(store.db)];
    let inside = 0;
    let most = 0;
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 8 }, (_, n) =>
        (locks[n % 2] ?? locks[0])?.hold('things/thg_1', async () => {
          inside += 1;
          most = Math.max(most, inside);
          await sleep(5);
          order.push(n);
          inside -= 1;
        }),
      ),
    );
    expect(most).toBe(1);
    expect(order).toHaveLength(8);
    // Released after each: the lock is free again.
    expect(
      await store.db.collection(LOCKS_COLLECTION).countDocuments({ _id: 'things/thg_1' as never }),
    ).toBe(0);
  });

  it('releases the lock when the task fails', async () => {
    const locks = documentLocks(store.db);
    await expect(
      locks.hold('things/thg_2', () => Promise.reject(new Error('boom'))),
    ).rejects.toThrow('boom');
    await expect(locks.hold('things/thg_2', async () => 'again')).resolves.toBe('again');
  });

  it(`drop a lock whose holder died once it is ${LOCK_TTL_MS / 1000} s old, and only then`, async () => {
    const locks = documentLocks(store.db);
    const held = store.db.collection<{ _id: string; at: Date }>(LOCKS_COLLECTION);
    await held.insertOne({ _id: 'things/thg_3', at: new Date(Date.now() - LOCK_TTL_MS - 1_000) });
    await expect(locks.hold('things/thg_3', async () => 'taken over')).resolves.toBe('taken over');
    await held.insertOne({ _id: 'things/thg_4', at: new Date() });
    let ran = false;
    const waiting = locks.hold('things/thg_4', async () => {
      ran = true;
    });
    await sleep(300);
    expect(ran).toBe(false);
    await held.deleteOne({ _id: 'things/thg_4' });
    await waiting;
    expect(ran).toBe(true);
  });
});
