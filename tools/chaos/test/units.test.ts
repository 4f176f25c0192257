// The chaos tool's own parts: its options, its seeded chance, the slope of the soak and the
// checks' arithmetic, on made-up records.
import { describe, expect, it } from '@jest/globals';
import type { Fault } from '../src/faults.ts';
import { Ledger } from '../src/ledger.ts';
import { parseOptions, UsageError } from '../src/options.ts';
import { seeded } from '../src/random.ts';
import type { EndpointLog, Taken } from '../src/receiver.ts';
import { slope, slopeFindings, slopesOf, SLOPE_LIMITS, WARM_UP_MS } from '../src/soak.ts';
import {
  duplicateBound,
  duplicateDeliveries,
  missedWakeUps,
  missingDeliveries,
  paymentsCompletedTwice,
  undeliveredWrites,
  unexpectedExits,
} from '../src/verify.ts';

const taken = (requestId: string, sequence: number, extra: Partial<Taken> = {}): Taken => ({
  eventId: `evt_${requestId}_${sequence}`,
  type: 'request.updated',
  requestId,
  sequence,
  objectId: undefined,
  ...extra,
});
const log = (items: Taken[]): EndpointLog => ({
  mode: 'steady',
  taken: items,
  badSignatures: 0,
  refused: 0,
});

describe('options', () => {
  it('take the documented flags, with defaults', () => {
    expect(parseOptions([], () => 5)).toEqual({
      minutes: 2,
      seed: 5,
      replicas: 2,
      faults: ['kill', 'nats-pause', 'ferretdb', 'postgres', 'endpoint-fill'],
      soak: false,
    });
    expect(
      parseOptions(
        ['--minutes', '30', '--seed=7', '--replicas', '3', '--faults', 'kill,postgres', '--soak'],
        () => 5,
      ),
    ).toEqual({ minutes: 30, seed: 7, replicas: 3, faults: ['kill', 'postgres'], soak: true });
    expect(parseOptions(['--faults', 'none'], () => 5).faults).toEqual([]);
  });

  it('refuse what they do not know, with the reason', () => {
    expect(() => parseOptions(['--replicas', '0'], () => 1)).toThrow(UsageError);
    expect(() => parseOptions(['--seed', '1.5'], () => 1)).toThrow(/whole number/);
    expect(() => parseOptions(['--faults', 'meteor'], () => 1)).toThrow(/unknown kind "meteor"/);
    expect(() => parseOptions(['--minutes'], () => 1)).toThrow(/needs a value/);
    expect(() => parseOptions(['--loud'], () => 1)).toThrow(/unknown argument/);
  });
});

describe('seeded chance', () => {
  it('replays the same choices for the same seed, others for another', () => {
    const a = seeded(42);
    const b = seeded(42);
    const c = seeded(43);
    const draw = (r: typeof a) => Array.from({ length: 8 }, () => r.int(0, 1_000));
    const first = draw(a);
    expect(draw(b)).toEqual(first);
    expect(draw(c)).not.toEqual(first);
    expect(first.every((n) => n >= 0 && n <= 1_000)).toBe(true);
  });
});

describe('soak slopes', () => {
  it('fit a straight line to the per-minute medians, after the warm-up', () => {
    expect(slope([0, 1, 2, 3], [10, 12, 14, 16])).toBeCloseTo(2);
    expect(slope([0, 1, 2], [5, 5, 5])).toBe(0);
    // Six samples a minute for 20 minutes: RSS grows 5 MiB a minute; descriptors stay, but one
    // sample a minute jumps (a burst of sockets), which the medians leave out.
    const warmUp = WARM_UP_MS / 10_000;
    const samples = Array.from({ length: warmUp + 120 }, (_, n) => {
      const i = n - warmUp;
      return {
        at: n * 10_000,
        // The warm-up's samples jump about: they are left out of the lines.
        rssMiB: i < 0 ? 100 + (n % 3) * 20 : 100 + (5 * i) / 6,
        heapMiB: 20,
        externalMiB: 4,
        fds: i % 6 === 0 ? 30 + i : 30,
      };
    });
    // A replica restarted at minute 10 that grows fast while it starts: not judged.
    const restarted = samples
      .filter((s) => s.at >= 10 * 60_000)
      .map((s, i) => ({ ...s, rssMiB: 100 + 10 * i }));
    const slopes = slopesOf(
      [
        { name: 'intake#1', pid: 1, samples },
        { name: 'intake#2', pid: 3, samples: restarted },
      ],
      0,
    );
    expect(slopes.map((s) => s.name)).toEqual(['intake#1']);
    // Judged on the second half of what follows the warm-up: 10 of its 20 minutes.
    expect(slopes[0]?.minutes).toBeCloseTo(9.8, 0);
    expect(slopes[0]?.rssMiB).toBeCloseTo(5, 0);
    // Its peak: about 147 MiB before the judged half, 197 at its end, 9.8 minutes later.
    expect(slopes[0]?.rssPeakMiB).toBeCloseTo(50 / 9.8, 0);
    expect(slopes[0]?.externalMiB).toBeCloseTo(0);
    expect(slopes[0]?.fds).toBeCloseTo(0);
    expect(slopeFindings(slopes)).toEqual([
      expect.stringMatching(
        /^intake#1 \(pid 1\) grows: RSS outside the heap: peak \+\d\.\d\d MiB\/min \(RSS line \+5\.\d\d\)$/,
      ),
    ]);
  });
});

