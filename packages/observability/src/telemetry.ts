import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
  type SpanContext,
} from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { NodeSDK } from '@opentelemetry/sdk-node';
import type { SpanProcessor } from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import { startMetrics } from './metrics.ts';

export { SpanKind, SpanStatusCode } from '@opentelemetry/api';
export type { Context as TraceContext, Span, SpanContext } from '@opentelemetry/api';

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
 * Starts the OpenTelemetry SDK once per process. Spans are exported over OTLP only when an
 * endpoint (`OTEL_EXPORTER_OTLP_ENDPOINT`, or the traces' own `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`)
 * or `OTEL_TRACES_EXPORTER` is set, so a laptop without a collector does not log export errors.
 * It names the metrics' resource (`startMetrics`).
 */
export function startTelemetry(config: TelemetryConfig): void {
  startMetrics({ service: config.service, version: config.version });
  if (sdk) return;
  const { OTEL_TRACES_EXPORTER, OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT } =
    process.env;
  if (
    !OTEL_TRACES_EXPORTER &&
    !OTEL_EXPORTER_OTLP_ENDPOINT &&
    !OTEL_EXPORTER_OTLP_TRACES_ENDPOINT
  ) {
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

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  /** The context the span is a child of; the active one when unset. */
  parent?: Context;
  /** Span contexts the span is linked to (work it follows from without being part of it). */
  links?: readonly SpanContext[];
}

/** Runs `fn` inside a new span, marking it failed when `fn` throws. */
export async function withSpan<T>(
  name: string,
  options: SpanOptions,
  fn: (span: Span) => Promise<T>,
): Promise<T> {
  const parent = options.parent ?? context.active();
  return tracer().startActiveSpan(
    name,
    {
      kind: options.kind ?? SpanKind.INTERNAL,
      attributes: options.attributes ?? {},
      ...(options.links ? { links: options.links.map((linked) => ({ context: linked })) } : {}),
    },
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

/**
 * The W3C `traceparent` (and `tracestate`, when there is one) of the active span, to keep with
 * work that is done later or elsewhere (an outbox message, a queued delivery) so that it joins
 * the trace of the call that caused it. Undefined while spans are not recorded
 * ({@link tracesRecorded}): keeping them then costs nothing.
 */
export function activeTraceHeaders(): Record<string, string> | undefined {
  if (!recording) return undefined;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ? carrier : undefined;
}

/**
 * The trace context a kept `traceparent` names, on the root context (not on whatever is active),
 * so that work done later for a message or a job joins the trace that caused it and no other;
 * the root context when there is none.
 */
export function traceContextOf(traceparent: string | undefined, tracestate?: string): Context {
  if (!traceparent) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, undefined, {
    get: (_carrier, key) =>
      key === 'traceparent' ? traceparent : key === 'tracestate' ? tracestate : undefined,
    keys: () => ['traceparent', 'tracestate'],
  });
}

/** The span context that `ctx` carries (a remote parent extracted from headers, or a span). */
export function spanContextOf(ctx: Context): SpanContext | undefined {
  return trace.getSpanContext(ctx);
}

/** Runs `fn` with `ctx` active, so the spans it starts (database calls…) are children of it. */
export function withinContext<T>(ctx: Context, fn: () => T): T {
  return context.with(ctx, fn);
}

export function activeTraceId(): string | undefined {
  return trace.getActiveSpan()?.spanContext().traceId;
}
