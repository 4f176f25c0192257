import { describe, expect, it } from '@jest/globals';
import {
  formatMs,
  formatProblems,
  formatRate,
  formatRatio,
  formatRatiosTable,
  formatResultsTable,
  renderTable,
} from '../src/format.ts';
import type { ScenarioReport, Stats } from '../src/types.ts';

const STATS: Stats = {
  requests_per_s: 12_345.67,
  p50_ms: 1.234,
  p99_ms: 10.5,
  mean_ms: 2,
  max_ms: 20,
  count: 123_456,
  errors: 0,
  non2xx: 0,
  elapsed_s: 10,
  status_codes: { '200': 123_456 },
};

const report = (name: string, overrides: Partial<ScenarioReport> = {}): ScenarioReport => ({
  name,
  description: name,
  stats: STATS,
  failure: null,
  problems: [],
  ...overrides,
});

describe('renderTable', () => {
  it('pads every column to its widest cell and aligns as asked', () => {
    const table = renderTable(
      ['name', 'n'],
      [
        ['a', '1'],
        ['longer', '100'],
      ],
      ['left', 'right'],
    );
    expect(table.split('\n')).toEqual(['name      n', '------  ---', 'a         1', 'longer  100']);
  });
});

describe('number formats', () => {
  it('rounds rates, ms and ratios for reading', () => {
    expect(formatRate(12_345.67)).toBe('12346');
    expect(formatRate(42.25)).toBe('42.3');
    expect(formatMs(1.234)).toBe('1.23');
    expect(formatRatio(0.1234)).toBe('0.123x');
    expect(formatRatio(0.05)).toBe('0.050x');
    // Small ones keep three significant digits rather than turning into 0.001x or 0.000x.
    expect(formatRatio(0.00128)).toBe('0.00128x');
    expect(formatRatio(0.0000456)).toBe('0.0000456x');
    expect(formatRatio(0)).toBe('0.000x');
    expect(formatRatio(null)).toBe('n/a');
  });
});

describe('formatResultsTable', () => {
  it('has one row per scenario with rate, p50, p99, count, errors and non-2xx', () => {
    const lines = formatResultsTable([
      report('express-bare'),
      report('gateway-readyz', {
        problems: ['3 response(s) were not 200'],
        stats: { ...STATS, non2xx: 3 },
      }),
      report('mongo-insert-one', { stats: null, failure: 'no server' }),
    ]).split('\n');
    expect(lines[0]?.split(/\s+/)).toEqual([
      'scenario',
      'req/s',
      'p50',
      'ms',
      'p99',
      'ms',
      'count',
      'errors',
      'non-2xx',
      'check',
    ]);
    expect(lines[2]?.split(/\s+/)).toEqual([
      'express-bare',
      '12346',
      '1.23',
      '10.50',
      '123456',
      '0',
      '0',
      'ok',
    ]);
    expect(lines[3]).toMatch(/^gateway-readyz .* 3 {2}CHECK FAILED$/);
    expect(lines[4]).toMatch(/^mongo-insert-one\s+FAILED$/);
    // Every row is as wide as the header row, up to the last (left-aligned) column.
    const checkColumn = lines[0]?.indexOf('check');
    expect(lines[2]?.indexOf('ok')).toBe(checkColumn);
  });
});

describe('formatRatiosTable and formatProblems', () => {
  it('shows subject / baseline and each ratio', () => {
    const table = formatRatiosTable([
      {
        subject: 'gateway-readyz',
        baseline: 'express-bare',
        requests_per_s: 0.05,
        p50: 20,
        p99: null,
      },
    ]);
    expect(table.split('\n')[2]?.split(/\s+/)).toEqual([
      'gateway-readyz',
      '/',
      'express-bare',
      '0.050x',
      '20.000x',
      'n/a',
    ]);
  });

  it('puts a blank line between subjects, and notes in a last column when there are any', () => {
    const ratio = (subject: string, baseline: string, note?: string) => ({
      subject,
      baseline,
      ...(note === undefined ? {} : { note }),
      requests_per_s: 0.5,
      p50: 2,
      p99: 3,
    });
    const lines = formatRatiosTable([
      ratio('a', 'x'),
      ratio('a', 'y', '3 bus calls'),
      ratio('b', 'x'),
    ]).split('\n');
    expect(lines[0]?.split(/\s+/)).toEqual(['ratio', 'req/s', 'p50', 'p99', 'note']);
    expect(lines.slice(2).map((line) => line.split(/\s+/))).toEqual([
      ['a', '/', 'x', '0.500x', '2.000x', '3.000x'],
      ['a', '/', 'y', '0.500x', '2.000x', '3.000x', '3', 'bus', 'calls'],
      [''],
      ['b', '/', 'x', '0.500x', '2.000x', '3.000x'],
    ]);
    expect(lines[3]?.indexOf('3 bus calls')).toBe(lines[0]?.indexOf('note'));
  });

  it('lists failures and failed checks by scenario', () => {
    expect(
      formatProblems([
        report('a'),
        report('b', { stats: null, failure: 'no server' }),
        report('c', { problems: ['2 error(s)'] }),
      ]),
    ).toEqual(['b: could not run: no server', 'c: 2 error(s)']);
  });
});
