// The cost of metrics and tracing (issue 38): where its scenarios run and what they are compared
// with, and the bench's own Prometheus (src/scrape.ts) against a real HTTP server.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { computeRatios } from '../src/measure.ts';
import { scrapeProblem, scrapesBetween, startScraper } from '../src/scrape.ts';
import { RATIOS, scenarios } from '../src/scenarios/index.ts';
import { TELEMETRY_RATIOS } from '../src/scenarios/telemetry-cost.ts';
import { report, stats } from './support/reports.ts';

describe('the telemetry cost in the registry', () => {
  const registered = scenarios({ logLevel: 'warn' });
  const names = registered.map((scenario) => scenario.name);
  const named = (name: string) => registered.find((scenario) => scenario.name === name);

  it('runs both off, then both on, each pair on a stack of its own, once the shared one is gone', () => {
    const telemetry = names.filter((name) => /-telemetry-(on|off)$/.test(name));
    expect(telemetry).toEqual([
      'gateway-create-telemetry-off',
      'webhook-deliveries-1-telemetry-off',
      'gateway-create-telemetry-on',
      'webhook-deliveries-1-telemetry-on',
    ]);
    // In the default run (no group), next to each other, before routing's stack starts.
    for (const name of telemetry) expect(named(name)?.group).toBeUndefined();
    const first = names.indexOf('gateway-create-telemetry-off');
    expect(names.slice(first, first + 4)).toEqual(telemetry);
    expect(names[first + 4]).toBe('routing');
    const shared = named('gateway-create')?.uses?.[0];
    const lastShared = Math.max(
      ...registered.flatMap((scenario, index) =>
        scenario.uses?.[0] === shared && scenario.group === undefined ? [index] : [],
      ),
    );
    expect(first).toBeGreaterThan(lastShared);
    const stackOf = (name: string) => named(name)?.uses?.[0];
    expect(stackOf('gateway-create-telemetry-off')?.name).toBe('gateway-stack-telemetry-off');
    expect(stackOf('webhook-deliveries-1-telemetry-off')).toBe(
      stackOf('gateway-create-telemetry-off'),
    );
    expect(stackOf('gateway-create-telemetry-on')?.name).toBe('gateway-stack-telemetry-on');
    expect(stackOf('webhook-deliveries-1-telemetry-on')).toBe(
      stackOf('gateway-create-telemetry-on'),
    );
    // The same load as the scenarios they are copies of.
    for (const suffix of ['-telemetry-off', '-telemetry-on']) {
      expect(named(`gateway-create${suffix}`)?.connections).toBe(
        named('gateway-create')?.connections,
      );
      expect(named(`webhook-deliveries-1${suffix}`)?.connections).toBe(
        named('webhook-deliveries-1')?.connections,
      );
    }
    expect(named('gateway-create-telemetry-on')?.description).toMatch(/scraped every 15 s/);
    expect(named('webhook-deliveries-1-telemetry-off')?.description).toMatch(/METRICS=off/);
  });

  it('reports each with both on against itself with both off, with the 0.9x target', () => {
    expect(TELEMETRY_RATIOS.map(({ subject, baseline }) => [subject, baseline])).toEqual([
      ['gateway-create-telemetry-on', 'gateway-create-telemetry-off'],
      ['webhook-deliveries-1-telemetry-on', 'webhook-deliveries-1-telemetry-off'],
    ]);
    for (const ratio of TELEMETRY_RATIOS) {
      expect(RATIOS).toContainEqual(ratio);
      expect(ratio.note).toMatch(/issue 38's target: req\/s ≥ 0\.900x/);
    }
    const [create] = computeRatios(TELEMETRY_RATIOS.slice(0, 1), [
      report('gateway-create-telemetry-off', stats(400, 20, 60)),
      report('gateway-create-telemetry-on', stats(380, 21, 66)),
    ]);
    expect(create).toMatchObject({ requests_per_s: 0.95, p50: 1.05 });
    expect(create?.p99).toBeCloseTo(1.1);
  });
});

describe('scrapeProblem', () => {
  const text = 'text/plain; version=0.0.4; charset=utf-8';
  const exposition = '# HELP up Up.\n# TYPE up gauge\nup 1\n';

  it('takes a 200 in the text format with a metric family', () => {
    expect(scrapeProblem(200, text, exposition)).toBeUndefined();
  });

  it('refuses another status, another content type, or no family', () => {
    expect(scrapeProblem(404, text, exposition)).toBe('HTTP 404');
    expect(scrapeProblem(200, 'application/json', exposition)).toBe(
      'content-type application/json',
    );
    expect(scrapeProblem(200, null, exposition)).toBe('content-type none');
    // METRICS=off's exposition: valid, but it measures nothing.
    expect(scrapeProblem(200, text, '# metrics are off in this process (METRICS=off)\n')).toBe(
      'no metric family in the exposition',
    );
  });
});

describe('scrapesBetween', () => {
  it('is what the scrapes between two readings came to, and names a failure only if one came', () => {
    const before = { ok: 10, failed: 1, firstFailure: 'a: HTTP 500', bytes: 1_000, ms: 50 };
    expect(scrapesBetween(before, { ...before, ok: 14, bytes: 1_400, ms: 70 })).toEqual({
      ok: 4,
      failed: 0,
      bytes: 400,
      ms: 20,
    });
    expect(scrapesBetween(before, { ...before, failed: 3 })).toEqual({
      ok: 0,
      failed: 2,
      firstFailure: 'a: HTTP 500',
      bytes: 0,
      ms: 0,
    });
  });
});

describe('startScraper', () => {
  let server: Server;
  let base = '';
  const hits = new Map<string, number>();
  beforeAll(async () => {
    server = createServer((req, res) => {
      hits.set(req.url ?? '', (hits.get(req.url ?? '') ?? 0) + 1);
      if (req.url === '/good/metrics') {
        res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' });
        res.end('# TYPE calls counter\ncalls_total 3\n');
      } else {
        res.writeHead(500);
        res.end('no');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('scrapes every target each round, counting what it took and what failed', async () => {
    const good = `${base}/good/metrics`;
    const bad = `${base}/bad/metrics`;
    const scraper = startScraper([good, bad], 0);
    await scraper.scrapeAll();
    await scraper.scrapeAll();
    await scraper.stop();
    const totals = scraper.totals();
    expect(totals).toMatchObject({ ok: 2, failed: 2, firstFailure: `${bad}: HTTP 500` });
    expect(totals.bytes).toBe(2 * Buffer.byteLength('# TYPE calls counter\ncalls_total 3\n'));
    expect(totals.ms).toBeGreaterThan(0);
    expect(hits.get('/good/metrics')).toBe(2);
    expect(hits.get('/bad/metrics')).toBe(2);
  });

  it('counts a target that does not answer as failed', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const scraper = startScraper([`http://127.0.0.1:${port}/metrics`], 0);
    await scraper.scrapeAll();
    await scraper.stop();
    expect(scraper.totals()).toMatchObject({ ok: 0, failed: 1 });
  });
});
