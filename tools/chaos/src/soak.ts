// The soak's record of every service process: RSS and open file descriptors from /proc, the V8
// heap and the memory outside it (`external`: buffers) from the process's own health port
// (`/healthz`'s `memory`), every 10 s, each sample also appended to a file. At the end a straight
// line is fitted to each process's per-minute medians over the second half of what followed the
// warm-up (a collection or a burst of sockets moves single samples far); a slope over the
// documented limit fails the run (heap, buffers or descriptors that keep growing). The heap is
// fitted by its per-minute floor instead (what a collection leaves), and RSS is judged by the
// peak of what it holds outside the heap V8 reserved: it moves in steps and saws (the allocator
// keeps and returns pages in bulk), so a line through it reads a saw as growth; a leak lifts the
// peak past the earlier one.
import type { Stack } from '@handoff/devstack';
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';

export const SAMPLE_EVERY_MS = 10_000;
/** Samples of the first minutes are left out of the slope: caches and pools fill then. */
export const WARM_UP_MS = 5 * 60_000;
/** The most each may grow per minute after the warm-up (README, "Chaos"). */
export const SLOPE_LIMITS = { rssMiB: 3, heapMiB: 1, externalMiB: 1, fds: 1 } as const;

export interface Sample {
  at: number;
  rssMiB: number;
  heapMiB: number | undefined;
  /** V8's heap as reserved (used or not): what RSS holds of the heap. */
  heapTotalMiB?: number | undefined;
  /** Memory outside the heap that objects in it hold (buffers). */
  externalMiB?: number | undefined;
  fds: number;
}

/** One process's samples, by its name (`intake#2`) and pid: a restarted replica is a new series. */
export interface Series {
  name: string;
  pid: number;
  samples: Sample[];
}

export interface Slopes {
  name: string;
  pid: number;
  minutes: number;
  /** The straight line's slope of RSS (shown, not judged). */
  rssMiB: number;
  /**
   * How far RSS outside the heap V8 reserved (RSS less `heapTotalMiB`; all of RSS for samples
   * without it) rose, per judged minute, above the highest it had been before the judged half
   * (warm-up included): 0 or less for a process that stays within the working set it reached.
   */
  rssPeakMiB: number;
  /** The straight line's slope of the heap's per-minute floor. */
  heapMiB: number | undefined;
  externalMiB: number | undefined;
  fds: number;
  last: Sample;
}

export function startSampler(stack: Stack, file: string): { stop(): Series[] } {
  const series = new Map<string, Series>();
  const sample = async () => {
    const services = stack.state().services;
    for (const [name, service] of Object.entries(services)) {
      for (const [index, replica] of service.replicas.entries()) {
        if (replica.pid === undefined) continue;
        const label = service.replicas.length > 1 ? `${name}#${index + 1}` : name;
        const taken = await sampleOf(replica.pid, replica.health_port);
        if (!taken) continue;
        const key = `${label} ${replica.pid}`;
        const entry = series.get(key) ?? { name: label, pid: replica.pid, samples: [] };
        entry.samples.push(taken);
        appendFileSync(file, `${JSON.stringify({ name: label, pid: replica.pid, ...taken })}\n`);
        series.set(key, entry);
      }
    }
  };
  void sample();
  const timer = setInterval(() => void sample(), SAMPLE_EVERY_MS);
  return {
    stop() {
      clearInterval(timer);
      return [...series.values()];
    },
  };
}