describe('a soak process whose RSS saws, or whose buffers grow', () => {
  it('is judged by its peak, and by the memory outside the heap', () => {
    // RSS falls from its start to 180 MiB and climbs back to 290 at the end, never past the
    // 300 of its first minutes (the soak of seed 33 saw gateway#1 so): a line through the
    // second half says +8 MiB a minute, the peak says no growth. Its buffers grow 2 MiB a minute.
    const minutes = (WARM_UP_MS + 20 * 60_000) / 60_000;
    const samples = Array.from({ length: minutes * 6 }, (_, n) => {
      const minute = n / 6;
      return {
        at: n * 10_000,
        rssMiB: minute < 5 ? 300 : minute < 15 ? 180 : 180 + (110 * (minute - 15)) / 10,
        heapMiB: 20,
        externalMiB: 2 * minute,
        fds: 30,
      };
    });
    const [judged] = slopesOf([{ name: 'gateway#1', pid: 1, samples }], 0);
    expect(judged?.rssMiB).toBeGreaterThan(SLOPE_LIMITS.rssMiB);
    expect(judged?.rssPeakMiB).toBeLessThan(0);
    expect(slopeFindings(judged ? [judged] : [])).toEqual([
      'gateway#1 (pid 1) grows: external +2.00 MiB/min',
    ]);
  });
});

