import { SMALL_RATIO } from './measure.ts';
import type { RatioReport, ScenarioReport } from './types.ts';

export type Align = 'left' | 'right';

/** A plain-text table: a header, a rule, the rows; columns padded to their widest cell. */
export function renderTable(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  align: readonly Align[] = [],
): string {
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    widths
      .map((width, column) => {
        const cell = cells[column] ?? '';
        return (align[column] ?? 'left') === 'right' ? cell.padStart(width) : cell.padEnd(width);
      })
      .join('  ')
      .trimEnd();
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  return [line(headers), rule, ...rows.map(line)].join('\n');
}

/** Requests per second: whole numbers from 100 up, one decimal below. */
export function formatRate(value: number): string {
  return value >= 100 ? Math.round(value).toString() : value.toFixed(1);
}

export function formatMs(value: number): string {
  return value.toFixed(2);
}

/** Three decimals; three significant digits for the small ones (0.00128x, not 0.001x). */
export function formatRatio(value: number | null): string {
  if (value === null) return 'n/a';
  return value > 0 && value < SMALL_RATIO ? `${value.toPrecision(3)}x` : `${value.toFixed(3)}x`;
}

export function formatResultsTable(reports: readonly ScenarioReport[]): string {
  const rows = reports.map((report) => {
    const { stats } = report;
    if (!stats) return [report.name, 'FAILED', '', '', '', '', '', ''];
    return [
      report.name,
      formatRate(stats.requests_per_s),
      formatMs(stats.p50_ms),
      formatMs(stats.p99_ms),
      String(stats.count),
      String(stats.errors),
      String(stats.non2xx),
      report.problems.length === 0 ? 'ok' : 'CHECK FAILED',
    ];
  });
  return renderTable(
    ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'count', 'errors', 'non-2xx', 'check'],
    rows,
    ['left', 'right', 'right', 'right', 'right', 'right', 'right', 'left'],
  );
}

/**
 * One row per ratio, a blank line between subjects; a `note` column when some ratio has a note.
 */
export function formatRatiosTable(ratios: readonly RatioReport[]): string {
  const withNotes = ratios.some((ratio) => ratio.note !== undefined);
  const table = renderTable(
    ['ratio', 'req/s', 'p50', 'p99', ...(withNotes ? ['note'] : [])],
    ratios.map((ratio) => [
      `${ratio.subject} / ${ratio.baseline}`,
      formatRatio(ratio.requests_per_s),
      formatRatio(ratio.p50),
      formatRatio(ratio.p99),
      ...(withNotes ? [ratio.note ?? ''] : []),
    ]),
    ['left', 'right', 'right', 'right', 'left'],
  );
  const [header = '', rule = '', ...rows] = table.split('\n');
  const grouped = rows.flatMap((row, index) =>
    index > 0 && ratios[index]?.subject !== ratios[index - 1]?.subject ? ['', row] : [row],
  );
  return [header, rule, ...grouped].join('\n');
}

/** The failures and failed checks, one line each; empty when all is well. */
export function formatProblems(reports: readonly ScenarioReport[]): string[] {
  return reports.flatMap((report) => [
    ...(report.failure ? [`${report.name}: could not run: ${report.failure}`] : []),
    ...report.problems.map((problem) => `${report.name}: ${problem}`),
  ]);
}

/** Bytes as the figures say them: whole MiB or KiB when they are, else bytes. */
export function formatBytes(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} B`;
}

/** Figures as the table prints them: whole numbers from 100 up, one decimal below. */
export function formatFigure(value: number): string {
  return Math.abs(value) >= 100 ? Math.round(value).toString() : value.toFixed(1);
}

/**
 * The scenarios' own figures (MiB/s, a peak memory), one row each; null when no scenario
 * recorded one.
 */
export function formatFiguresTable(reports: readonly ScenarioReport[]): string | null {
  const rows = reports.flatMap((report) =>
    (report.figures ?? []).map((figure) => [
      report.name,
      figure.name,
      `${formatFigure(figure.value)} ${figure.unit}`,
      figure.note ?? '',
    ]),
  );
  if (rows.length === 0) return null;
  return renderTable(['scenario', 'figure', 'value', 'note'], rows, [
    'left',
    'left',
    'right',
    'left',
  ]);
}