async function sampleOf(pid: number, healthPort: number | undefined): Promise<Sample | undefined> {
  let rssKiB: number;
  let fds: number;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    rssKiB = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
    fds = readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return undefined;
  }
  let heapMiB: number | undefined;
  let heapTotalMiB: number | undefined;
  let externalMiB: number | undefined;
  if (healthPort !== undefined) {
    try {
      const res = await fetch(`http://127.0.0.1:${healthPort}/healthz`, {
        signal: AbortSignal.timeout(2_000),
      });
      const body = (await res.json()) as {
        memory?: { heap_used_bytes?: number; heap_total_bytes?: number; external_bytes?: number };
      };
      const mib = (bytes: number | undefined) =>
        typeof bytes === 'number' ? bytes / 2 ** 20 : undefined;
      heapMiB = mib(body.memory?.heap_used_bytes);
      heapTotalMiB = mib(body.memory?.heap_total_bytes);
      externalMiB = mib(body.memory?.external_bytes);
    } catch {
      // A process being restarted: RSS and descriptors still count.
    }
  }
  return { at: Date.now(), rssMiB: rssKiB / 1024, heapMiB, heapTotalMiB, externalMiB, fds };
}

/** Least-squares slope of `ys` over `xs` (per unit of x); 0 with fewer than 2 points. */
export function slope(xs: readonly number[], ys: readonly number[]): number {
  const n = xs.length;
  if (n < 2) return 0;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i += 1) {
    const dx = (xs[i] ?? 0) - mx;
    num += dx * ((ys[i] ?? 0) - my);
    den += dx * dx;
  }
  return den === 0 ? 0 : num / den;
}

/** The median of `values` (not empty). */
function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** One measure in each minute of `samples`, by minute: their median, or another `summary`. */
function perMinute(
  samples: readonly Sample[],
  measure: (s: Sample) => number | undefined,
  summary: (values: readonly number[]) => number = median,
): Map<number, number> {
  const minutes = new Map<number, number[]>();
  for (const sample of samples) {
    const value = measure(sample);
    if (value === undefined) continue;
    const minute = Math.floor(sample.at / 60_000);
    minutes.set(minute, [...(minutes.get(minute) ?? []), value]);
  }
  return new Map([...minutes].map(([minute, values]) => [minute, summary(values)]));
}

/** The slope per minute of one measure over its per-minute medians (or `summary`). */
function minuteSlope(
  samples: readonly Sample[],
  measure: (s: Sample) => number | undefined,
  summary?: (values: readonly number[]) => number,
) {
  const minutes = perMinute(samples, measure, summary);
  if (minutes.size < 3) return undefined;
  return slope([...minutes.keys()], [...minutes.values()]);
}

const lowest = (values: readonly number[]) => Math.min(...values);

/**
 * What RSS holds outside the heap V8 reserved. The heap is judged by its floor; what V8 keeps
 * reserved for it after a burst is bounded by its limit, and moved RSS in steps the soak of seed
 * 72 read as growth: `intake#1`'s reserved heap went from 115 to 178 MiB in one minute, and
 * its RSS from 222 to 264 MiB, while its heap's floor stayed at 41–49 MiB and RSS outside the
 * heap never passed the 163 MiB of its first 10 minutes. Samples without the heap's figures (its
 * health port not answering) count whole when no sample has them.
 */
function outsideHeap(samples: readonly Sample[]): (s: Sample) => number | undefined {
  const known = samples.some((s) => s.heapTotalMiB !== undefined);
  return (s) =>
    !known ? s.rssMiB : s.heapTotalMiB === undefined ? undefined : s.rssMiB - s.heapTotalMiB;
}

/**
 * How far the highest per-minute median of `measure` in `judged` rose above the highest of
 * `before`, per minute of `judged`.
 */
function peakRise(
  before: readonly Sample[],
  judged: readonly Sample[],
  minutes: number,
  measure: (s: Sample) => number | undefined,
): number {
  const highest = (samples: readonly Sample[]) => Math.max(...perMinute(samples, measure).values());
  if (before.length === 0 || minutes <= 0) return 0;
  return (highest(judged) - highest(before)) / minutes;
}

/**
 * A process sampled first this long after the run started was restarted by a fault: its own
 * start (loading code, filling caches and pools) is no leak, and what is left of the run after
 * its warm-up is too short a line to judge.
 */
export const STARTED_WITH_THE_RUN_MS = 60_000;

