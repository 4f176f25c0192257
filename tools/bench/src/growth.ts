// The growth scenario's figures: the same operations measured with more and more existing data,
// read back from the run's reports, and how much slower each got from the smallest size to the
// largest. Pure functions of the reports, so the run's table and results.json agree.
import { formatMs, formatRate, formatRatio, renderTable, type Align } from './format.ts';
import { safeRatio } from './measure.ts';
import type { RatioSpec, ScenarioReport } from './types.ts';

/** The name BENCH_ONLY takes for all of them. */
export const GROWTH_GROUP = 'growth';
/** BENCH_GROWTH_SIZES unless set. */
export const DEFAULT_GROWTH_SIZES: readonly number[] = [1_000, 10_000, 100_000, 1_000_000];
/** The most p50 may grow from the smallest size to the largest (the throughput issue's target). */
export const GROWTH_P50_TARGET = 1.5;

export const GROWTH_OPERATIONS = ['create', 'read', 'read-cold', 'message', 'webhook'] as const;
export type GrowthOperation = (typeof GROWTH_OPERATIONS)[number];

/** The scenario each operation's figures are divided by, at every size. */
export const GROWTH_BASELINES: Record<GrowthOperation, string> = {
  create: 'stack-insert-one',
  read: 'express-bare',
  'read-cold': 'stack-find-one',
  message: 'stack-insert-one',
  webhook: 'raw-http-post',
};

export function growthScenarioName(size: number, operation: GrowthOperation): string {
  return `${GROWTH_GROUP}-${size}-${operation}`;
}

/** How one size's preload went, for the printed lines and results.json. */
export interface PreloadRecord {
  size: number;
  /** Per collection: what was there, what was inserted, how long it took. */
  steps: { target: string; before: number; inserted: number; ms: number }[];
  ms: number;
}

export interface GrowthRow {
  size: number;
  requests_per_s: number | null;
  p50_ms: number | null;
  p99_ms: number | null;
  /** This size's rate ÷ the baseline's rate in the same run. */
  requests_per_s_vs_baseline: number | null;
  /** This size's p50 ÷ the baseline's p50 in the same run. */
  p50_vs_baseline: number | null;
}

export interface GrowthOperationReport {
  operation: GrowthOperation;
  baseline: string;
  rows: GrowthRow[];
  /** p50 at the largest size ÷ p50 at the smallest. */
  p50_growth: number | null;
  /** Whether `p50_growth` is at most {@link GROWTH_P50_TARGET}; null without a figure. */
  within_target: boolean | null;
}

export interface GrowthReport {
  sizes: number[];
  target_p50_growth: number;
  operations: GrowthOperationReport[];
  preloads: PreloadRecord[];
}

/** p50 at the largest size against the smallest, per operation, as ratios of the run. */
export function growthRatios(sizes: readonly number[]): RatioSpec[] {
  const smallest = sizes[0];
  const largest = sizes.at(-1);
  if (smallest === undefined || largest === undefined || smallest === largest) return [];
  return GROWTH_OPERATIONS.map((operation) => ({
    subject: growthScenarioName(largest, operation),
    baseline: growthScenarioName(smallest, operation),
    note: `${largest} against ${smallest} existing; target p50 ≤ ${GROWTH_P50_TARGET}x`,
  }));
}

/** The growth figures of a run; sizes it did not measure have null figures. */
export function computeGrowth(
  reports: readonly ScenarioReport[],
  sizes: readonly number[],
  preloads: readonly PreloadRecord[] = [],
): GrowthReport {
  // A scenario that completed nothing has no figures (its zeros are not measurements).
  const stats = (name: string) => {
    const found = reports.find((report) => report.name === name)?.stats;
    return found && found.count > 0 ? found : null;
  };
  const operations = GROWTH_OPERATIONS.map((operation): GrowthOperationReport => {
    const baselineName = GROWTH_BASELINES[operation];
    const baseline = stats(baselineName);
    const rows = sizes.map((size): GrowthRow => {
      const measured = stats(growthScenarioName(size, operation));
      return {
        size,
        requests_per_s: measured?.requests_per_s ?? null,
        p50_ms: measured?.p50_ms ?? null,
        p99_ms: measured?.p99_ms ?? null,
        requests_per_s_vs_baseline: safeRatio(measured?.requests_per_s, baseline?.requests_per_s),
        p50_vs_baseline: safeRatio(measured?.p50_ms, baseline?.p50_ms),
      };
    });
    const first = rows[0];
    const last = rows.at(-1);
    const p50Growth = rows.length > 1 ? safeRatio(last?.p50_ms, first?.p50_ms) : null;
    return {
      operation,
      baseline: baselineName,
      rows,
      p50_growth: p50Growth,
      within_target: p50Growth === null ? null : p50Growth <= GROWTH_P50_TARGET,
    };
  });
  return {
    sizes: [...sizes],
    target_p50_growth: GROWTH_P50_TARGET,
    operations,
    preloads: preloads.map((record) => ({ ...record, steps: [...record.steps] })),
  };
}

const cell = (value: number | null, format: (value: number) => string) =>
  value === null ? '—' : format(value);

/** The growth table's columns, each header with its alignment. */
const GROWTH_COLUMNS: readonly (readonly [string, Align])[] = [
  ['growth', 'left'],
  ['existing', 'right'],
  ['req/s', 'right'],
  ['p50 ms', 'right'],
  ['p99 ms', 'right'],
  ['baseline', 'left'],
  ['req/s vs', 'right'],
  ['p50 vs', 'right'],
  ['p50 growth', 'right'],
  ['target', 'left'],
];

/**
 * One row per operation and size, and the p50 growth on each operation's last row, checked
 * against the target.
 */
export function formatGrowthTable(report: GrowthReport): string {
  const rows = report.operations.flatMap((operation) =>
    operation.rows.map((row, index) => {
      const last = index === operation.rows.length - 1;
      const growth = last ? formatRatio(operation.p50_growth) : '';
      const verdict =
        !last || operation.within_target === null
          ? ''
          : operation.within_target
            ? 'ok'
            : `over ${report.target_p50_growth}x`;
      return [
        index === 0 ? operation.operation : '',
        String(row.size),
        cell(row.requests_per_s, formatRate),
        cell(row.p50_ms, formatMs),
        cell(row.p99_ms, formatMs),
        index === 0 ? operation.baseline : '',
        formatRatio(row.requests_per_s_vs_baseline),
        formatRatio(row.p50_vs_baseline),
        growth,
        verdict,
      ];
    }),
  );
  return renderTable(
    GROWTH_COLUMNS.map(([header]) => header),
    rows,
    GROWTH_COLUMNS.map(([, align]) => align),
  );
}

/** One line per preloaded size: the documents inserted and how long it took. */
export function formatPreloads(preloads: readonly PreloadRecord[]): string[] {
  return preloads.map((record) => {
    const inserted = record.steps.reduce((sum, step) => sum + step.inserted, 0);
    const seconds = record.ms / 1_000;
    const rate = seconds > 0 ? Math.round(inserted / seconds) : 0;
    return (
      `preload to ${record.size}: ${inserted} documents in ${seconds.toFixed(1)} s` +
      (inserted > 0 ? ` (${rate} documents/s; ` : ' (') +
      record.steps.map((step) => `${step.target} ${step.inserted} in ${step.ms} ms`).join(', ') +
      ')'
    );
  });
}
