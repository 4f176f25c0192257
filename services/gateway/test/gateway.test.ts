import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { BACKEND_SERVICES } from '@handoff/contracts';
import { createLogger, startTelemetry, stopTelemetry } from '@handoff/observability';
import { natsEnv, eventually } from '@handoff/testkit';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { bootstrap } from '../src/bootstrap.ts';
import { useStack } from './support/stack.ts';

const spans = new InMemorySpanExporter();
const logLines: string[] = [];
const logger = createLogger({
  service: 'gateway',
  version: 'test',
  level: 'info',
  destination: new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  }),
});

/** The readiness details, which only staff see. */
async function staffHealth() {
  const res = await fetch(`${stack.gateway.url}/v1/staff/health`, {
    headers: { Authorization: `Bearer ${stack.staff}` },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as {
    status: string;
    services: Record<string, { status: string; error?: string }>;
  };
}

// Telemetry first, so that the services' spans reach the exporter too.
beforeAll(() => {
  startTelemetry({
    service: 'gateway-test',
    version: 'test',
    spanProcessors: [new SimpleSpanProcessor({ exporter: spans })],
  });
});
// One database for all: the services own distinct collections (see "collection ownership").
const stack = useStack('gateway', {
  oneDatabase: true,
  // Generous: a health reply on a loaded machine can take a second or more.
  gateway: { READINESS_TIMEOUT_MS: '5000' },
  loggers: { gateway: logger },
});
afterAll(() => stopTelemetry());

describe('gateway environment', () => {
  it('refuses a missing NATS_URL and a bad PORT, naming both', async () => {
    const failure = bootstrap({ env: { PORT: 'eighty' } });
    await expect(failure).rejects.toThrow(/NATS_URL: is required/);
    await expect(failure).rejects.toThrow(/PORT: must be a port number/);
  });

  it('refuses a staff JWT secret shorter than 256 bits', async () => {
    const env = { ...natsEnv('gateway'), STAFF_JWT_SECRET: 'too-short' };
    await expect(bootstrap({ env })).rejects.toThrow(/STAFF_JWT_SECRET: must be at least 32 bytes/);
  });
});

describe('probes', () => {
  it('/healthz answers while the process lives', async () => {
    const res = await fetch(`${stack.gateway.url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('/readyz says ready, and only staff see every backend service over the bus', async () => {
    const res = await fetch(`${stack.gateway.url}/readyz`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({ status: 'ready' });
    const body = await staffHealth();
    expect(body.status).toBe('ready');
    expect(Object.keys(body.services).sort()).toEqual([...BACKEND_SERVICES].sort());
    for (const entry of Object.values(body.services)) {
      expect(entry).toMatchObject({
        status: 'up',
        latency_ms: expect.any(Number),
        instance: expect.any(String),
      });
    }
  });
});

describe('the OpenAPI document', () => {
  it('is served at /v1/openapi.json exactly as committed', async () => {
    const res = await fetch(`${stack.gateway.url}/v1/openapi.json`);
    expect(res.status).toBe(200);
    const committed = JSON.parse(
      readFileSync(new URL('../openapi.json', import.meta.url), 'utf8'),
    ) as unknown;
    expect(await res.json()).toEqual(committed);
  });
});

describe('errors and request ids', () => {
  it('gives every response a Request-Id and keeps a well-formed incoming one', async () => {
    const fresh = await fetch(`${stack.gateway.url}/healthz`);
    expect(fresh.headers.get('request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await fetch(`${stack.gateway.url}/healthz`, {
      headers: { 'Request-Id': 'caller-chosen-id-123' },
    });
    expect(kept.headers.get('request-id')).toBe('caller-chosen-id-123');
    const replaced = await fetch(`${stack.gateway.url}/healthz`, {
      headers: { 'Request-Id': 'bad id\u00e9' },
    });
    expect(replaced.headers.get('request-id')).not.toBe('bad id\u00e9');
  });

  it('answers an unknown route with problem+json 404', async () => {
    const res = await fetch(`${stack.gateway.url}/v1/nowhere`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ status: 404, code: 'not_found', title: 'Not Found' });
    expect(body.request_id).toBe(res.headers.get('request-id'));
    expect(JSON.stringify(body)).not.toMatch(/at .*\.ts:\d+/);
  });

  it('answers a wrong method with 405 and Allow', async () => {
    const res = await fetch(`${stack.gateway.url}/readyz`, { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    expect(await res.json()).toMatchObject({ code: 'method_not_allowed' });
  });
});

describe('tracing', () => {
  it('joins the HTTP call, the bus requests, the services and their database calls in one trace', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    // Services ping the database at most once a second; wait so that this call's health checks do.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    spans.reset();
    const res = await fetch(`${stack.gateway.url}/readyz`, {
      headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
    });
    expect(res.status).toBe(200);
    const names = await eventually(
      () => {
        const inTrace = spans
          .getFinishedSpans()
          .filter((span) => span.spanContext().traceId === traceId);
        const found = inTrace.map((span) => span.name);
        return found.includes('GET /readyz') &&
          found.filter((n) => n.startsWith('ping')).length >= 5
          ? found
          : undefined;
      },
      { what: 'spans of the readiness call' },
    );
    expect(names).toEqual(
      expect.arrayContaining([
        'GET /readyz',
        'handoff.intake.health request',
        'handoff.intake.health process',
        'handoff.webhook-dispatcher.health process',
      ]),
    );
    const line = logLines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => l.trace_id === traceId);
    expect(line).toMatchObject({
      msg: 'request',
      path: '/readyz',
      status: 200,
      call_id: expect.any(String),
    });
  });
});

describe('a service going away', () => {
  it('is named as down by /readyz on the next probe', async () => {
    await stack.stopService('payments');
    const body = await eventually(
      async () => {
        const res = await fetch(`${stack.gateway.url}/readyz`);
        if (res.status !== 503) return undefined;
        expect(await res.json()).toEqual({ status: 'not_ready' });
        const report = await staffHealth();
        return report.services.payments?.status === 'down' ? report : undefined;
      },
      { timeoutMs: 30_000, what: 'payments reported down' },
    );
    expect(body.status).toBe('not_ready');
    expect(body.services.payments?.error).toMatch(/no responders|timed out/);
    expect(body.services.intake?.status).toBe('up');
  });
});

describe('collection ownership', () => {
  it('gives no two services the same collection name, since they may share a database', async () => {
    const plans = await Promise.all(
      BACKEND_SERVICES.map(
        async (name) =>
          [
            name,
            Object.keys((await import(`@handoff/${name}/collections`)).collections as object),
          ] as const,
      ),
    );
    const owners = new Map<string, string>();
    for (const [service, names] of plans) {
      for (const collection of names) {
        expect(owners.get(collection) ?? service).toBe(service);
        owners.set(collection, service);
      }
    }
    expect(owners.size).toBeGreaterThan(8);
  });
});
