import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { join } from 'node:path';
import { canConnect, freePort } from './ports.ts';
import { findBinary, stopper, waitForPort } from './servers.ts';

/** The Jaeger release that `npm run setup` builds (keep in step with scripts/setup.sh). */
export const JAEGER_VERSION = 'v1.75.0';

/** A running Jaeger (v2: the OTel-collector-based `jaeger` binary) keeping traces in memory. */
export interface Jaeger {
  /**
   * Where services export spans over OTLP/HTTP: `http://127.0.0.1:<port>`, the value of
   * `OTEL_EXPORTER_OTLP_ENDPOINT` (the exporters add `/v1/traces`).
   */
  otlpHttpUrl: string;
  /** The same receiver over OTLP/gRPC: `http://127.0.0.1:<port>`. */
  otlpGrpcUrl: string;
  /** Its UI and HTTP query API (`/api/traces/{traceId}`, `/api/services`): `http://127.0.0.1:<port>`. */
  queryUrl: string;
  source: 'binary';
  stop(): Promise<void>;
}

export interface JaegerOptions {
  /** Where its configuration and log go (its traces stay in memory and die with it). */
  dataDir: string;
  /** Fixed ports (a restart on the same addresses); free ones when omitted. */
  otlpHttpPort?: number;
  otlpGrpcPort?: number;
  queryPort?: number;
  /** Traces kept before the oldest are dropped. Default 100 000. */
  maxTraces?: number;
  /** Only `CI` is read from here (for the error's wording); `process.env` by default. */
  env?: Record<string, string | undefined>;
  binDirs?: readonly string[];
  /**
   * Its scheduling priority (`nice`, -20 to 19). A bench passes 19, the lowest, so that Jaeger,
   * which in production runs on machines of its own, takes only the CPU the services leave.
   */
  priority?: number;
}

const HOW_TO_GET_IT = [
  'Handoff needs Jaeger (github.com/jaegertracing/jaeger), where its traces are read back locally.',
  'Any one of these provides it:',
  `  1. run \`npm run setup\`, which builds jaeger ${JAEGER_VERSION} into .tools/bin with Go;`,
  `  2. \`go mod download github.com/jaegertracing/jaeger@${JAEGER_VERSION}\`, then \`go build ./cmd/jaeger\``,
  '     in the downloaded module (go install refuses it: its go.mod has a replace directive), and',
  '     put the binary on PATH.',
].join('\n');

export class JaegerUnavailableError extends Error {
  constructor(detail: string) {
    super(`Jaeger is not available: ${detail}\n${HOW_TO_GET_IT}`);
    this.name = 'JaegerUnavailableError';
  }
}

/** The ports one Jaeger listens on; every one is its own, so two run side by side. */
interface JaegerPorts {
  otlpHttp: number;
  otlpGrpc: number;
  queryHttp: number;
  queryGrpc: number;
}

/**
 * Jaeger v2's configuration: an OTLP receiver, in-memory storage and the query extension (UI and
 * API), all on loopback. Its own telemetry is off: the collector's default would serve metrics
 * on :8888, which a second Jaeger (or anything else) could not share.
 */
export function jaegerConfig(ports: JaegerPorts, maxTraces = 100_000): string {
  return `service:
  extensions: [jaeger_storage, jaeger_query]
  pipelines:
    traces:
      receivers: [otlp]
      processors: [batch]
      exporters: [jaeger_storage_exporter]
  telemetry:
    metrics:
      level: none
    logs:
      level: info

extensions:
  jaeger_storage:
    backends:
      memstore:
        memory:
          max_traces: ${maxTraces}
  jaeger_query:
    storage:
      traces: memstore
    # Otherwise it traces its own queries into the store it serves.
    enable_tracing: false
    http:
      endpoint: 127.0.0.1:${ports.queryHttp}
    grpc:
      endpoint: 127.0.0.1:${ports.queryGrpc}

receivers:
  otlp:
    protocols:
      http:
        endpoint: 127.0.0.1:${ports.otlpHttp}
      grpc:
        endpoint: 127.0.0.1:${ports.otlpGrpc}

processors:
  batch:

exporters:
  jaeger_storage_exporter:
    trace_storage: memstore
`;
}

/**
 * Starts Jaeger on loopback with in-memory storage, resolved once the collector says it is
 * ready and both its OTLP receiver and its query API listen. A missing binary fails with
 * instructions, on CI and everywhere else: a trace test never skips.
 */
