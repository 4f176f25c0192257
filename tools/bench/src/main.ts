// `npm run bench`: measures the bare floors (express, a NATS round trip, a database write) and
// the gateway on the full stack, on this machine, in one run. Results: a table on stdout and
// .bench/results.json at the repository root.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readConfig, type BenchConfig } from './config.ts';
import {
  BENCH_RATE_LIMITS,
  BENCH_UPDATES_SETTINGS,
  BENCH_WEBHOOK_SETTINGS,
} from './fixtures/gateway-stack.ts';
import {
  formatFiguresTable,
  formatProblems,
  formatRatiosTable,
  formatResultsTable,
} from './format.ts';
import {
  computeGrowth,
  formatGrowthTable,
  formatPreloads,
  GROWTH_GROUP,
  type PreloadRecord,
} from './growth.ts';
import { runScenarios } from './harness.ts';
import { computeRatios } from './measure.ts';
import { replicaRatios, replicaSuffix, scaledOut } from './replicas.ts';
import { ratiosFor, scenarios, selectScenarios } from './scenarios/index.ts';
import type { Scenario, ScenarioReport } from './types.ts';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const RESULTS_FILE = join(REPO_ROOT, '.bench', 'results.json');
/** After the work is done, how long open handles may keep the process alive. */
const EXIT_GRACE_MS = 5_000;

const progress = (line: string) => console.error(`[bench] ${line}`);

async function main(): Promise<number> {
  const config = readConfig(process.env);
  const preloads: PreloadRecord[] = [];
  const all = scenarios({
    logLevel: config.logLevel,
    growthSizes: config.growthSizes,
    preloads,
    webhookRate: config.webhookRate,
  });
  const selected = selectScenarios(all, config.only);
  const growthSelected = selected.some((s) => s.group === GROWTH_GROUP);

  const abort = new AbortController();
  const interrupt = (signal: string) => {
    if (abort.signal.aborted) return;
    progress(`${signal}: stopping the current measurement and tearing down`);
    abort.abort();
  };
  process.on('SIGINT', () => interrupt('SIGINT'));
  process.on('SIGTERM', () => interrupt('SIGTERM'));

  const startedAt = new Date();
  const machine = {
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: availableParallelism(),
  };
  progress(
    `${selected.length} scenario(s), ${config.durationS} s each after a ${config.warmupS} s warm-up, ` +
      `${config.connections} connections; node ${machine.node}, ${machine.cores} cores`,
  );

  const reports = await runAll(selected, config, abort.signal);

  const ratioSpecs = [
    ...ratiosFor(growthSelected ? config.growthSizes : []),
    ...replicaRatios(reports, config.replicas),
  ];
  const ratios = computeRatios(ratioSpecs, reports).filter((ratio) =>
    reports.some((report) => report.name === ratio.subject),
  );
  const growth = growthSelected ? computeGrowth(reports, config.growthSizes, preloads) : null;
  const results = {
    started_at: startedAt.toISOString(),
    finished_at: new Date().toISOString(),
    machine,
    settings: {
      duration_s: config.durationS,
      warmup_s: config.warmupS,
      connections: config.connections,
      growth_sizes: config.growthSizes,
      replicas: config.replicas,
      webhook_rate: config.webhookRate ?? 'half the peak of the same run',
      stack_log_level: config.logLevel,
      stack_rate_limits: BENCH_RATE_LIMITS,
      stack_webhook_settings: BENCH_WEBHOOK_SETTINGS,
      stack_updates_settings: BENCH_UPDATES_SETTINGS,
      nats: process.env.NATS_URL ? 'NATS_URL' : 'started by the bench',
      mongo: process.env.MONGO_URL ? 'MONGO_URL' : 'started by the bench',
    },
    interrupted: abort.signal.aborted,
    scenarios: reports,
    ratios,
    growth,
  };
  mkdirSync(join(REPO_ROOT, '.bench'), { recursive: true });
  writeFileSync(RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`);

  const problems = formatProblems(reports);
  console.log('');
  console.log(
    `Handoff bench: ${config.durationS} s per scenario, ${config.connections} connections, ` +
      `${config.warmupS} s warm-up; node ${machine.node}, ${machine.cores} cores`,
  );
  console.log('');
  console.log(formatResultsTable(reports));
  console.log('');
  const figures = formatFiguresTable(reports);
  if (figures) {
    console.log(figures);
    console.log('');
  }
  console.log(formatRatiosTable(ratios));
  console.log('');
  if (growth) {
    console.log(formatGrowthTable(growth));
    console.log('');
    for (const line of formatPreloads(growth.preloads)) console.log(line);
    console.log('');
  }
  for (const problem of problems) console.log(`! ${problem}`);
  if (problems.length > 0) console.log('');
  console.log(`Results written to ${RESULTS_FILE}`);
  return problems.length > 0 || abort.signal.aborted ? 1 : 0;
}

/**
 * The selected scenarios, then (BENCH_REPLICAS above 1) the stack scenarios among them again on
 * stacks of that many replicas of every service, each on a pool of fixtures of its own.
 */
async function runAll(
  selected: readonly Scenario[],
  config: BenchConfig,
  signal: AbortSignal,
): Promise<ScenarioReport[]> {
  const tempDir = mkdtempSync(join(tmpdir(), 'handoff-bench-'));
  const reports: ScenarioReport[] = [];
  try {
    const options = {
      connections: config.connections,
      durationMs: config.durationS * 1_000,
      warmupMs: config.warmupS * 1_000,
      tempDir,
      env: process.env,
      signal,
      progress,
    };
    const onReport = (report: ScenarioReport) =>
      progress(
        report.stats
          ? `${report.name}: ${report.stats.requests_per_s} req/s, p50 ${report.stats.p50_ms} ms, p99 ${report.stats.p99_ms} ms`
          : `${report.name}: failed: ${report.failure}`,
      );
    reports.push(...(await runScenarios(selected, options, onReport)));
    const scaled = config.replicas > 1 ? scaledOut(selected, config.replicas) : [];
    if (scaled.length > 0 && !signal.aborted) {
      progress(`${scaled.length} stack scenario(s) again on ${config.replicas} replicas`);
      const variantDir = join(tempDir, replicaSuffix(config.replicas).slice(1));
      reports.push(
        ...(await runScenarios(
          scaled,
          { ...options, tempDir: variantDir, replicas: config.replicas },
          onReport,
        )),
      );
    }
  } finally {
    rmSync(tempDir, { recursive: true, force: true });
  }
  return reports;
}

let code = 1;
try {
  code = await main();
} catch (error) {
  console.error(`[bench] ${error instanceof Error ? error.message : String(error)}`);
}
process.exitCode = code;
// Everything started has been stopped; should a handle still linger, do not hang on it.
setTimeout(() => {
  progress(`still running ${EXIT_GRACE_MS / 1_000} s after finishing; exiting`);
  process.exit(code);
}, EXIT_GRACE_MS).unref();
