/** One row of README.md's "### Metrics" table: a metric family as Prometheus names it. */
export interface ReadmeMetricFamily {
  /** The family's name, e.g. `handoff_webhook_attempts_total`. */
  name: string;
  /** The "Where" column: the processes that carry it, in words. */
  where: string;
  /** The "Labels (values)" column. */
  labels: string;
}

/**
 * The families of README.md's metrics table (the first table under `### Metrics`), so that tests
 * hold the code, the chart's alerts and dashboard, and the documentation to one list. Throws when
 * the section or its table is missing, or a row is not `| \`name\` | where | labels |`.
 */
export function readmeMetricFamilies(readme: string): ReadmeMetricFamily[] {
  const lines = readme.split('\n');
  const heading = lines.findIndex((line) => line.trim() === '### Metrics');
  if (heading === -1) throw new Error('README.md has no "### Metrics" section');
  const start = lines.findIndex((line, index) => index > heading && line.startsWith('|'));
  if (start === -1) throw new Error('README.md\'s "### Metrics" section has no table');
  const families: ReadmeMetricFamily[] = [];
  // The header, then the `| --- |` separator, then one family per row until the table ends.
  for (let index = start + 2; lines[index]?.startsWith('|') === true; index += 1) {
    const row = lines[index] ?? '';
    const cells = row
      .slice(1, row.trimEnd().endsWith('|') ? row.trimEnd().length - 1 : undefined)
      .split(' | ')
      .map((cell) => cell.trim());
    const name = /^`([a-zA-Z_:][a-zA-Z0-9_:]*)`$/.exec(cells[0] ?? '')?.[1];
    if (name === undefined || cells.length !== 3) {
      throw new Error(`README.md metrics table: not \`| \\\`name\\\` | where | labels |\`: ${row}`);
    }
    families.push({ name, where: cells[1] ?? '', labels: cells[2] ?? '' });
  }
  if (families.length === 0) throw new Error("README.md's metrics table has no rows");
  return families;
}