export async function startJaeger(options: JaegerOptions): Promise<Jaeger> {
  const env = options.env ?? process.env;
  const binary = await findBinary(['jaeger'], options.binDirs);
  if (!binary) {
    throw new JaegerUnavailableError(
      `no jaeger binary in ${options.binDirs ? 'the given folders' : '.tools/bin or on PATH'}${env.CI === 'true' ? ' (CI)' : ''}.`,
    );
  }
  const ports: JaegerPorts = {
    otlpHttp: options.otlpHttpPort ?? (await freePort()),
    otlpGrpc: options.otlpGrpcPort ?? (await freePort()),
    queryHttp: options.queryPort ?? (await freePort()),
    queryGrpc: await freePort(),
  };
  mkdirSync(options.dataDir, { recursive: true });
  const configFile = join(options.dataDir, 'jaeger.yaml');
  writeFileSync(configFile, jaegerConfig(ports, options.maxTraces));
  const child = spawn(binary, ['--config', configFile], { stdio: ['ignore', 'pipe', 'pipe'] });
  if (options.priority !== undefined && child.pid !== undefined) {
    setPriority(child.pid, options.priority);
  }
  // A test process that dies without stopping it must not leave it running.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.removeListener('exit', killOnExit));
  try {
    // The collector starts its extensions (the query port) before its receivers; this line
    // comes once all of them are up.
    await waitForPort('jaeger', child, ports.queryHttp, options.dataDir, /Everything is ready/);
    if (!(await canConnect(ports.otlpHttp))) {
      throw new Error(`jaeger said it was ready, but nothing listens on ${ports.otlpHttp}`);
    }
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    otlpHttpUrl: `http://127.0.0.1:${ports.otlpHttp}`,
    otlpGrpcUrl: `http://127.0.0.1:${ports.otlpGrpc}`,
    queryUrl: `http://127.0.0.1:${ports.queryHttp}`,
    source: 'binary',
    stop: stopper(child),
  };
}

/** A span as Jaeger's query API (`/api/traces/{id}`) answers it. */
export interface JaegerSpan {
  traceID: string;
  spanID: string;
  operationName: string;
  references: { refType: 'CHILD_OF' | 'FOLLOWS_FROM'; traceID: string; spanID: string }[];
  /** Microseconds since the epoch. */
  startTime: number;
  /** Microseconds. */
  duration: number;
  tags: { key: string; type: string; value: unknown }[];
  /** A key of the trace's `processes`. */
  processID: string;
}

export interface JaegerTrace {
  traceID: string;
  spans: JaegerSpan[];
  processes: Record<string, { serviceName: string; tags: { key: string; value: unknown }[] }>;
}

/** A client of Jaeger's HTTP query API, for tests and the bench. */
export function jaegerClient(queryUrl: string) {
  const api = async <T>(path: string): Promise<T | undefined> => {
    const res = await fetch(`${queryUrl}/api${path}`);
    if (res.status === 404) return undefined;
    if (!res.ok) throw new Error(`Jaeger GET ${path}: HTTP ${res.status}`);
    return ((await res.json()) as { data: T }).data;
  };
  return {
    /** The trace with this id (32 hex digits), or undefined while Jaeger has none of its spans. */
    trace: async (traceId: string): Promise<JaegerTrace | undefined> =>
      (await api<JaegerTrace[]>(`/traces/${encodeURIComponent(traceId)}`))?.[0],
    /**
     * Traces with a span of `service` that started since `sinceMs` (epoch milliseconds), the
     * newest first, at most `limit` (20) of them.
     */
    search: async (query: {
      service: string;
      sinceMs: number;
      operation?: string;
      limit?: number;
    }): Promise<JaegerTrace[]> => {
      const params = new URLSearchParams({
        service: query.service,
        start: String(Math.floor(query.sinceMs * 1_000)),
        end: String(Date.now() * 1_000),
        limit: String(query.limit ?? 20),
        ...(query.operation === undefined ? {} : { operation: query.operation }),
      });
      return (await api<JaegerTrace[]>(`/traces?${params.toString()}`)) ?? [];
    },
    /** The names of the services that have sent spans. */
    services: async (): Promise<string[]> => (await api<string[]>('/services')) ?? [],
    /** The service name of a span of `trace`. */
    serviceOf: (trace: JaegerTrace, span: JaegerSpan): string | undefined =>
      trace.processes[span.processID]?.serviceName,
  };
}

export type JaegerClient = ReturnType<typeof jaegerClient>;
