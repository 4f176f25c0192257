import { describe, expect, it } from '@jest/globals';
import { WEBHOOK_DEFAULTS } from '@handoff/contracts';
import { answerOf, endpointSlots, FIRST_ANSWER_MS } from '../src/domain/endpoint-slots.ts';
import { JITTER_RATIO, nextAttemptDelayMs, shouldDisable } from '../src/domain/schedule.ts';
import { handBackDelayMs } from '../src/delivery/admission.ts';

describe('nextAttemptDelayMs', () => {
  const schedule = [5, 300, 1_800];
  const mid = (): number => 0.5;
  const low = (): number => 0;
  const high = (): number => 0.999_999_999;

  it('follows the schedule, one step per attempt made, without jitter at the midpoint', () => {
    expect(nextAttemptDelayMs(1, schedule, null, mid)).toBe(5_000);
    expect(nextAttemptDelayMs(2, schedule, null, mid)).toBe(300_000);
    expect(nextAttemptDelayMs(3, schedule, null, mid)).toBe(1_800_000);
  });

  it('is null once the schedule is exhausted', () => {
    expect(nextAttemptDelayMs(4, schedule, null, mid)).toBeNull();
    expect(nextAttemptDelayMs(40, schedule, 10, mid)).toBeNull();
    expect(nextAttemptDelayMs(10, WEBHOOK_DEFAULTS.retryScheduleSeconds, null)).toBeNull();
    expect(nextAttemptDelayMs(9, WEBHOOK_DEFAULTS.retryScheduleSeconds, null)).not.toBeNull();
  });

  it('rejects a nonsensical attempt count', () => {
    expect(() => nextAttemptDelayMs(0, schedule, null)).toThrow(RangeError);
    expect(() => nextAttemptDelayMs(1.5, schedule, null)).toThrow(RangeError);
  });

  it('jitters by at most ±10 %', () => {
    expect(JITTER_RATIO).toBe(0.1);
    expect(nextAttemptDelayMs(2, schedule, null, low)).toBe(270_000);
    expect(nextAttemptDelayMs(2, schedule, null, high)).toBe(330_000);
    const seen = new Set<number>();
    for (let i = 0; i < 2_000; i += 1) {
      const delay = nextAttemptDelayMs(2, schedule, null) ?? Number.NaN;
      expect(delay).toBeGreaterThanOrEqual(270_000);
      expect(delay).toBeLessThanOrEqual(330_000);
      seen.add(Math.floor((delay - 270_000) / 6_000));
    }
    // Spread over the whole band, not stuck at one value.
    expect(seen.size).toBeGreaterThanOrEqual(10);
  });

  it('waits for Retry-After when it is longer than the scheduled step', () => {
    expect(nextAttemptDelayMs(1, schedule, 60, mid)).toBe(60_000);
    // Retry-After is a "not before": never jittered below.
    expect(nextAttemptDelayMs(1, schedule, 60, low)).toBe(60_000);
    expect(nextAttemptDelayMs(1, schedule, 60, high)).toBe(60_000);
  });

  it('keeps the scheduled step when Retry-After is shorter', () => {
    expect(nextAttemptDelayMs(2, schedule, 10, mid)).toBe(300_000);
    expect(nextAttemptDelayMs(2, schedule, 0, low)).toBe(270_000);
  });

  it("caps Retry-After at the schedule's longest step", () => {
    expect(nextAttemptDelayMs(1, schedule, 86_400, mid)).toBe(1_800_000);
    expect(nextAttemptDelayMs(1, schedule, 1e12, low)).toBe(1_800_000);
    expect(nextAttemptDelayMs(1, [1, 2], 3_600, mid)).toBe(2_000);
  });
});

describe('shouldDisable', () => {
  const day = 24 * 60 * 60 * 1_000;
  const start = new Date('2026-03-01T00:00:00Z');
  const at = (ms: number): Date => new Date(start.getTime() + ms);

  it('disables after 5 days of failures with no success', () => {
    expect(shouldDisable(start, null, at(5 * day - 1))).toBe(false);
    expect(shouldDisable(start, null, at(5 * day))).toBe(true);
    expect(shouldDisable(start, at(-day), at(6 * day))).toBe(true);
  });

  it('never disables an endpoint that is not failing', () => {
    expect(shouldDisable(null, null, at(100 * day))).toBe(false);
    expect(shouldDisable(null, start, at(100 * day))).toBe(false);
  });

  it('does not disable when a success came after the first failure', () => {
    expect(shouldDisable(start, at(day), at(10 * day))).toBe(false);
    expect(shouldDisable(start, start, at(10 * day))).toBe(false);
  });

  it('takes the window from the caller', () => {
    expect(shouldDisable(start, null, at(59_999), 60)).toBe(false);
    expect(shouldDisable(start, null, at(60_000), 60)).toBe(true);
  });
});

