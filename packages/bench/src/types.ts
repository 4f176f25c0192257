import type { RecordableHistogram } from 'node:perf_hooks';

/**
 * What a scenario puts under load. The harness drives it, so a new endpoint is a new scenario
 * that returns one of these; it never needs its own load generator.
 */
export type Load = HttpLoad | CallLoad;

/** An HTTP endpoint, loaded with autocannon over keep-alive connections. */
export interface HttpLoad {
  kind: 'http';
  url: string;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  body?: string;
  /** The only acceptable status; any 2xx when omitted. Other statuses are reported as problems. */
  expectStatus?: number;
}

/** One operation (a bus request, a database write...), driven in a closed loop. */
export interface CallLoad {
  kind: 'call';
  call: () => Promise<unknown>;
}

export interface ScenarioContext {
  /** A fresh temporary directory of this scenario's own, removed after the run. */
  dataDir: string;
  /** NATS_URL / MONGO_URL and the like; `process.env` in a real run. */
  env: Record<string, string | undefined>;
  /** The concurrency the run will use (for pool sizes and the like). */
  connections: number;
  /** Aborted on Ctrl-C: long setup steps may stop early. */
  signal: AbortSignal;
  /** A progress line on stderr. */
  progress(line: string): void;
  /**
   * Registers a clean-up step as soon as the thing it undoes exists. The steps run last-in
   * first-out after the measurement, also when setup or the measurement fails part-way, so a
   * scenario never leaks servers or processes.
   */
  teardown(step: () => unknown): void;
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
  setup(ctx: ScenarioContext): Promise<Load>;
}

/** A quotient of two scenarios' figures, e.g. the gateway against bare express. */
export interface RatioSpec {
  subject: string;
  baseline: string;
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
}

export interface RatioReport extends RatioSpec {
  /** subject req/s ÷ baseline req/s */
  requests_per_s: number | null;
  /** subject p50 ÷ baseline p50 */
  p50: number | null;
  /** subject p99 ÷ baseline p99 */
  p99: number | null;
}
