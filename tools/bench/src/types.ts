import type { RecordableHistogram } from 'node:perf_hooks';

/**
 * What a scenario puts under load. The harness drives it, so a new endpoint is a new scenario
 * that returns one of these; it never needs its own load generator.
 */
export type Load = HttpLoad | CallLoad | ObservedLoad;

/** An HTTP endpoint, loaded with autocannon over keep-alive connections. */
export interface HttpLoad {
  kind: 'http';
  url: string;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  body?: string;
  /** The only acceptable status; any 2xx when omitted. Other statuses are reported as problems. */
  expectStatus?: number;
  /**
   * Spreads the load over several targets on the same server: connection i sends
   * `perConnection[i % length]` every time (its path, and its headers over `headers`) instead of
   * `url`'s path. For endpoints where concurrent calls on one resource would queue behind each
   * other in a way real callers would not.
   */
  perConnection?: readonly HttpTarget[];
  /**
   * Spreads the connections over several servers of the same API (a stack's gateway replicas):
   * connection i is bound to `origins[i % length]` (`http://host:port`), the path from `url` or
   * `perConnection` as before. `url`'s own origin when omitted.
   */
  origins?: readonly string[];
}

/** One connection's target in an {@link HttpLoad} spread over several. */
export interface HttpTarget {
  /** Path and query, e.g. `/v1/request/req_1/message`. */
  path: string;
  /** Added to (and overriding) the load's own headers. */
  headers?: Record<string, string>;
}

/** One operation (a bus request, a database write...), driven in a closed loop. */
export interface CallLoad {
  kind: 'call';
  call: () => Promise<unknown>;
}

/**
 * Completions observed from outside, such as webhook deliveries arriving at a receiver: the
 * scenario generates its own work and records each completion (and its latency) into the
 * measurement it was started with; the harness only keeps the time. The rate is the completions
 * over the time from `start` until `stop` resolved, as in a closed loop that lets the calls in
 * flight finish.
 */
export interface ObservedLoad {
  kind: 'observed';
  /**
   * Starts generating work (with `options.connections` loops or in flight, as the scenario
   * defines it) and recording into `measurement`.
   */
  start(measurement: Measurement, options: LoadOptions): void;
  /**
   * Starts no more work, lets what is under way finish (or time out, counted as errors), and
   * resolves when nothing more will be recorded into that measurement.
   */
  stop(): Promise<void>;
}

/** What a scenario's or a fixture's `setup` gets from the harness. */
export interface SetupContext {
  /** A fresh temporary directory of its own, removed after it was torn down. */
  dataDir: string;
  /** NATS_URL / MONGO_URL and the like; `process.env` in a real run. */
  env: Record<string, string | undefined>;
  /** Aborted on Ctrl-C: long setup steps may stop early. */
  signal: AbortSignal;
  /** A progress line on stderr. */
  progress(line: string): void;
  /**
   * Registers a clean-up step as soon as the thing it undoes exists. The steps run last-in
   * first-out when the scenario (or fixture) is torn down, also when setup or the measurement
   * fails part-way, so nothing leaks servers or processes.
   */
  teardown(step: () => unknown): void;
  /**
   * Processes of every service in the stacks started for it (BENCH_REPLICAS' variants run on
   * more than 1); 1 when omitted.
   */
  replicas?: number;
}

export interface ScenarioContext extends SetupContext {
  /** The concurrency the run will use (for pool sizes and the like). */
  connections: number;
  /** How long the measurement will drive the load (for pools of things used up by each call). */
  durationMs: number;
  /** How long the warm-up before it will drive the same load (0 when there is none). */
  warmupMs: number;
  /**
   * The value of a fixture the scenario lists in `uses`: started by the first scenario that asks
   * for it, then shared by the later ones. Refused for a fixture not listed there.
   */
  use<T>(fixture: Fixture<T>): Promise<T>;
  /**
   * The reports of the scenarios that ran before this one in the same run, in run order: for a
   * load derived from another scenario's figures, such as a rate at half a measured peak.
   */
  earlier: readonly ScenarioReport[];
  /**
   * Records a figure of the scenario's own beside its rate and latencies (a process's peak
   * memory, say): any time until its teardown steps are done, in the order recorded.
   */
  figure(figure: Figure): void;
}

/** A figure a scenario reports beside its rate and latencies. */
export interface Figure {
  /** Short, e.g. `gateway RSS above idle`. */
  name: string;
  value: number;
  /** E.g. `MiB`, `MiB/s`. */
  unit: string;
  /** How to read it (a target, what it is the difference of). */
  note?: string;
}

