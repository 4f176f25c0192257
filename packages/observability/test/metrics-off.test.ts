// METRICS=off, the switch that measures what metrics cost: nothing is recorded, the global meter
// provider stays OpenTelemetry's no-op one, and a scrape gets an exposition without a sample.
// A file of its own: the choice is made once per process (per test file), at the first start.
import { afterAll, describe, expect, it } from '@jest/globals';
import { metrics } from '@opentelemetry/api';
import {
  durationHistogram,
  handoffMeter,
  lazyCounter,
  metricsEnabled,
  METRICS_OFF_EXPOSITION,
  parsePrometheusText,
  renderMetrics,
  startTelemetry,
  stopTelemetry,
} from '../src/index.ts';

const before = process.env.METRICS;
process.env.METRICS = 'off';
startTelemetry({ service: 'metrics-off-test', version: '9.9.9' });
afterAll(async () => {
  await stopTelemetry();
  if (before === undefined) delete process.env.METRICS;
  else process.env.METRICS = before;
});

describe('METRICS', () => {
  it('is on unless it says off, and refuses anything else', () => {
    expect(metricsEnabled({})).toBe(true);
    expect(metricsEnabled({ METRICS: '' })).toBe(true);
    expect(metricsEnabled({ METRICS: 'on' })).toBe(true);
    expect(metricsEnabled({ METRICS: 'off' })).toBe(false);
    for (const typo of ['false', '0', 'OFF', 'no']) {
      expect(() => metricsEnabled({ METRICS: typo })).toThrow(
        `METRICS must be "on" or "off", not "${typo}"`,
      );
    }
  });

  it('off: records nothing, and a scrape is a valid exposition without a sample', async () => {
    durationHistogram('test.off.duration', 'Never recorded.')().record(0.2, { 'work.kind': 'x' });
    lazyCounter('test.off.calls', 'Never counted.')().add(3);
    handoffMeter()
      .createObservableGauge('test.off.gauge')
      .addCallback((result) => result.observe(1));
    metrics.getMeter('handoff').createCounter('test.off.global').add(1);

    const text = await renderMetrics();
    expect(text).toBe(METRICS_OFF_EXPOSITION);
    expect(text).toMatch(/^# .*METRICS=off/);
    expect(parsePrometheusText(text)).toEqual([]);
  });

  it('off: the global meter provider is not an SDK one (no reader, nothing kept)', () => {
    // The SDK's MeterProvider has forceFlush and shutdown; the API's no-op provider has neither.
    const provider = metrics.getMeterProvider() as unknown as Record<string, unknown>;
    expect(typeof provider.forceFlush).toBe('undefined');
    expect(typeof provider.shutdown).toBe('undefined');
  });
});
