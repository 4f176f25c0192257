import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { runHttpLoad } from './http-load.ts';
import { describeError, problemsOf, runClosedLoop, summarize } from './measure.ts';
import type { Load, LoadOptions, Measurement, Scenario, ScenarioReport } from './types.ts';

export interface RunOptions {
  connections: number;
  durationMs: number;
  warmupMs: number;
  /** Each scenario gets `<tempDir>/<name>`, removed after it ran. */
  tempDir: string;
  env: Record<string, string | undefined>;
  signal: AbortSignal;
  progress(line: string): void;
}

/** Drives a load with the driver its kind calls for. */
export function drive(load: Load, options: LoadOptions): Promise<Measurement> {
  switch (load.kind) {
    case 'http':
      return runHttpLoad(load, options);
    case 'call':
      return runClosedLoop(load.call, options);
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
  const dataDir = join(options.tempDir, scenario.name);
  mkdirSync(dataDir, { recursive: true });
  const progress = (line: string) => options.progress(`${scenario.name}: ${line}`);
  const load = { connections: options.connections, signal: options.signal };
  try {
    progress('setting up');
    const target = await scenario.setup({
      dataDir,
      env: options.env,
      connections: options.connections,
      signal: options.signal,
      progress,
      teardown: (step) => steps.push(step),
    });
    if (options.signal.aborted) throw new Error('interrupted');
    if (options.warmupMs > 0) {
      progress(`warming up for ${options.warmupMs / 1_000} s`);
      await drive(target, { ...load, durationMs: options.warmupMs });
    }
    if (options.signal.aborted) throw new Error('interrupted');
    progress(`measuring for ${options.durationMs / 1_000} s at ${options.connections} connections`);
    const measurement = await drive(target, { ...load, durationMs: options.durationMs });
    if (options.signal.aborted) throw new Error('interrupted');
    report.stats = summarize(measurement);
    report.problems.push(
      ...problemsOf(measurement, target.kind === 'http' ? target.expectStatus : undefined),
    );
  } catch (error) {
    report.failure = describeError(error);
  } finally {
    progress('tearing down');
    for (const step of steps.reverse()) {
      try {
        await step();
      } catch (error) {
        report.problems.push(`teardown: ${describeError(error)}`);
      }
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
  return report;
}
