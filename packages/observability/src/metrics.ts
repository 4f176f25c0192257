import {
  createNoopMeter,
  metrics,
  type Counter,
  type Histogram,
  type Meter,
} from '@opentelemetry/api';
import { PrometheusExporter, PrometheusSerializer } from '@opentelemetry/exporter-prometheus';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';

export type { Attributes, Counter, Histogram } from '@opentelemetry/api';

/** What a Prometheus scrape accepts: the text exposition format. */
export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/**
 * The bucket boundaries (seconds) OpenTelemetry's semantic conventions advise for HTTP and
 * messaging durations, so that dashboards and alerts read the same buckets everywhere.
 */
export const DURATION_BUCKETS_S = [
  0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10,
];

/**
 * What `/metrics` answers with METRICS=off: a valid exposition without a sample, so that a
 * scrape still succeeds (the target stays up, no alert on a failed scrape) and says why it is empty.
 */
export const METRICS_OFF_EXPOSITION = '# metrics are off in this process (METRICS=off)\n';

/**
 * METRICS: `on` (the default, also when empty) or `off`, which records nothing at all, to
 * measure what metrics cost: the global meter provider stays OpenTelemetry's no-op one, every
 * instrument is a no-op, and `/metrics` answers {@link METRICS_OFF_EXPOSITION}. Anything else
 * is refused, so that a typo (`false`, `0`) does not leave them on unnoticed.
 */
export function metricsEnabled(env: Record<string, string | undefined> = process.env): boolean {
  const value = env.METRICS || 'on';
  if (value === 'on') return true;
  if (value === 'off') return false;
  throw new Error(`METRICS must be "on" or "off", not "${value}"`);
}

let started: { provider: MeterProvider; reader: PrometheusExporter } | 'off' | undefined;
const serializer = new PrometheusSerializer();

/**
 * Creates the process's one MeterProvider, read by a Prometheus exporter that opens no server of
 * its own (the health port serves `/metrics`), and registers it globally, so any package's
 * `metrics.getMeter('handoff')` records into it. It lives as long as the process: a pull reader
 * has nothing to flush, and a test that stops and starts telemetry keeps its instruments.
 * The first call names the resource; `startTelemetry` makes it before the services record.
 * With METRICS=off (read at that first call) it makes nothing and answers undefined.
 */
export function startMetrics(service?: { service: string; version: string }) {
  if (started === 'off') return undefined;
  if (started) return started;
  if (!metricsEnabled()) {
    started = 'off';
    return undefined;
  }
  const reader = new PrometheusExporter({ preventServerStart: true });
  const provider = new MeterProvider({
    resource: resourceFromAttributes(
      service
        ? { [ATTR_SERVICE_NAME]: service.service, [ATTR_SERVICE_VERSION]: service.version }
        : {},
    ),
    readers: [reader],
  });
  metrics.setGlobalMeterProvider(provider);
  started = { provider, reader };
  return started;
}

/** The `handoff` meter of the process's provider (made on first use); a no-op one with METRICS=off. */
export function handoffMeter(): Meter {
  return startMetrics()?.provider.getMeter('handoff') ?? createNoopMeter();
}

/**
 * A duration histogram in seconds, made on first use: instruments made before the provider
 * would be no-ops for good, and making them late lets `startTelemetry` name the resource first.
 */
export function durationHistogram(name: string, description: string): () => Histogram {
  let histogram: Histogram | undefined;
  return () =>
    (histogram ??= handoffMeter().createHistogram(name, {
      description,
      unit: 's',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS_S },
    }));
}

/** A counter, made on first use like {@link durationHistogram}; `unit` as UCUM, e.g. `{email}`. */
export function lazyCounter(name: string, description: string, unit?: string): () => Counter {
  let counter: Counter | undefined;
  return () =>
    (counter ??= handoffMeter().createCounter(name, {
      description,
      ...(unit === undefined ? {} : { unit }),
    }));
}

/** Every metric of the process in the Prometheus text format, as a scrape reads it. */
export async function renderMetrics(): Promise<string> {
  const running = startMetrics();
  if (!running) return METRICS_OFF_EXPOSITION;
  const { resourceMetrics } = await running.reader.collect();
  return serializer.serialize(withUnitSuffixes(resourceMetrics));
}

/**
 * Prometheus names carry their unit (`http_server_request_duration_seconds`), as the
 * OpenTelemetry-to-Prometheus compatibility rules say; the serializer leaves it out.
 */
const UNIT_SUFFIXES: Record<string, string> = { s: 'seconds', ms: 'milliseconds', By: 'bytes' };

function withUnitSuffixes(resourceMetrics: ResourceMetrics): ResourceMetrics {
  return {
    ...resourceMetrics,
    scopeMetrics: resourceMetrics.scopeMetrics.map((scope) => ({
      ...scope,
      metrics: scope.metrics.map((metric) => {
        const suffix = UNIT_SUFFIXES[metric.descriptor.unit];
        if (suffix === undefined || metric.descriptor.name.endsWith(`_${suffix}`)) return metric;
        return {
          ...metric,
          descriptor: { ...metric.descriptor, name: `${metric.descriptor.name}_${suffix}` },
        };
      }),
    })),
  };
}
