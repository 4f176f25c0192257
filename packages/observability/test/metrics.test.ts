import { afterAll, describe, expect, it } from '@jest/globals';
import { metrics } from '@opentelemetry/api';
import {
  durationHistogram,
  parsePrometheusText,
  renderMetrics,
  startTelemetry,
  stopTelemetry,
} from '../src/index.ts';

// Telemetry first, as `runMain` does: it names the resource the scrape's target_info carries.
startTelemetry({ service: 'metrics-test', version: '9.9.9' });
afterAll(() => stopTelemetry());

const histogram = durationHistogram('test.work.duration', 'Work the test did.');

describe('renderMetrics', () => {
  it('answers a scrape in the Prometheus text format, with the unit in the name', async () => {
    histogram().record(0.02, { 'work.kind': 'small' });
    histogram().record(3, { 'work.kind': 'large' });
    const text = await renderMetrics();
    const samples = parsePrometheusText(text);
    expect(text).toContain('# TYPE test_work_duration_seconds histogram');
    const count = samples.find(
      (s) => s.name === 'test_work_duration_seconds_count' && s.labels.work_kind === 'small',
    );
    expect(count?.value).toBe(1);
    // The semantic conventions' buckets: 0.02 s falls in le="0.025" and not in le="0.01".
    const bucket = (le: string) =>
      samples.find(
        (s) =>
          s.name === 'test_work_duration_seconds_bucket' &&
          s.labels.work_kind === 'small' &&
          s.labels.le === le,
      )?.value;
    expect(bucket('0.01')).toBe(0);
    expect(bucket('0.025')).toBe(1);
    expect(bucket('+Inf')).toBe(1);
    const target = samples.find((s) => s.name === 'target_info');
    expect(target?.labels).toMatchObject({
      service_name: 'metrics-test',
      service_version: '9.9.9',
    });
  });

  it('is the global provider, so any package can record with metrics.getMeter', async () => {
    metrics.getMeter('handoff').createCounter('test.global.calls').add(2);
    const samples = parsePrometheusText(await renderMetrics());
    expect(samples.find((s) => s.name === 'test_global_calls_total')?.value).toBe(2);
  });

  it('keeps recording after telemetry stops and starts again', async () => {
    await stopTelemetry();
    startTelemetry({ service: 'metrics-test', version: '9.9.9' });
    histogram().record(0.5, { 'work.kind': 'small' });
    const samples = parsePrometheusText(await renderMetrics());
    const count = samples.find(
      (s) => s.name === 'test_work_duration_seconds_count' && s.labels.work_kind === 'small',
    );
    expect(count?.value).toBe(2);
  });
});

describe('parsePrometheusText', () => {
  const typed = '# TYPE up gauge\n';

  it('reads samples, labels with escapes, and special values', () => {
    const samples = parsePrometheusText(
      '# HELP up Whether it is up.\n# UNIT up 1\n# TYPE up gauge\n' +
        'up{job="a\\"b",path="c\\\\d"} 1\nup 0 1700000000000\nup{x="y",} +Inf\n',
    );
    expect(samples).toEqual([
      { name: 'up', labels: { job: 'a"b', path: 'c\\d' }, value: 1 },
      { name: 'up', labels: {}, value: 0 },
      { name: 'up', labels: { x: 'y' }, value: Infinity },
    ]);
  });

  it.each([
    ['a sample with no TYPE before it', 'down 1'],
    ['an invalid metric name', `${typed}1up 1`],
    ['an unquoted label value', `${typed}up{job=a} 1`],
    ['unclosed labels', `${typed}up{job="a" 1`],
    ['a repeated label', `${typed}up{a="1",a="2"} 1`],
    ['labels without a comma between them', `${typed}up{a="1"b="2"} 1`],
    ['no value', `${typed}up{a="1"}`],
    ['a value that is no number', `${typed}up one`],
    ['an unknown type', '# TYPE up meter\nup 1'],
  ])('refuses %s', (_, text) => {
    expect(() => parsePrometheusText(text)).toThrow(/^line \d+ /);
  });
});
