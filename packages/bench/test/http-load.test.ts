import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runHttpLoad } from '../src/http-load.ts';
import { problemsOf, summarize } from '../src/measure.ts';

const DELAY_MS = 5;
let server: Server;
let base: string;

beforeAll(async () => {
  // Answers after at least 5 ms; /fail answers 503 every other time.
  let calls = 0;
  server = createServer((req, res) => {
    calls += 1;
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
    expect(stats.p50_ms).toBeLessThan(100);
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
