import { createHistogram } from 'node:perf_hooks';
import { setTimeout as sleep, setImmediate as yieldToLoop } from 'node:timers/promises';
import type {
  LoadOptions,
  Measurement,
  ObservedLoad,
  RatioReport,
  RatioSpec,
  ScenarioReport,
  Stats,
} from './types.ts';

const NS_PER_MS = 1_000_000;
const NS_PER_S = 1_000_000_000;

/** An empty measurement, to be filled by a load driver. */
export function emptyMeasurement(): Measurement {
  return {
    histogram: createHistogram(),
    ok: 0,
    errors: 0,
    non2xx: 0,
    unexpectedStatus: 0,
    statusCodes: {},
    elapsedMs: 0,
  };
}

/** Records one latency given in nanoseconds (a histogram takes whole numbers of at least 1). */
export function recordNs(measurement: Measurement, ns: number | bigint): void {
  if (typeof ns === 'bigint') measurement.histogram.record(ns > 0n ? ns : 1n);
  else measurement.histogram.record(Math.max(1, Math.round(ns)));
}

/**
 * Closed loop: `connections` callers each await `call` and start the next one at once, until
 * `durationMs` has passed. Every completed call's latency goes into the histogram (ns); the rate
 * is completions over the time until the last caller finished.
 */
export async function runClosedLoop(
  call: () => Promise<unknown>,
  options: LoadOptions,
): Promise<Measurement> {
  const measurement = emptyMeasurement();
  const started = performance.now();
  const deadline = started + options.durationMs;
  const caller = async () => {
    while (performance.now() < deadline && !options.signal?.aborted) {
      const t0 = process.hrtime.bigint();
      try {
        await call();
        recordNs(measurement, process.hrtime.bigint() - t0);
        measurement.ok += 1;
      } catch (error) {
        measurement.errors += 1;
        measurement.firstError ??= describeError(error);
        // A call that fails at once must not starve the event loop (timers, I/O, Ctrl-C).
        await yieldToLoop();
      }
    }
  };
  await Promise.all(Array.from({ length: options.connections }, caller));
  measurement.elapsedMs = performance.now() - started;
  return measurement;
}

export interface OpenLoopOptions {
  /** Operations started per second, evenly spaced. */
  ratePerS: number;
  /** Once aborted, nothing more is started (and `stop` starts no overdue ones). */
  signal?: AbortSignal;
}

export interface OpenLoop {
  /** How many operations have been started so far. */
  readonly started: number;
  /**
   * Starts every operation whose time has come (a late loop owes them), then no more; resolves
   * once every started one has settled, rejecting with the first that rejected.
   */
  stop(): Promise<void>;
}

/**
 * Open loop: starts `operation(scheduledAt)` at a fixed rate, the i-th at `start + i / ratePerS`
 * (`process.hrtime.bigint()` ns), never waiting for one to finish before the next is due. When
 * the loop falls behind (a busy event loop, a coarse timer), it starts the overdue ones at once,
 * each still given its own scheduled time: an operation that measures its latency from that time
 * shows the delay instead of leaving it out (no coordinated omission). The operations record
 * their own outcomes and should not reject.
 */
export function paceOpenLoop(
  operation: (scheduledAt: bigint) => Promise<void>,
  options: OpenLoopOptions,
): OpenLoop {
  const { ratePerS, signal } = options;
  if (!Number.isFinite(ratePerS) || ratePerS <= 0) {
    throw new Error(`an open loop needs a rate above 0 per second, not ${ratePerS}`);
  }
  const startedAt = process.hrtime.bigint();
  const scheduledAt = (index: number) =>
    startedAt + BigInt(Math.round((index * NS_PER_S) / ratePerS));
  const running = new Set<Promise<void>>();
  let next = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let failure: { error: unknown } | undefined;

  const startDue = (now: bigint) => {
    for (let at = scheduledAt(next); at <= now; at = scheduledAt(next)) {
      next += 1;
      const task = operation(at).catch((error: unknown) => {
        failure ??= { error };
      });
      running.add(task);
      void task.finally(() => running.delete(task));
    }
  };
  const tick = () => {
    timer = undefined;
    if (stopped || signal?.aborted) return;
    startDue(process.hrtime.bigint());
    const waitNs = scheduledAt(next) - process.hrtime.bigint();
    timer = setTimeout(tick, Math.max(0, Math.ceil(Number(waitNs) / NS_PER_MS)));
  };
  tick();

  return {
    get started() {
      return next;
    },
    async stop() {
      if (!stopped) {
        stopped = true;
        clearTimeout(timer);
        if (!signal?.aborted) startDue(process.hrtime.bigint());
      }
      // Settled operations leave the set; none starts another, so this ends.
      while (running.size > 0) await Promise.all(running);
      if (failure) throw failure.error;
    },
  };
}

