// The metric names a PromQL expression reads, for checking alert rules and dashboards against
// README.md's metrics table. Not a PromQL parser (promtool parses the rules): it drops what
// cannot name a metric (strings, label matchers, ranges, grouping label lists) and keeps the
// identifiers that are not function calls or keywords.

const KEYWORDS = new Set([
  'and',
  'or',
  'unless',
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'offset',
  'bool',
  'atan2',
  'inf',
  'nan',
]);

/** The metric names `expr` reads, as written (`x_bucket`, `y_total`), sorted and unique. */
export function metricNamesOf(expr: string): string[] {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const names = [...stripped.matchAll(/(?<![\w.$])[a-zA-Z_][a-zA-Z0-9_]*\b(?!\s*\()/g)]
    .map((match) => match[0])
    .filter((name) => !KEYWORDS.has(name.toLowerCase()));
  return [...new Set(names)].sort();
}

/** The suffixes Prometheus gives a histogram family's series. */
const HISTOGRAM_SERIES = ['_bucket', '_sum', '_count'];

/** The family a series name belongs to among `families`, or undefined when none. */
export function familyOf(name: string, families: ReadonlySet<string>): string | undefined {
  if (families.has(name)) return name;
  for (const suffix of HISTOGRAM_SERIES) {
    if (name.endsWith(suffix) && families.has(name.slice(0, -suffix.length))) {
      return name.slice(0, -suffix.length);
    }
  }
  return undefined;
}
