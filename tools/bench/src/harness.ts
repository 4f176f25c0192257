import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { formatBytes } from './format.ts';
import { runHttpLoad } from './http-load.ts';
import { describeError, problemsOf, runClosedLoop, runObserved, summarize } from './measure.ts';
import type {
  Figure,
  Fixture,
  Load,
  LoadOptions,
  Measurement,
  Scenario,
  ScenarioContext,
  ScenarioReport,
  SetupContext,
  Stats,
} from './types.ts';

export interface RunOptions {
  connections: number;
  durationMs: number;
  warmupMs: number;
  /** Each scenario gets `<tempDir>/<name>`, removed after it ran. */
  tempDir: string;
  env: Record<string, string | undefined>;
  signal: AbortSignal;
  progress(line: string): void;
  /**
   * The fixtures shared with other scenarios of the run; without one, the scenario gets a pool of
   * its own, torn down with it.
   */
  fixtures?: FixturePool;
  /** The reports of the scenarios run before this one (none when omitted). */
  earlier?: readonly ScenarioReport[];
  /** Processes of every service in the stacks its fixtures start (1 when omitted). */
  replicas?: number;
}

export type PoolOptions = Pick<RunOptions, 'tempDir' | 'env' | 'signal' | 'progress' | 'replicas'>;

interface StartedFixture {
  value: Promise<unknown>;
  steps: (() => unknown)[];
  dataDir: string;
}

/** Runs teardown steps last first; returns what went wrong, one line each. */
async function runSteps(steps: (() => unknown)[]): Promise<string[]> {
  const problems: string[] = [];
  for (const step of steps.splice(0).reverse()) {
    try {
      await step();
    } catch (error) {
      problems.push(`teardown: ${describeError(error)}`);
    }
  }
  return problems;
}

/**
 * The fixtures of a run: each started once, on first use, in `<tempDir>/fixtures/<name>`, and kept
 * until released.
 */
export class FixturePool {
  readonly #options: PoolOptions;
  readonly #started = new Map<Fixture<unknown>, StartedFixture>();

  constructor(options: PoolOptions) {
    this.#options = options;
  }

