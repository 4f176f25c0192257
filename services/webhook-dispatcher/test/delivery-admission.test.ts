import { describe, expect, it } from '@jest/globals';
import {
  admitQueued,
  endpointShare,
  HAND_BACK_MAX_MS,
  offerable,
  OFFER_MAX_ANSWER_MS,
  roomForOffer,
  stallPatienceMs,
  type EndpointLoad,
} from '../src/delivery/admission.ts';

const load = (change: Partial<EndpointLoad> = {}): EndpointLoad => ({
  stalled: false,
  ahead: 0,
  share: 8,
  slots: 4,
  answerMs: 10,
  ...change,
});
const NOW = 1_700_000_000_000;

describe('admitting a job from the queue', () => {
  it('sends a job that is not due back until it is, without asking about its endpoint', () => {
    let asked = false;
    const admission = admitQueued(
      { not_before: NOW + 1_500 },
      NOW,
      () => {
        asked = true;
        return load();
      },
      0,
    );
    expect(admission).toEqual({ kind: 'not-due', wakeInMs: 1_500 });
    expect(asked).toBe(false);
  });

  it('holds a due job while its endpoint is below its share', () => {
    expect(admitQueued({ not_before: NOW }, NOW, () => load({ ahead: 7 }), 0)).toEqual({
      kind: 'hold',
    });
    expect(admitQueued({ not_before: 0 }, NOW, () => load(), 3)).toEqual({ kind: 'hold' });
  });

  it('hands a job back for the longest delay while its endpoint is stalled', () => {
    expect(admitQueued({ not_before: 0 }, NOW, () => load({ stalled: true }), 0)).toEqual({
      kind: 'hand-back',
      why: 'stalled',
      delayMs: HAND_BACK_MAX_MS,
    });
  });

  it('hands a job back for about the drain time when its endpoint has its share here', () => {
    const admission = admitQueued({ not_before: 0 }, NOW, () => load({ ahead: 8 }), 0);
    expect(admission.kind).toBe('hand-back');
    if (admission.kind !== 'hand-back') return;
    expect(admission.why).toBe('share-full');
    // 10 ms per answer, 9 jobs over 4 slots: 3 rounds, 30 ms, up to half again at random.
    expect(admission.delayMs).toBeGreaterThanOrEqual(30);
    expect(admission.delayMs).toBeLessThanOrEqual(45);
    // Handed back before: longer.
    const again = admitQueued({ not_before: 0 }, NOW, () => load({ ahead: 8 }), 2);
    expect(again.kind === 'hand-back' && again.delayMs).toBeGreaterThanOrEqual(120);
  });
});

describe("an endpoint's share and patience", () => {
  it.each([
    { concurrency: 16, slots: 4, share: 16, why: 'at least the concurrency' },
    { concurrency: 16, slots: 10, share: 20, why: 'twice the slots' },
    { concurrency: 16, slots: 40, share: 24, why: 'at most one and a half times the concurrency' },
    { concurrency: 1, slots: 1, share: 1, why: 'that much, rounded down' },
  ])('holds $share of $slots slots at concurrency $concurrency: $why', (row) => {
    expect(endpointShare(row.concurrency, row.slots)).toBe(row.share);
  });

  it('waits a second at least, or eight answer times', () => {
    expect(stallPatienceMs(10)).toBe(1_000);
    expect(stallPatienceMs(500)).toBe(4_000);
  });
});

describe('offering a first attempt', () => {
  const replica = { held: 0, concurrency: 4, maxOffered: 8 };

  it('takes only first attempts, to endpoints that answer fast', () => {
    expect(offerable({ attempt: 1 }, OFFER_MAX_ANSWER_MS)).toBe(true);
    expect(offerable({ attempt: 1 }, OFFER_MAX_ANSWER_MS + 1)).toBe(false);
    expect(offerable({ attempt: 2 }, 1)).toBe(false);
  });

  it('has room while the endpoint is below its share and the replica below twice its concurrency', () => {
    expect(roomForOffer(load({ ahead: 3, share: 4 }), replica)).toBe(true);
    expect(roomForOffer(load({ ahead: 4, share: 4 }), replica)).toBe(false);
    expect(roomForOffer(load(), { ...replica, held: 8 })).toBe(false);
    expect(roomForOffer(load({ stalled: true }), replica)).toBe(false);
    // Never more of one endpoint than the offers the replica takes at once.
    expect(roomForOffer(load({ ahead: 2, share: 8 }), { ...replica, maxOffered: 2 })).toBe(false);
  });
});