describe('handBackDelayMs', () => {
  it('brings a fast endpoint’s handed-back job back within milliseconds', () => {
    for (let run = 0; run < 100; run += 1) {
      const delay = handBackDelayMs(2, 8, 4);
      expect(delay).toBeGreaterThanOrEqual(5);
      expect(delay).toBeLessThanOrEqual(10);
    }
  });

  it('keeps a job that keeps coming back to a full share away twice as long each time, up to four times', () => {
    for (let run = 0; run < 100; run += 1) {
      const first = handBackDelayMs(10, 8, 4, 0);
      const third = handBackDelayMs(10, 8, 4, 2);
      const fiftieth = handBackDelayMs(10, 8, 4, 50);
      // 30 ms, then 120 ms, and no more than that however often it comes back; each with up to
      // half again.
      expect(first).toBeGreaterThanOrEqual(30);
      expect(first).toBeLessThanOrEqual(45);
      expect(third).toBeGreaterThanOrEqual(120);
      expect(third).toBeLessThanOrEqual(180);
      expect(fiftieth).toBeGreaterThanOrEqual(120);
      expect(fiftieth).toBeLessThanOrEqual(180);
      expect(handBackDelayMs(1_000, 8, 4, 50)).toBe(5_000);
    }
  });

  it('keeps a slow endpoint’s job away about as long as the queue ahead takes, at most 5 s', () => {
    for (let run = 0; run < 100; run += 1) {
      const delay = handBackDelayMs(400, 8, 4);
      // 3 rounds of 400 ms ahead, and up to half again.
      expect(delay).toBeGreaterThanOrEqual(1_200);
      expect(delay).toBeLessThanOrEqual(1_800);
      expect(handBackDelayMs(10_000, 8, 4)).toBe(5_000);
    }
  });
});

describe('endpointSlots', () => {
  /** `n` answers of one kind, each while every slot was in use. */
  const answer = (
    slots: ReturnType<typeof endpointSlots>,
    n: number,
    kind: 'ok' | 'overloaded' | 'other',
    ms: number,
    busy = true,
  ) => {
    for (let i = 0; i < n; i += 1) slots.answered('ep', kind, ms, busy);
  };
  /** Slots (4 to 16) of an endpoint that has grown to the most with fast answers. */
  const grown = (now?: () => number) => {
    const slots = endpointSlots({ initial: 4, max: 16 }, now);
    answer(slots, 1_000, 'ok', 2);
    expect(slots.slots('ep')).toBe(16);
    return slots;
  };

  it('starts an endpoint with the initial slots, and keeps them fixed when max is no higher', () => {
    const fixed = endpointSlots({ initial: 4, max: 4 });
    expect(fixed.slots('ep')).toBe(4);
    answer(fixed, 1_000, 'ok', 1);
    expect(fixed.slots('ep')).toBe(4);
    answer(fixed, 100, 'overloaded', 1);
    expect(fixed.slots('ep')).toBe(4);
    expect(endpointSlots({ initial: 4, max: 2 }).slots('ep')).toBe(4);
  });

  it('gives a fast endpoint a slot per round of answers while all its slots are busy, up to max', () => {
    const slots = endpointSlots({ initial: 4, max: 16 });
    // Each answer adds 1/limit of a slot: about a round of answers (here five) adds one.
    answer(slots, 4, 'ok', 2);
    expect(slots.slots('ep')).toBe(4);
    answer(slots, 1, 'ok', 2);
    expect(slots.slots('ep')).toBe(5);
    expect(grown().slots('another')).toBe(4);
  });

  it('does not grow an endpoint whose slots were not all in use', () => {
    const slots = endpointSlots({ initial: 4, max: 16 });
    answer(slots, 1_000, 'ok', 2, false);
    expect(slots.slots('ep')).toBe(4);
  });

  it('halves the slots on 429, 5xx or timeouts, at most once per round, down to one', () => {
    let now = 0;
    const slots = grown(() => now);
    now = 1_000;
    // A burst of failures answered together is one signal, not eight halvings.
    answer(slots, 8, 'overloaded', 10);
    expect(slots.slots('ep')).toBe(8);
    for (let i = 0; i < 10; i += 1) {
      now += 1_000;
      slots.answered('ep', 'overloaded', 10, true);
    }
    expect(slots.slots('ep')).toBe(1);
  });

  it('takes slots from an endpoint answering much slower than usual, down to the initial ones', () => {
    const slots = grown();
    answer(slots, 50, 'ok', 200);
    expect(slots.slots('ep')).toBe(4);
  });

  it('counts other answers (4xx, refused targets) as no sign of load', () => {
    const slots = endpointSlots({ initial: 4, max: 16 });
    answer(slots, 100, 'other', 2);
    expect(slots.slots('ep')).toBe(4);
    expect(answerOf(200, 'success')).toBe('ok');
    expect(answerOf(404, 'retry')).toBe('other');
    expect(answerOf(null, 'refused')).toBe('other');
    expect(answerOf(429, 'retry')).toBe('overloaded');
    expect(answerOf(503, 'retry')).toBe('overloaded');
    expect(answerOf(null, 'retry')).toBe('overloaded');
  });

  it('keeps the recent answer time used to pace handed-back jobs', () => {
    const slots = endpointSlots({ initial: 4, max: 16 });
    expect(slots.answerMs('ep')).toBe(FIRST_ANSWER_MS);
    answer(slots, 50, 'ok', 8, false);
    expect(slots.answerMs('ep')).toBeCloseTo(8, 5);
  });
});
