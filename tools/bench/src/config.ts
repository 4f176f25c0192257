import { DEFAULT_GROWTH_SIZES } from './growth.ts';

export interface BenchConfig {
  durationS: number;
  connections: number;
  warmupS: number;
  /** LOG_LEVEL of the services in the stack scenarios. */
  logLevel: string;
  /** Only these scenarios, when set (BENCH_ONLY=a,b). */
  only: string[] | null;
  /** The existing requests (and deliveries) the growth scenario measures at, ascending. */
  growthSizes: number[];
  /**
   * The deliveries per second the webhook latency scenarios run at (BENCH_WEBHOOK_RATE), instead
   * of half the peak measured earlier in the run.
   */
  webhookRate: number | null;
  /**
   * Replicas of every service (BENCH_REPLICAS): above 1, every stack scenario runs again, after
   * the rest, on stacks of that many, reported as `<scenario>-x<N>` with its ratio to its own
   * 1-replica figure.
   */
  replicas: number;
}

/** The most replicas BENCH_REPLICAS asks for (the stack's own limit). */
const MAX_REPLICAS = 8;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function positive(env: Record<string, string | undefined>, key: string, fallback: number) {
  const raw = env[key];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) {
    throw new Error(`${key} must be a positive number, not ${JSON.stringify(raw)}`);
  }
  return value;
}

function sizes(env: Record<string, string | undefined>, key: string, fallback: readonly number[]) {
  const raw = env[key];
  if (raw === undefined || raw.trim() === '') return [...fallback];
  const values = raw.split(',').map((part) => part.trim());
  if (values.some((value) => !/^[1-9][0-9]*$/.test(value))) {
    throw new Error(`${key} must be whole numbers above 0, separated by commas, not ${raw}`);
  }
  return [...new Set(values.map(Number))].sort((a, b) => a - b);
}

/**
 * BENCH_GROWTH_SIZES (1000,10000,100000,1000000), BENCH_DURATION_S (10), BENCH_CONNECTIONS (50),
 * BENCH_WARMUP_S (2), BENCH_LOG_LEVEL (warn), BENCH_WEBHOOK_RATE (none), BENCH_REPLICAS (1).
 */
export function readConfig(env: Record<string, string | undefined>): BenchConfig {
  const connections = positive(env, 'BENCH_CONNECTIONS', 50);
  if (!Number.isInteger(connections)) {
    throw new Error(`BENCH_CONNECTIONS must be a whole number, not ${env.BENCH_CONNECTIONS}`);
  }
  const warmupRaw = env.BENCH_WARMUP_S;
  const warmupS = warmupRaw === '0' ? 0 : positive(env, 'BENCH_WARMUP_S', 2);
  const logLevel = env.BENCH_LOG_LEVEL?.trim() || 'warn';
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new Error(`BENCH_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, not ${logLevel}`);
  }
  const replicas = positive(env, 'BENCH_REPLICAS', 1);
  if (!Number.isInteger(replicas) || replicas > MAX_REPLICAS) {
    throw new Error(
      `BENCH_REPLICAS must be a whole number from 1 to ${MAX_REPLICAS}, not ${env.BENCH_REPLICAS}`,
    );
  }
  const only = env.BENCH_ONLY?.trim()
    ? env.BENCH_ONLY.split(',')
        .map((name) => name.trim())
        .filter(Boolean)
    : null;
  return {
    durationS: positive(env, 'BENCH_DURATION_S', 10),
    connections,
    warmupS,
    logLevel,
    only,
    growthSizes: sizes(env, 'BENCH_GROWTH_SIZES', DEFAULT_GROWTH_SIZES),
    webhookRate: env.BENCH_WEBHOOK_RATE?.trim() ? positive(env, 'BENCH_WEBHOOK_RATE', 1) : null,
    replicas,
  };
}