/**
 * The slopes, per minute, of each process that ran from the run's start to its end (a soak's
 * kills spare the first replica of each service, for this): a process restarted by a fault
 * starts over and is left out. The 30-minute soak of seed 31 judged replicas restarted late in
 * the run by their first minutes, and called their start growth.
 *
 * Only the samples taken while the load ran (up to `loadEndedAt`) are judged: once nothing
 * allocates, nothing starts a collection, and the heap keeps its last garbage through the drain
 * (the soak of seed 71 saw gateway#1's heap at 120 MiB after the load against troughs of 65–75
 * MiB during it: +2.24 MiB/min with the drain, +0.95 without).
 */
export function slopesOf(
  all: readonly Series[],
  startedAt: number,
  loadEndedAt = Infinity,
): Slopes[] {
  const whole = all.filter(
    (series) => (series.samples[0]?.at ?? Infinity) - startedAt < STARTED_WITH_THE_RUN_MS,
  );
  const longest = new Map<string, Series>();
  for (const series of whole) {
    const kept = longest.get(series.name);
    if (!kept || series.samples.length > kept.samples.length) longest.set(series.name, series);
  }
  return [...longest.values()].flatMap((series) => {
    const warm = series.samples.filter(
      (s) => s.at - startedAt >= WARM_UP_MS && s.at <= loadEndedAt,
    );
    const samples = laterHalf(warm);
    const first = samples[0];
    const last = samples[samples.length - 1];
    const rssMiB = minuteSlope(samples, (s) => s.rssMiB);
    const fds = minuteSlope(samples, (s) => s.fds);
    if (!first || !last || rssMiB === undefined || fds === undefined) return [];
    const minutes = (last.at - first.at) / 60_000;
    const before = series.samples.filter((s) => s.at < first.at);
    return [
      {
        name: series.name,
        pid: series.pid,
        minutes,
        rssMiB,
        rssPeakMiB: peakRise(before, samples, minutes, outsideHeap(series.samples)),
        heapMiB: minuteSlope(samples, (s) => s.heapMiB, lowest),
        externalMiB: minuteSlope(samples, (s) => s.externalMiB),
        fds,
        last,
      },
    ];
  });
}

/**
 * The second half of the samples after the warm-up: a process that grows to its working set
 * (a cache filling up to its bound, the allocator's arenas) and then stays is not leaking, one
 * that leaks still grows at the end. The soak of seed 32 saw gateway#1 step from 195 to 293 MiB
 * by minute 13 and stay within 293–296 MiB to minute 30: +4.4 MiB/min over the whole line.
 */
function laterHalf(samples: readonly Sample[]): Sample[] {
  const first = samples[0];
  const last = samples[samples.length - 1];
  if (!first || !last) return [];
  const middle = first.at + (last.at - first.at) / 2;
  return samples.filter((s) => s.at >= middle);
}

/** The slopes over their limits, as findings. */
export function slopeFindings(slopes: readonly Slopes[]): string[] {
  return slopes.flatMap((s) => {
    const over: string[] = [];
    if (s.rssPeakMiB > SLOPE_LIMITS.rssMiB) {
      over.push(
        `RSS outside the heap: peak +${s.rssPeakMiB.toFixed(2)} MiB/min (RSS line +${s.rssMiB.toFixed(2)})`,
      );
    }
    if ((s.heapMiB ?? 0) > SLOPE_LIMITS.heapMiB)
      over.push(`heap +${(s.heapMiB ?? 0).toFixed(2)} MiB/min`);
    if ((s.externalMiB ?? 0) > SLOPE_LIMITS.externalMiB)
      over.push(`external +${(s.externalMiB ?? 0).toFixed(2)} MiB/min`);
    if (s.fds > SLOPE_LIMITS.fds) over.push(`descriptors +${s.fds.toFixed(2)}/min`);
    return over.length > 0 ? [`${s.name} (pid ${s.pid}) grows: ${over.join(', ')}`] : [];
  });
}
