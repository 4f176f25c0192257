/** One sample line of a scrape: `name{label="value",…} value`. */
export interface PrometheusSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\[\\"n])*)"(?:,|(?=\}))/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);
const SUFFIXES = ['_bucket', '_count', '_sum', '_total', '_created', ''];

/**
 * Reads a scrape in the Prometheus text format (0.0.4) strictly: every line is a comment, a
 * `# HELP`/`# TYPE` of a valid name, or a sample of a family whose TYPE came first, with valid
 * label names, properly quoted values and a number. Throws on the first line that is not, so an
 * operator's check (or a test) learns that Prometheus would refuse the scrape.
 */
export function parsePrometheusText(text: string): PrometheusSample[] {
  const families = new Set<string>();
  const samples: PrometheusSample[] = [];
  for (const [index, line] of text.split('\n').entries()) {
    const fail = (why: string) => new Error(`line ${index + 1} ${why}: ${line}`);
    if (line.trim() === '') continue;
    if (line.startsWith('#')) {
      const [, keyword, name, ...rest] = line.split(' ');
      if (keyword !== 'HELP' && keyword !== 'TYPE') continue;
      if (name === undefined || !NAME.test(name)) throw fail('names no valid metric');
      if (keyword === 'TYPE') {
        if (!TYPES.has(rest.join(' '))) throw fail('has an unknown type');
        families.add(name);
      }
      continue;
    }
    const sample = parseSample(line, fail);
    const typed = SUFFIXES.some(
      (suffix) =>
        sample.name.endsWith(suffix) &&
        families.has(sample.name.slice(0, sample.name.length - suffix.length)),
    );
    if (!typed) throw fail('has no TYPE before it');
    samples.push(sample);
  }
  return samples;
}

function parseSample(line: string, fail: (why: string) => Error): PrometheusSample {
  const open = line.indexOf('{');
  const space = line.indexOf(' ');
  const nameEnd = open !== -1 && open < space ? open : space;
  if (nameEnd <= 0) throw fail('is not a sample');
  const name = line.slice(0, nameEnd);
  if (!NAME.test(name)) throw fail('has an invalid metric name');
  const labels: Record<string, string> = {};
  let rest = line.slice(nameEnd);
  if (rest.startsWith('{')) {
    rest = rest.slice(1);
    while (!rest.startsWith('}')) {
      const match = LABEL.exec(rest);
      if (!match) throw fail('has a malformed label');
      const [whole, key = '', value = ''] = match;
      if (key in labels) throw fail(`repeats the label ${key}`);
      labels[key] = value.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
      rest = rest.slice(whole.length);
      if (rest === '') throw fail('has unclosed labels');
    }
    rest = rest.slice(1);
  }
  const [value, timestamp, ...extra] = rest.trim().split(/\s+/);
  if (value === undefined || extra.length > 0) throw fail('is not `name{labels} value`');
  if (timestamp !== undefined && !/^-?\d+$/.test(timestamp)) throw fail('has a bad timestamp');
  const number = parseValue(value);
  if (number === undefined) throw fail('has no number');
  return { name, labels, value: number };
}

function parseValue(text: string): number | undefined {
  if (text === '+Inf') return Infinity;
  if (text === '-Inf') return -Infinity;
  if (text === 'NaN') return NaN;
  const value = Number(text);
  return text !== '' && !Number.isNaN(value) ? value : undefined;
}
