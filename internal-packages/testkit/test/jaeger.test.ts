// A real Jaeger (v2, in memory) from the testkit: a span exported over OTLP/HTTP by the same
// OpenTelemetry SDK and exporter the services use (@handoff/observability's startTelemetry with
// OTEL_EXPORTER_OTLP_ENDPOINT) is read back from its query API.
import { afterAll, describe, expect, it } from '@jest/globals';
import { startTelemetry, stopTelemetry, withSpan } from '@handoff/observability';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  eventually,
  jaegerClient,
  startJaeger,
  JaegerUnavailableError,
  type Jaeger,
} from '../src/index.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'handoff-jaeger-'));
const started: Jaeger[] = [];

afterAll(async () => {
  await stopTelemetry();
  await Promise.all(started.map((jaeger) => jaeger.stop()));
  rmSync(dataDir, { recursive: true, force: true });
});

describe('jaeger', () => {
  it('takes a span over OTLP/HTTP and answers it on its query API', async () => {
    const jaeger = await startJaeger({ dataDir: join(dataDir, 'one') });
    started.push(jaeger);
    expect(jaeger.otlpHttpUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(jaeger.queryUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // Its configuration: in-memory storage, its own telemetry off (no fixed :8888 to collide on).
    const config = readFileSync(join(dataDir, 'one', 'jaeger.yaml'), 'utf8');
    expect(config).toMatch(/memory:\n\s+max_traces: 100000/);
    expect(config).toMatch(/metrics:\n\s+level: none/);

    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = jaeger.otlpHttpUrl;
    startTelemetry({ service: 'testkit-jaeger', version: '1.2.3' });
    const traceId = await withSpan(
      'testkit.jaeger.check',
      { attributes: { 'handoff.check': 'read back' } },
      async (span) => span.spanContext().traceId,
    );
    // Shutting the SDK down flushes its batch of spans to Jaeger.
    await stopTelemetry();
    delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;

    const client = jaegerClient(jaeger.queryUrl);
    // Jaeger's own batch processor writes it to the store shortly after taking it.
    const trace = await eventually(() => client.trace(traceId), {
      timeoutMs: 60_000,
      intervalMs: 200,
      what: `trace ${traceId} in Jaeger`,
    });
    expect(trace.traceID).toBe(traceId);
    expect(trace.spans).toHaveLength(1);
    const [span] = trace.spans;
    expect(span?.operationName).toBe('testkit.jaeger.check');
    expect(span?.tags).toContainEqual(
      expect.objectContaining({ key: 'handoff.check', value: 'read back' }),
    );
    expect(span && client.serviceOf(trace, span)).toBe('testkit-jaeger');
    expect(await client.services()).toContain('testkit-jaeger');
    const found = await client.search({ service: 'testkit-jaeger', sinceMs: Date.now() - 600_000 });
    expect(found.map((t) => t.traceID)).toContain(traceId);
    // A trace it never took is not there.
    expect(await client.trace('0123456789abcdef0123456789abcdef')).toBeUndefined();
  });

  it('runs two at once, each on ports of its own, and stops', async () => {
    const [a, b] = await Promise.all([
      startJaeger({ dataDir: join(dataDir, 'a') }),
      startJaeger({ dataDir: join(dataDir, 'b') }),
    ]);
    const ports = [a, b].flatMap((jaeger) =>
      [jaeger.otlpHttpUrl, jaeger.otlpGrpcUrl, jaeger.queryUrl].map((url) => new URL(url).port),
    );
    expect(new Set(ports).size).toBe(6);
    await Promise.all([a.stop(), b.stop()]);
    await expect(fetch(`${a.queryUrl}/api/services`)).rejects.toThrow();
  });

  it('fails with instructions, never skips, when the binary is missing (also under CI)', async () => {
    const none = { dataDir: join(dataDir, 'none'), env: { CI: 'true' }, binDirs: [] };
    await expect(startJaeger(none)).rejects.toThrow(JaegerUnavailableError);
    await expect(startJaeger(none)).rejects.toThrow(
      /Jaeger is not available: no jaeger binary in the given folders \(CI\)[\s\S]*npm run setup[\s\S]*jaegertracing\/jaeger@v1\.75\.0/,
    );
  });
});
