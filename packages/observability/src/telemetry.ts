import {
  context,
  propagation,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
} from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { NodeSDK } from '@opentelemetry/sdk-node';
import type { SpanProcessor } from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import { startMetrics } from './metrics.ts';

export { SpanKind } from '@opentelemetry/api';

export interface TelemetryConfig {
  service: string;
  version: string;
  /** Extra processors (tests pass an in-memory exporter). OTLP export follows the OTEL_* variables. */
  spanProcessors?: SpanProcessor[];
}

let sdk: NodeSDK | undefined;
let recording = false;

/**
 * Whether spans go anywhere (an OTLP exporter, or processors a test passed): when they do not,
 * work that only feeds spans (the database's command monitoring) is left undone.
 */
export function tracesRecorded(): boolean {
  return recording;
}

/**
 * Starts the OpenTelemetry SDK once per process. Spans are exported over OTLP only when
 * `OTEL_EXPORTER_OTLP_ENDPOINT` (or `OTEL_TRACES_EXPORTER`) is set, so a laptop without a
 * collector does not log export errors. It names the metrics' resource (`startMetrics`).
 */
export function startTelemetry(config: TelemetryConfig): void {
  startMetrics({ service: config.service, version: config.version });
  if (sdk) return;
  if (!process.env.OTEL_TRACES_EXPORTER && !process.env.OTEL_EXPORTER_OTLP_ENDPOINT) {
    process.env.OTEL_TRACES_EXPORTER = 'none';
  }
  recording =
    (config.spanProcessors?.length ?? 0) > 0 || process.env.OTEL_TRACES_EXPORTER !== 'none';
  process.env.OTEL_LOGS_EXPORTER ??= 'none';
  sdk = new NodeSDK({
    resource: resourceFromAttributes({
      [ATTR_SERVICE_NAME]: config.service,
      [ATTR_SERVICE_VERSION]: config.version,
    }),
    ...(config.spanProcessors ? { spanProcessors: config.spanProcessors } : {}),
    // The process's provider is `startMetrics`'s; OTEL_METRICS_EXPORTER would make a second one.
    metricReaders: [],
    instrumentations: [],
  });
  sdk.start();
}

export async function stopTelemetry(): Promise<void> {
  const running = sdk;
  sdk = undefined;
  recording = false;
  await running?.shutdown();
}

const tracer = () => trace.getTracer('handoff');

/** Runs `fn` inside a new span, marking it failed when `fn` throws. */
export async function withSpan<T>(
  name: string,
  options: { kind?: SpanKind; attributes?: Attributes; parent?: Context },
  fn: (span: Span) => Promise<T>,
): Promise<T> {
  const parent = options.parent ?? context.active();
  return tracer().startActiveSpan(
    name,
    { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes ?? {} },
    parent,
    async (span) => {
      try {
        return await fn(span);
      } catch (error) {
        span.recordException(error as Error);
        span.setStatus({ code: SpanStatusCode.ERROR });
        throw error;
      } finally {
        span.end();
      }
    },
  );
}

/** Starts a span that the caller ends (for work whose end is signalled by an event). */
export function startSpan(name: string, kind: SpanKind, attributes: Attributes = {}): Span {
  return tracer().startSpan(name, { kind, attributes }, context.active());
}

/** Writes the active trace context into a header carrier (W3C `traceparent`/`tracestate`). */
export function injectTraceContext(set: (key: string, value: string) => void): void {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  for (const [key, value] of Object.entries(carrier)) set(key, value);
}

/** Reads a trace context from a header carrier; the root context when there is none. */
export function extractTraceContext(get: (key: string) => string | undefined): Context {
  return propagation.extract(context.active(), undefined, {
    get: (_carrier, key) => get(key),
    keys: () => ['traceparent', 'tracestate'],
  });
}

export function activeTraceId(): string | undefined {
  return trace.getActiveSpan()?.spanContext().traceId;
}