/**
 * An {@link ObservedLoad}: started, left to run for `durationMs` (less when the run is
 * interrupted), then stopped; the rate is its completions over the time until `stop` resolved.
 */
export async function runObserved(load: ObservedLoad, options: LoadOptions): Promise<Measurement> {
  const measurement = emptyMeasurement();
  const started = performance.now();
  load.start(measurement, options);
  try {
    await sleep(options.durationMs, undefined, { signal: options.signal });
  } catch {
    // Interrupted: stop now; the caller sees the signal.
  }
  await load.stop();
  measurement.elapsedMs = performance.now() - started;
  return measurement;
}

export function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

const round = (value: number, digits: number) => {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
};

/** Rate and latency figures of a measurement (latencies in ms, rounded to the microsecond). */
export function summarize(measurement: Measurement): Stats {
  const { histogram } = measurement;
  const empty = histogram.count === 0;
  const ms = (ns: number) => (empty ? 0 : round(ns / NS_PER_MS, 3));
  const seconds = measurement.elapsedMs / 1_000;
  return {
    requests_per_s: seconds > 0 ? round(measurement.ok / seconds, 1) : 0,
    p50_ms: ms(histogram.percentile(50)),
    p99_ms: ms(histogram.percentile(99)),
    mean_ms: ms(histogram.mean),
    max_ms: ms(histogram.max),
    count: measurement.ok,
    errors: measurement.errors,
    non2xx: measurement.non2xx,
    elapsed_s: round(seconds, 3),
    status_codes: { ...measurement.statusCodes },
  };
}

/** What went wrong in a run that did complete. */
export function problemsOf(measurement: Measurement, expectStatus?: number): string[] {
  const problems: string[] = [];
  if (measurement.ok === 0) problems.push('no operation completed');
  if (measurement.errors > 0) {
    problems.push(
      `${measurement.errors} error(s)` +
        (measurement.firstError ? `, the first: ${measurement.firstError}` : ''),
    );
  }
  if (measurement.unexpectedStatus > 0) {
    const seen = Object.entries(measurement.statusCodes)
      .map(([code, count]) => `${code}×${count}`)
      .join(', ');
    problems.push(
      `${measurement.unexpectedStatus} response(s) were not ${expectStatus ?? '2xx'} (${seen})`,
    );
  }
  return problems;
}

/** Below this, ratios keep 3 significant digits instead of 3 decimals (which would leave 0.001). */
export const SMALL_RATIO = 0.01;

/** a ÷ b, or null when either is missing or the quotient means nothing. */
export function safeRatio(a: number | null | undefined, b: number | null | undefined) {
  if (a === null || a === undefined || b === null || b === undefined) return null;
  if (!Number.isFinite(a) || !Number.isFinite(b) || b <= 0) return null;
  const quotient = a / b;
  return quotient > 0 && quotient < SMALL_RATIO
    ? Number(quotient.toPrecision(3))
    : round(quotient, 3);
}

export function computeRatios(
  specs: readonly RatioSpec[],
  reports: readonly ScenarioReport[],
): RatioReport[] {
  // A scenario that completed nothing has no rate or latency to compare (its zeros are not figures).
  const stats = (name: string) => {
    const found = reports.find((report) => report.name === name)?.stats;
    return found && found.count > 0 ? found : null;
  };
  return specs.map((spec) => {
    const subject = stats(spec.subject);
    const baseline = stats(spec.baseline);
    return {
      ...spec,
      requests_per_s: safeRatio(subject?.requests_per_s, baseline?.requests_per_s),
      p50: safeRatio(subject?.p50_ms, baseline?.p50_ms),
      p99: safeRatio(subject?.p99_ms, baseline?.p99_ms),
    };
  });
}
