import {
  PROMETHEUS_CONTENT_TYPE,
  recordHttpServerRequest,
  renderMetrics,
  UNMATCHED_ROUTE,
} from '@handoff/observability';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Probe = () => Promise<{ ok: boolean; body: Record<string, unknown> }>;

export interface HealthServer {
  port: number;
  close(): Promise<void>;
}

/**
 * The process's memory as V8 and the allocator see it. Only the process itself can read its heap
 * (RSS and descriptors are also in /proc), and a soak samples every process while it runs.
 */
export function memorySnapshot() {
  const usage = process.memoryUsage();
  return {
    rss_bytes: usage.rss,
    heap_used_bytes: usage.heapUsed,
    heap_total_bytes: usage.heapTotal,
    external_bytes: usage.external,
    array_buffers_bytes: usage.arrayBuffers,
  };
}

/** The paths the health port answers: its `http.route` values, with `unmatched`. */
const ROUTES = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * The Kubernetes probes of a service, on a port of their own that is never public: `/healthz`
 * says the process is alive (and how much memory it holds: probes ignore the body), `/readyz`
 * says it can serve (bus connected, database answering, not draining), `/metrics` is the
 * process's metrics for a Prometheus scrape. Its own requests count in
 * `http.server.request.duration` under those three routes (any other path `unmatched`), so a
 * probe that slows or fails shows there.
 */
export async function startHealthServer(port: number, ready: Probe): Promise<HealthServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const startedMs = performance.now();
    res.once('finish', () => {
      recordHttpServerRequest(
        ROUTES.has(path) ? path : UNMATCHED_ROUTE,
        req.method ?? '_OTHER',
        res.statusCode,
        (performance.now() - startedMs) / 1000,
      );
    });
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return send(405, { status: 'method_not_allowed' });
    if (path === '/healthz') return send(200, { status: 'ok', memory: memorySnapshot() });
    if (path === '/metrics') {
      renderMetrics().then(
        (text) => {
          res.writeHead(200, {
            'content-type': PROMETHEUS_CONTENT_TYPE,
            'cache-control': 'no-store',
          });
          res.end(text);
        },
        () => send(500, { status: 'metrics_failed' }),
      );
      return;
    }
    if (path === '/readyz') {
      ready().then(
        (result) => send(result.ok ? 200 : 503, result.body),
        () => send(503, { status: 'not_ready' }),
      );
      return;
    }
    send(404, { status: 'not_found' });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, resolve);
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
