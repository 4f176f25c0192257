import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { durationHistogram, parsePrometheusText } from '@handoff/observability';
import { startHealthServer, type HealthServer } from '../src/health-server.ts';

let ready = true;
let failing = false;
let probes = 0;
let health: HealthServer;

beforeAll(async () => {
  health = await startHealthServer(0, async () => {
    probes += 1;
    if (failing) throw new Error('probe broke');
    return { ok: ready, body: { status: ready ? 'ready' : 'not_ready', checks: { nats: 'up' } } };
  });
});
afterAll(() => health.close());

const get = (path: string, init?: RequestInit) =>
  fetch(`http://127.0.0.1:${health.port}${path}`, init);

describe('health server', () => {
  it('listens on a free port when asked for port 0', () => {
    expect(health.port).toBeGreaterThan(0);
  });

  it('/healthz says ok with the memory the process holds, without asking the probe', async () => {
    const before = probes;
    const res = await get('/healthz');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = (await res.json()) as { status: string; memory: Record<string, number> };
    expect(body.status).toBe('ok');
    expect(Object.keys(body.memory).sort()).toEqual([
      'array_buffers_bytes',
      'external_bytes',
      'heap_total_bytes',
      'heap_used_bytes',
      'rss_bytes',
    ]);
    for (const value of Object.values(body.memory)) {
      expect(Number.isSafeInteger(value)).toBe(true);
      expect(value).toBeGreaterThanOrEqual(0);
    }
    expect(body.memory.heap_used_bytes).toBeGreaterThan(0);
    expect(body.memory.heap_used_bytes).toBeLessThanOrEqual(body.memory.heap_total_bytes ?? 0);
    expect(body.memory.heap_total_bytes).toBeLessThan(body.memory.rss_bytes ?? 0);
    expect(probes).toBe(before);
  });

  it('/healthz reads the memory afresh on each call', async () => {
    type Memory = { memory: { heap_used_bytes: number } };
    const first = (await (await get('/healthz')).json()) as Memory;
    // Kept until the second read, so the heap it sees cannot be the same.
    const held = Array.from({ length: 200_000 }, (_, index) => ({ index }));
    const second = (await (await get('/healthz')).json()) as Memory;
    expect(second.memory.heap_used_bytes).not.toBe(first.memory.heap_used_bytes);
    expect(held).toHaveLength(200_000);
  });

  it('/readyz answers what the probe says: 200 when ready, 503 when not', async () => {
    ready = true;
    const up = await get('/readyz?verbose=1');
    expect(up.status).toBe(200);
    expect(await up.json()).toEqual({ status: 'ready', checks: { nats: 'up' } });
    ready = false;
    const down = await get('/readyz');
    expect(down.status).toBe(503);
    expect(await down.json()).toEqual({ status: 'not_ready', checks: { nats: 'up' } });
    ready = true;
  });

  it('/readyz is 503 not_ready when the probe itself fails', async () => {
    failing = true;
    try {
      const res = await get('/readyz');
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ status: 'not_ready' });
    } finally {
      failing = false;
    }
  });

  it('answers HEAD without a body, refuses other methods and unknown paths', async () => {
    const head = await get('/healthz', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const post = await get('/healthz', { method: 'POST' });
    expect(post.status).toBe(405);
    expect(await post.json()).toEqual({ status: 'method_not_allowed' });
    const missing = await get('/varz');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ status: 'not_found' });
  });

  it('/metrics answers the process metrics as Prometheus text, without asking the probe', async () => {
    durationHistogram('test.probe.duration', 'A probe the test timed.')().record(0.2);
    const before = probes;
    const res = await get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const samples = parsePrometheusText(await res.text());
    expect(samples.find((s) => s.name === 'test_probe_duration_seconds_count')?.value).toBe(1);
    expect(probes).toBe(before);
    const head = await get('/metrics', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect((await get('/metrics', { method: 'POST' })).status).toBe(405);
  });

  it('counts its own requests by route, every other path as unmatched, never the path', async () => {
    await get('/readyz');
    await get('/no/such/path/req_01abc');
    const samples = parsePrometheusText(await (await get('/metrics')).text());
    const counted = samples.filter((s) => s.name === 'http_server_request_duration_seconds_count');
    const count = (route: string, status: string) =>
      counted.find(
        (s) =>
          s.labels.http_route === route &&
          s.labels.http_request_method === 'GET' &&
          s.labels.http_response_status_code === status,
      )?.value ?? 0;
    expect(count('/readyz', '200')).toBeGreaterThanOrEqual(1);
    expect(count('unmatched', '404')).toBeGreaterThanOrEqual(1);
    expect(
      counted.map((s) => s.labels.http_route).filter((route) => route?.includes('req_')),
    ).toEqual([]);
  });

  it('stops answering once closed', async () => {
    const other = await startHealthServer(0, async () => ({ ok: true, body: {} }));
    const url = `http://127.0.0.1:${other.port}/healthz`;
    expect((await fetch(url)).status).toBe(200);
    await other.close();
    await expect(fetch(url)).rejects.toThrow();
  });
});
