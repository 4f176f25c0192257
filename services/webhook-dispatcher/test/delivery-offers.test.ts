import { describe, expect, it } from '@jest/globals';
import { Offers } from '../src/delivery/offers.ts';
import type { DeliveryJob } from '../src/store/delivery-queue.ts';

const job = (endpointId: string, n = 1): DeliveryJob => ({
  delivery_id: `${endpointId}.evt_${n}`,
  endpoint_id: endpointId,
  event: { id: `evt_${n}`, type: 'request.created', body: '{}' },
  attempt: 1,
  not_before: 0,
  made_at: 0,
});

/** Offers whose room the test opens and closes; each taken job settles when the test says. */
function offers(maxOffered = 2, patienceMs = 50) {
  const room = new Set<string>();
  const taken: { job: DeliveryJob; settle(taken: boolean): void }[] = [];
  const subject = new Offers({
    maxOffered,
    patienceMs,
    hasRoom: (endpointId) => room.has(endpointId),
    take: (offered) =>
      new Promise<boolean>((resolve) => {
        taken.push({ job: offered, settle: resolve });
      }),
  });
  return { subject, room, taken };
}

describe('offered first attempts', () => {
  it('takes an offer at once when its endpoint has room, and resolves as the attempt does', async () => {
    const { subject, room, taken } = offers();
    room.add('a');
    const result = subject.offer(job('a'));
    expect(taken.map((t) => t.job.endpoint_id)).toEqual(['a']);
    expect(subject.taken).toBe(1);
    taken[0]?.settle(true);
    await expect(result).resolves.toBe(true);
    expect(subject.taken).toBe(0);
  });

  it('lets an offer wait for room, and admits it once some is freed', async () => {
    const { subject, room, taken } = offers();
    const result = subject.offer(job('a'));
    expect(taken).toHaveLength(0);
    room.add('a');
    subject.admitWaiting();
    expect(taken).toHaveLength(1);
    taken[0]?.settle(true);
    await expect(result).resolves.toBe(true);
  });

  it('gives an offer back when no room came within its patience', async () => {
    const { subject, taken } = offers(2, 20);
    const started = Date.now();
    await expect(subject.offer(job('a'))).resolves.toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(15);
    expect(taken).toHaveLength(0);
  });

  it('takes at most maxOffered at once; the next one is admitted when one settles', async () => {
    const { subject, room, taken } = offers(2, 1_000);
    room.add('a');
    const results = [1, 2, 3].map((n) => subject.offer(job('a', n)));
    expect(taken.map((t) => t.job.event.id)).toEqual(['evt_1', 'evt_2']);
    taken[0]?.settle(true);
    await results[0];
    expect(taken.map((t) => t.job.event.id)).toEqual(['evt_1', 'evt_2', 'evt_3']);
    taken[1]?.settle(false);
    taken[2]?.settle(true);
    await expect(Promise.all(results)).resolves.toEqual([true, false, true]);
  });

  it('keeps the order of waiting offers: a new one does not pass those waiting', async () => {
    const { subject, room, taken } = offers(2, 1_000);
    const first = subject.offer(job('a', 1));
    room.add('b');
    // b has room, but the waiting offer of a was first: b's offer is admitted right behind it.
    const second = subject.offer(job('b', 2));
    expect(taken.map((t) => t.job.event.id)).toEqual(['evt_2']);
    room.add('a');
    subject.admitWaiting();
    expect(taken.map((t) => t.job.event.id)).toEqual(['evt_2', 'evt_1']);
    for (const t of taken) t.settle(true);
    await expect(Promise.all([first, second])).resolves.toEqual([true, true]);
  });

  it('takes nothing once closed', async () => {
    const { subject, room, taken } = offers(2, 10);
    room.add('a');
    subject.close();
    await expect(subject.offer(job('a'))).resolves.toBe(false);
    expect(taken).toHaveLength(0);
  });
});