/**
 * One benchmark: `setup` starts what it needs (registering each teardown step with the context)
 * and returns the load to drive; the harness warms it up, measures it and tears it down.
 */
export interface Scenario {
  /** Short and stable: the key in results.json and in ratios. */
  name: string;
  /** One line: what exactly is measured. */
  description: string;
  /**
   * A set of scenarios run only on request: when BENCH_ONLY names the group (all of them) or the
   * scenario itself, never in a run without BENCH_ONLY.
   */
  group?: string;
  /** The shared fixtures `setup` takes with `ctx.use`. */
  uses?: readonly Fixture<unknown>[];
  /** A fixed concurrency of its own, instead of the run's (BENCH_CONNECTIONS). */
  connections?: number;
  /**
   * A warm-up of its own instead of the run's (BENCH_WARMUP_S): 0 when `setup` already ran the
   * load's whole path, and a timed one would only add its drain to the run's time.
   */
  warmupMs?: number;
  /**
   * The bytes each operation moves (an upload's or a download's size): the report then adds its
   * rate in MiB/s as a figure.
   */
  bytesPerOperation?: number;
  setup(ctx: ScenarioContext): Promise<Load>;
  /**
   * Called with setup's context as the measurement starts (after any warm-up); what it returns
   * is called with the measurement once it has ended, before the teardown: for figures of the
   * measured window alone, such as what it cost another process in CPU time.
   */
  measuring?(ctx: ScenarioContext): Promise<(measurement: Measurement) => Promise<void>>;
}

/**
 * Something expensive several scenarios measure against, such as the whole stack with an
 * onboarded agent key: started once per run, when the first scenario uses it, and torn down (its
 * teardown steps, last first) right after the last scenario of the run that lists it in `uses`.
 * Its setup time is never measured. A failed setup fails every scenario that uses it, without
 * being retried.
 */
export interface Fixture<T> {
  /** Short and stable: its directory and its progress lines. */
  name: string;
  setup(ctx: SetupContext): Promise<T>;
  /**
   * Waits, before a scenario that uses it is measured, until the work earlier scenarios left
   * behind in it is done, so that no scenario is measured beside another one's tail.
   */
  settle?(value: T, ctx: Pick<SetupContext, 'signal' | 'progress'>): Promise<void>;
  /**
   * The gateways of a fixture that runs the services (a stack): its scenarios run again on
   * several replicas when BENCH_REPLICAS asks, their HTTP loads spread over these.
   */
  gateways?(value: T): readonly string[];
}

/** A quotient of two scenarios' figures, e.g. the gateway against bare express. */
export interface RatioSpec {
  subject: string;
  baseline: string;
  /** A few words on how to read it, shown beside it (e.g. how many bus calls the subject makes). */
  note?: string;
}

export interface LoadOptions {
  connections: number;
  durationMs: number;
  signal?: AbortSignal;
}

/** The raw outcome of driving a load: successes, failures and the successes' latencies (ns). */
export interface Measurement {
  histogram: RecordableHistogram;
  /** Completed operations: 2xx responses, or calls that resolved. */
  ok: number;
  /** Socket errors, timeouts, rejected calls. */
  errors: number;
  /** HTTP responses outside 2xx (not in `ok`, not in the latencies). */
  non2xx: number;
  /** Responses whose status is not the expected one (HTTP loads with `expectStatus`). */
  unexpectedStatus: number;
  statusCodes: Record<string, number>;
  elapsedMs: number;
  firstError?: string;
}

export interface Stats {
  requests_per_s: number;
  p50_ms: number;
  p99_ms: number;
  mean_ms: number;
  max_ms: number;
  count: number;
  errors: number;
  non2xx: number;
  elapsed_s: number;
  status_codes: Record<string, number>;
}

export interface ScenarioReport {
  name: string;
  description: string;
  /** Null when the scenario could not run (see `failure`). */
  stats: Stats | null;
  /** Why it could not run at all. */
  failure: string | null;
  /** Checks that failed although it ran: errors, unexpected statuses, teardown trouble. */
  problems: string[];
  /** Figures of its own (MiB/s, a peak memory), when it has any. */
  figures?: Figure[];
}

export interface RatioReport extends RatioSpec {
  /** subject req/s ÷ baseline req/s */
  requests_per_s: number | null;
  /** subject p50 ÷ baseline p50 */
  p50: number | null;
  /** subject p99 ÷ baseline p99 */
  p99: number | null;
}
