import { describe, expect, it } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import { watchDatabase } from '../src/db-watchdog.ts';

// `npm run chaos` found replicas whose driver never reached the database again after FerretDB
// and PostgreSQL restarts, while a new process connected at once: such a replica must give up.
describe('watchDatabase', () => {
  it('says the database is lost once no ping has answered for the whole window', async () => {
    const started = Date.now();
    const watch = watchDatabase(async () => false, 400);
    const reason = await watch.lost;
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    expect(reason).toMatch(/has not answered for \d+ s/);
  });

  it('starts the window again whenever a ping answers, and a ping that throws counts as down', async () => {
    let up = false;
    let calls = 0;
    const watch = watchDatabase(async () => {
      calls += 1;
      if (calls % 3 === 0) throw new Error('connection closed');
      return up || calls % 4 === 0;
    }, 600);
    let lost = false;
    void watch.lost.then(() => (lost = true));
    await sleep(1_500);
    expect(lost).toBe(false);
    watch.stop();
    up = true;
  });
});
