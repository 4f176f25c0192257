import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { roundRobin, runHttpLoad } from '../src/http-load.ts';
import { problemsOf, summarize } from '../src/measure.ts';

const DELAY_MS = 5;
let server: Server;
let base: string;
const sockets = new Map<unknown, number>();
const seen: {
  socket: number;
  method: string;
  path: string;
  tag: string;
  common: string;
  type: string;
}[] = [];

beforeAll(async () => {
  // Answers after at least 5 ms; /fail answers 503 every other time.
  let calls = 0;
  server = createServer((req, res) => {
    calls += 1;
    if (req.url?.startsWith('/spread/')) {
      // Which socket sent what, with which headers.
      const socket = sockets.get(req.socket) ?? sockets.set(req.socket, sockets.size).size - 1;
      seen.push({
        socket,
        method: req.method ?? '',
        path: req.url,
        tag: String(req.headers['x-tag']),
        common: String(req.headers['x-common']),
        type: String(req.headers['content-type']),
      });
      req.resume();
      req.on('end', () => res.writeHead(201).end('{}'));
      return;
    }
    const status = req.url === '/fail' && calls % 2 === 0 ? 503 : 200;
    const started = performance.now();
    const answer = () => {
      if (performance.now() - started < DELAY_MS) {
        setTimeout(answer, 1);
        return;
      }
      res.writeHead(status, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    };
    setTimeout(answer, DELAY_MS);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('runHttpLoad', () => {
  it('reports latencies in ms with sub-ms precision, and a rate bounded by the delay', async () => {
    const measurement = await runHttpLoad(
      { kind: 'http', url: `${base}/`, expectStatus: 200 },
      { connections: 2, durationMs: 1_000 },
    );
    const stats = summarize(measurement);
    expect(problemsOf(measurement, 200)).toEqual([]);
    expect(stats.count).toBeGreaterThan(10);
    expect(stats.status_codes).toEqual({ '200': stats.count });
    expect(stats.p50_ms).toBeGreaterThanOrEqual(DELAY_MS);
    expect(stats.p50_ms).toBeLessThan(1_000);
    // autocannon's own histogram would give whole ms; ours keeps the fraction.
    expect(Number.isInteger(stats.mean_ms)).toBe(false);
    expect(stats.requests_per_s).toBeLessThanOrEqual(2 * (1_000 / DELAY_MS));
  });

  it('counts statuses other than the expected one, and keeps non-2xx out of the rate', async () => {
    const measurement = await runHttpLoad(
      { kind: 'http', url: `${base}/fail`, expectStatus: 200 },
      { connections: 2, durationMs: 500 },
    );
    const stats = summarize(measurement);
    expect(stats.non2xx).toBeGreaterThan(0);
    expect(measurement.unexpectedStatus).toBe(stats.non2xx);
    expect(stats.status_codes['503']).toBe(stats.non2xx);
    expect(stats.count).toBe(stats.status_codes['200']);
    expect(measurement.histogram.count).toBe(stats.count);
    expect(problemsOf(measurement, 200).join()).toContain('were not 200');
  });
});

describe('runHttpLoad spread over targets', () => {
  it('pins each connection to its own target, its headers over the common ones', async () => {
    const measurement = await runHttpLoad(
      {
        kind: 'http',
        url: `${base}/ignored`,
        method: 'POST',
        headers: { 'x-common': 'yes', 'x-tag': 'common', 'content-type': 'application/json' },
        body: '{"message":"hi"}',
        expectStatus: 201,
        perConnection: ['a', 'b', 'c'].map((tag) => ({
          path: `/spread/${tag}`,
          headers: { 'x-tag': tag },
        })),
      },
      { connections: 3, durationMs: 300 },
    );
    expect(problemsOf(measurement, 201)).toEqual([]);
    // The server may also have seen the requests under way when the load stopped.
    expect(seen.length).toBeGreaterThanOrEqual(measurement.ok);
    expect(seen.length).toBeLessThanOrEqual(measurement.ok + 3);
    expect(new Set(seen.map((request) => request.path))).toEqual(
      new Set(['/spread/a', '/spread/b', '/spread/c']),
    );
    for (const request of seen) {
      expect(request).toMatchObject({ method: 'POST', common: 'yes', type: 'application/json' });
      expect(request.path).toBe(`/spread/${request.tag}`);
    }
    // One path per socket (keep-alive: one socket per connection).
    const pathsBySocket = new Map<number, Set<string>>();
    for (const { socket, path } of seen) {
      pathsBySocket.set(socket, (pathsBySocket.get(socket) ?? new Set()).add(path));
    }
    expect(pathsBySocket.size).toBe(3);
    for (const paths of pathsBySocket.values()) expect(paths.size).toBe(1);
  });
});

describe('roundRobin', () => {
  it('hands out the items in turn, starting over after the last', () => {
    const next = roundRobin(['a', 'b', 'c']);
    expect(Array.from({ length: 7 }, next)).toEqual(['a', 'b', 'c', 'a', 'b', 'c', 'a']);
  });

  it('refuses an empty list', () => {
    expect(() => roundRobin([])).toThrow('nothing to hand out');
  });
});