  /** A fixture's name in progress lines and problems: `-x<N>` on stacks of N replicas. */
  #label(fixture: Fixture<unknown>): string {
    const replicas = this.#options.replicas ?? 1;
    return replicas > 1 ? `${fixture.name}-x${replicas}` : fixture.name;
  }

  /** The fixture's value; starts it on the first call, shares it afterwards. */
  use<T>(fixture: Fixture<T>): Promise<T> {
    const existing = this.#started.get(fixture);
    // Entries are keyed by their fixture, so the value is that fixture's T.
    if (existing) return existing.value as Promise<T>;
    const dataDir = join(this.#options.tempDir, 'fixtures', this.#label(fixture));
    mkdirSync(dataDir, { recursive: true });
    const steps: (() => unknown)[] = [];
    const progress = (line: string) => this.#options.progress(`${this.#label(fixture)}: ${line}`);
    const context: SetupContext = {
      dataDir,
      env: this.#options.env,
      signal: this.#options.signal,
      progress,
      teardown: (step) => steps.push(step),
      ...(this.#options.replicas === undefined ? {} : { replicas: this.#options.replicas }),
    };
    progress('setting up (shared, not measured)');
    const value = fixture.setup(context).catch((error: unknown) => {
      throw new Error(`fixture ${this.#label(fixture)}: ${describeError(error)}`);
    });
    this.#started.set(fixture, { value, steps, dataDir });
    return value;
  }

  /** Lets each of `fixtures` that is started and can settle finish its leftover work. */
  async settle(fixtures: readonly Fixture<unknown>[]): Promise<void> {
    for (const fixture of fixtures) {
      const entry = this.#started.get(fixture);
      if (!entry || !fixture.settle) continue;
      const progress = (line: string) => this.#options.progress(`${this.#label(fixture)}: ${line}`);
      await fixture.settle(await entry.value, { signal: this.#options.signal, progress });
    }
  }

  /** The fixtures started so far, in the order they were started. */
  started(): Fixture<unknown>[] {
    return [...this.#started.keys()];
  }

  /** Tears a started fixture down (a no-op otherwise); returns its teardown problems. */
  async release(fixture: Fixture<unknown>): Promise<string[]> {
    const entry = this.#started.get(fixture);
    if (!entry) return [];
    this.#started.delete(fixture);
    // Its setup may still be under way (an interrupted run): let it settle first.
    await entry.value.catch(() => undefined);
    this.#options.progress(`${this.#label(fixture)}: tearing down`);
    const problems = await runSteps(entry.steps);
    rmSync(entry.dataDir, { recursive: true, force: true });
    return problems.map((problem) => `${this.#label(fixture)}: ${problem}`);
  }

  /** Tears every started fixture down, the last started first. */
  async releaseAll(): Promise<string[]> {
    const problems: string[] = [];
    for (const fixture of this.started().reverse()) problems.push(...(await this.release(fixture)));
    return problems;
  }
}

const MIB = 1024 * 1024;

/** The rate of a scenario whose every operation moves `bytes`, in MiB/s. */
export function throughput(stats: Stats, bytes: number): Figure {
  return {
    name: 'throughput',
    value: Math.round(((stats.requests_per_s * bytes) / MIB) * 10) / 10,
    unit: 'MiB/s',
    note: `req/s × ${formatBytes(bytes)}`,
  };
}

/** Drives a load with the driver its kind calls for. */
export function drive(load: Load, options: LoadOptions): Promise<Measurement> {
  switch (load.kind) {
    case 'http':
      return runHttpLoad(load, options);
    case 'call':
      return runClosedLoop(load.call, options);
    case 'observed':
      return runObserved(load, options);
  }
}

/**
 * Setup, warm-up (not counted), measurement, then every teardown step the scenario registered,
 * last first, whatever happened before. Never throws: a failure is part of the report.
 */
export async function runScenario(
  scenario: Scenario,
  options: RunOptions,
): Promise<ScenarioReport> {
  const report: ScenarioReport = {
    name: scenario.name,
    description: scenario.description,
    stats: null,
    failure: null,
    problems: [],
  };
  const steps: (() => unknown)[] = [];
  const ownPool = options.fixtures === undefined;
  const fixtures = options.fixtures ?? new FixturePool(options);
  const dataDir = join(options.tempDir, scenario.name);
  mkdirSync(dataDir, { recursive: true });
  const progress = (line: string) => options.progress(`${scenario.name}: ${line}`);
  const connections = scenario.connections ?? options.connections;
  const load = { connections, signal: options.signal };
  const warmupMs = scenario.warmupMs ?? options.warmupMs;
  const ctx: ScenarioContext = {
    dataDir,
    env: options.env,
    connections,
    durationMs: options.durationMs,
    warmupMs,
    signal: options.signal,
    progress,
    teardown: (step) => steps.push(step),
    use: <T>(fixture: Fixture<T>) => {
      if (!scenario.uses?.includes(fixture)) {
        return Promise.reject(
          new Error(`uses the fixture ${fixture.name} without listing it in \`uses\``),
        );
      }
      return fixtures.use(fixture);
    },
    earlier: options.earlier ?? [],
    ...(options.replicas === undefined ? {} : { replicas: options.replicas }),
    figure: (figure) => (report.figures ??= []).push(figure),
  };
  try {
    progress('setting up');
    const target = await scenario.setup(ctx);
    if (options.signal.aborted) throw new Error('interrupted');
    await fixtures.settle(scenario.uses ?? []);
    if (warmupMs > 0) {
      progress(`warming up for ${warmupMs / 1_000} s`);
      await drive(target, { ...load, durationMs: warmupMs });
    }
    if (options.signal.aborted) throw new Error('interrupted');
    progress(`measuring for ${options.durationMs / 1_000} s at ${connections} connections`);
    const measured = await scenario.measuring?.(ctx);
    const measurement = await drive(target, { ...load, durationMs: options.durationMs });
    if (options.signal.aborted) throw new Error('interrupted');
    await measured?.(measurement);
    report.stats = summarize(measurement);
    if (scenario.bytesPerOperation !== undefined) {
      (report.figures ??= []).unshift(throughput(report.stats, scenario.bytesPerOperation));
    }
    report.problems.push(
      ...problemsOf(measurement, target.kind === 'http' ? target.expectStatus : undefined),
    );
  } catch (error) {
    report.failure = describeError(error);
  } finally {
    progress('tearing down');
    report.problems.push(...(await runSteps(steps)));
    if (ownPool) report.problems.push(...(await fixtures.releaseAll()));
    rmSync(dataDir, { recursive: true, force: true });
  }
  return report;
}

/**
 * Runs the scenarios in order with one pool of fixtures: a fixture is torn down right after the
 * last scenario that lists it (its teardown problems go to that scenario's report), so what it
 * started does not run beside the scenarios after it. Each scenario sees the reports of those
 * before it. Stops early when the run is interrupted.
 */
export async function runScenarios(
  scenarios: readonly Scenario[],
  options: Omit<RunOptions, 'fixtures' | 'earlier'>,
  onReport: (report: ScenarioReport) => void = () => {},
): Promise<ScenarioReport[]> {
  const pool = new FixturePool(options);
  const reports: ScenarioReport[] = [];
  try {
    for (const [index, scenario] of scenarios.entries()) {
      if (options.signal.aborted) break;
      const report = await runScenario(scenario, {
        ...options,
        fixtures: pool,
        earlier: [...reports],
      });
      const later = scenarios.slice(index + 1);
      for (const fixture of pool.started().reverse()) {
        if (later.some((next) => next.uses?.includes(fixture))) continue;
        report.problems.push(...(await pool.release(fixture)));
      }
      reports.push(report);
      onReport(report);
    }
  } finally {
    const problems = await pool.releaseAll();
    reports.at(-1)?.problems.push(...problems);
  }
  return reports;
}