describe('a soak process whose heap holds its garbage once the load has stopped', () => {
  it('is judged on what it did while the load ran', () => {
    // 25 minutes of load with the heap flat at 70 MiB, then 5 minutes of drain at 120 MiB: no
    // collection runs without allocation (the soak of seed 71 saw gateway#1 so).
    const loadEndedAt = WARM_UP_MS + 20 * 60_000;
    const samples = Array.from({ length: (loadEndedAt + 5 * 60_000) / 10_000 }, (_, n) => ({
      at: n * 10_000,
      rssMiB: 200,
      heapMiB: n * 10_000 <= loadEndedAt ? 70 : 120,
      externalMiB: 30,
      fds: 30,
    }));
    const series = [{ name: 'gateway#1', pid: 1, samples }];
    expect(slopeFindings(slopesOf(series, 0))).toEqual([
      expect.stringMatching(/^gateway#1 \(pid 1\) grows: heap \+\d+\.\d\d MiB\/min$/),
    ]);
    const [judged] = slopesOf(series, 0, loadEndedAt);
    expect(judged?.heapMiB).toBeCloseTo(0);
    expect(judged?.last.at).toBeLessThanOrEqual(loadEndedAt);
    expect(slopeFindings(judged ? [judged] : [])).toEqual([]);
  });
});

describe('a soak process whose heap saws, or whose reserved heap steps up after a burst', () => {
  it('is judged by the heap floor, and by RSS outside the reserved heap', () => {
    // The soak of seed 72's notifications#1 and intake#1: the heap saws between its floor (45
    // MiB) and peaks that grow later in the run (a line through the medians said +2.47 MiB/min);
    // a burst makes V8 reserve 178 MiB for the heap instead of 115 two thirds in, and RSS steps
    // from 222 to 264 MiB with it (+3.75 MiB/min by the peak), while RSS outside the heap stays.
    const minutes = (WARM_UP_MS + 20 * 60_000) / 60_000;
    const samples = Array.from({ length: minutes * 6 }, (_, n) => {
      const minute = n / 6;
      const reserved = minute < 18 ? 115 : 178;
      return {
        at: n * 10_000,
        rssMiB: 107 + reserved,
        heapMiB: n % 6 === 0 ? 45 : 45 + (n % 6) * (minute / 2),
        heapTotalMiB: reserved,
        externalMiB: 30,
        fds: 30,
      };
    });
    const [judged] = slopesOf([{ name: 'intake#1', pid: 1, samples }], 0);
    expect(judged?.heapMiB).toBeCloseTo(0);
    expect(judged?.rssPeakMiB).toBeCloseTo(0);
    expect(slopeFindings(judged ? [judged] : [])).toEqual([]);
    // The same process leaking: its floor rises 2 MiB a minute, RSS outside the heap 5.
    const leaking = samples.map((sample) => {
      const minute = sample.at / 60_000;
      return {
        ...sample,
        heapMiB: sample.heapMiB + 2 * minute,
        rssMiB: sample.rssMiB + 5 * Math.max(0, minute - WARM_UP_MS / 60_000),
      };
    });
    const [leak] = slopesOf([{ name: 'intake#1', pid: 1, samples: leaking }], 0);
    expect(leak?.heapMiB).toBeCloseTo(2);
    expect(slopeFindings(leak ? [leak] : [])).toEqual([
      expect.stringMatching(
        /^intake#1 \(pid 1\) grows: RSS outside the heap: peak \+\d\.\d\d MiB\/min \(RSS line \+\d+\.\d\d\), heap \+2\.00 MiB\/min$/,
      ),
    ]);
  });
});

describe('a soak process that grows to its working set, then stays', () => {
  it('is not a finding; one that still grows at the end is', () => {
    // 20 minutes after the warm-up: +10 MiB a minute for 8 minutes, then flat.
    const series = (grows: boolean) =>
      Array.from({ length: (WARM_UP_MS + 20 * 60_000) / 10_000 }, (_, n) => {
        const minute = Math.max(0, n * 10_000 - WARM_UP_MS) / 60_000;
        return {
          at: n * 10_000,
          rssMiB: 100 + 10 * (grows ? minute : Math.min(minute, 8)),
          heapMiB: 20,
          fds: 30,
        };
      });
    const slopes = slopesOf(
      [
        { name: 'gateway#1', pid: 1, samples: series(false) },
        { name: 'gateway#2', pid: 2, samples: series(true) },
      ],
      0,
    );
    expect(slopes.map((s) => [s.name, Math.round(s.rssMiB)])).toEqual([
      ['gateway#1', 0],
      ['gateway#2', 10],
    ]);
    expect(slopeFindings(slopes)).toEqual([expect.stringMatching(/^gateway#2 /)]);
  });
});

describe('the checks', () => {
  it('find numbered events an endpoint never took', () => {
    const logs = new Map([['steady', log([taken('req_a', 1), taken('req_a', 3)])]]);
    expect(missingDeliveries(logs, new Map([['req_a', 3]]))).toEqual(['steady: req_a #2']);
  });

  it('count duplicates by event id, and payments completed by two events', () => {
    const paid = (eventId: string) =>
      taken('req_a', 5, { eventId, type: 'payment.completed', objectId: 'pay_1' });
    const logs = new Map([
      ['steady', log([taken('req_a', 1), taken('req_a', 1), paid('evt_x')])],
      ['flaky', log([paid('evt_y')])],
    ]);
    expect(duplicateDeliveries(logs)).toBe(1);
    expect(paymentsCompletedTwice(logs)).toEqual(['payment pay_1 completed by 2 events']);
  });

  it('find writes whose event an endpoint never took', () => {
    const ledger = new Ledger();
    ledger.acked({ kind: 'message', requestId: 'req_a', id: 'msg_1' });
    ledger.acked({ kind: 'route', requestId: 'req_a', id: 'req_a' });
    const logs = new Map([
      ['steady', log([taken('req_a', 2, { type: 'message.created', objectId: 'msg_2' })])],
    ]);
    expect(undeliveredWrites(ledger, logs).map((found) => found.write.id)).toEqual(['msg_1']);
  });

  it('bound duplicates by the faults that can repeat an attempt', () => {
    const fault = (kind: Fault['kind'], target: string): Fault => ({ kind, target, at: 0, ms: 0 });
    const faults = [
      fault('kill', 'webhook-dispatcher#2'),
      fault('kill', 'intake#1'),
      fault('postgres', 'postgres'),
      fault('endpoint-fill', 'steady'),
    ];
    expect(duplicateBound(faults, 2, 32)).toBe(32 + 64);
  });

  it('find a long-poll that slept through a write, unless a fault held its event back', () => {
    const ledger = new Ledger();
    ledger.writes.push({ kind: 'message', requestId: 'req_a', id: 'msg_1', ackedAt: 1_000 });
    ledger.polls.push({ requestId: 'req_a', after: 3, startedAt: 0, endedAt: 10_000, events: 0 });
    expect(missedWakeUps(ledger, [])).toHaveLength(1);
    expect(
      missedWakeUps(ledger, [{ kind: 'nats-pause', target: 'nats', at: 500, ms: 4_000 }]),
    ).toEqual([]);
  });

  it('find an exit the faults do not explain: a crash, a stray SIGKILL, an abort', () => {
    const kill: Fault = { kind: 'kill', target: 'payments#2', at: 1_000, ms: 5 };
    const exit = (name: string, code: number | null, signal: string | null, at: number) => ({
      name,
      code,
      signal,
      at,
    });
    const explained = [
      exit('payments#2', null, 'SIGKILL', 1_050),
      exit('intake#1', 69, null, 2_000),
      exit('milestones#2', 75, null, 3_000),
    ];
    expect(unexpectedExits(explained, [kill])).toEqual([]);
    const found = unexpectedExits(
      [
        exit('payments#1', 1, null, 4_000),
        exit('payments#2', null, 'SIGKILL', 60_000),
        exit('gateway#1', null, 'SIGABRT', 5_000),
        exit('intake#2', 0, null, 6_000),
      ],
      [kill],
    );
    expect(found).toEqual([
      expect.stringContaining('payments#1 exited with code 1 (an uncaught exception'),
      expect.stringContaining('payments#2 exited on SIGKILL (not a kill of this run)'),
      expect.stringContaining('gateway#1 exited on SIGABRT'),
      expect.stringContaining('intake#2 exited with code 0'),
    ]);
  });
});
