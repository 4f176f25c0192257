// BENCH_REPLICAS' plumbing without a stack: which scenarios get a variant, what its setup sees,
// and how an HTTP or a keep-alive load is spread over several servers (real HTTP servers here,
// standing in for a stack's gateways).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runScenarios } from '../src/harness.ts';
import { connectionShares, runHttpLoad } from '../src/http-load.ts';
import { KeepAliveClient } from '../src/keep-alive-client.ts';
import { replicaRatios, scaledOut, spreadOver } from '../src/replicas.ts';
import type { Fixture, HttpLoad, Scenario, ScenarioReport } from '../src/types.ts';
import { runOptions, tempDirPerTest } from './support/run.ts';

/** Two servers that count the calls and the connections each one took. */
const servers: {
  server: Server;
  url: string;
  calls: number;
  sockets: Set<unknown>;
  paths: string[];
}[] = [];

beforeAll(async () => {
  for (let i = 0; i < 2; i += 1) {
    const entry = {
      server: createServer(),
      url: '',
      calls: 0,
      sockets: new Set<unknown>(),
      paths: [] as string[],
    };
    entry.server.on('request', (req, res) => {
      entry.calls += 1;
      entry.paths.push(req.url ?? '');
      entry.sockets.add(req.socket);
      req.resume();
      req.on('end', () =>
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'),
      );
    });
    await new Promise<void>((resolve) => entry.server.listen(0, '127.0.0.1', resolve));
    entry.url = `http://127.0.0.1:${(entry.server.address() as AddressInfo).port}`;
    servers.push(entry);
  }
});

afterAll(async () => {
  for (const { server } of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const urls = () => servers.map((entry) => entry.url);
const reset = () =>
  servers.forEach((entry) => {
    entry.calls = 0;
    entry.sockets.clear();
  });

describe('connectionShares', () => {
  it('binds connection i to origin i mod n, with the target perConnection gives it', () => {
    const load: HttpLoad = {
      kind: 'http',
      url: 'http://127.0.0.1:1/v1/me?x=1',
      origins: ['http://a:1', 'http://b:2'],
      perConnection: [{ path: '/p0' }, { path: '/p1' }, { path: '/p2' }],
    };
    const shares = connectionShares(load, 5);
    expect(shares.map((share) => [share.load.url, share.connections])).toEqual([
      ['http://a:1/v1/me?x=1', 3],
      ['http://b:2/v1/me?x=1', 2],
    ]);
    // Connections 0, 2, 4 on a; 1 and 3 on b: targets 0, 2, 1 and 1, 0.
    expect(shares.map((share) => share.load.perConnection?.map((t) => t.path))).toEqual([
      ['/p0', '/p2', '/p1'],
      ['/p1', '/p0'],
    ]);
    expect(shares.every((share) => share.load.origins === undefined)).toBe(true);
  });

  it('leaves a load without origins on its own URL', () => {
    const load: HttpLoad = { kind: 'http', url: 'http://127.0.0.1:1/' };
    expect(connectionShares(load, 4)).toEqual([{ load, connections: 4 }]);
  });
});

describe('spreading a load over two servers', () => {
  it('runs an HTTP load on both, each connection on one', async () => {
    reset();
    const measurement = await runHttpLoad(
      { kind: 'http', url: `${servers[0]?.url}/`, origins: urls(), expectStatus: 200 },
      { connections: 4, durationMs: 300 },
    );
    // Calls the end of the run cut short reached a server without being counted.
    expect(measurement.ok).toBeGreaterThan(0);
    expect(measurement.ok).toBeLessThanOrEqual(servers.reduce((sum, e) => sum + e.calls, 0));
    expect(servers.map((entry) => entry.sockets.size)).toEqual([2, 2]);
    expect(servers.every((entry) => entry.calls > 0)).toBe(true);
  });

  it('alternates a keep-alive client between its servers', async () => {
    reset();
    const client = new KeepAliveClient(urls(), 4);
    try {
      for (let i = 0; i < 10; i += 1) {
        await client.call({ method: 'GET', path: '/keep-alive', expect: 200 });
      }
    } finally {
      client.close();
    }
    expect(servers.map((e) => e.paths.filter((path) => path === '/keep-alive').length)).toEqual([
      5, 5,
    ]);
  });
});

describe('scaledOut', () => {
  const stackFixture: Fixture<{ urls: string[] }> = {
    name: 'stack',
    setup: async (ctx) => ({ urls: ctx.replicas === 2 ? urls() : urls().slice(0, 1) }),
    gateways: (value) => value.urls,
  };
  const plainFixture: Fixture<number> = { name: 'plain', setup: async () => 1 };
  const seen: { name: string; earlier: string[] }[] = [];
  const scenario = (name: string, uses: Fixture<unknown>[]): Scenario => ({
    name,
    description: name,
    uses,
    async setup(ctx) {
      for (const fixture of uses) await ctx.use(fixture);
      seen.push({ name, earlier: ctx.earlier.map((report) => report.name) });
      return { kind: 'http', url: `${servers[0]?.url}/`, expectStatus: 200 };
    },
  });
  const getDir = tempDirPerTest('bench-replicas-');

  it('runs the stack scenarios again, on a pool of 2 replicas, spread over the gateways', async () => {
    const all = [
      scenario('bare', [plainFixture]),
      scenario('on-stack', [stackFixture]),
      scenario('after', [stackFixture, plainFixture]),
    ];
    const variants = scaledOut(all, 2);
    expect(variants.map((s) => s.name)).toEqual(['on-stack-x2', 'after-x2']);
    reset();
    const reports = await runScenarios(variants, runOptions(getDir(), { replicas: 2 }));
    expect(reports.map((r) => [r.name, r.failure, r.problems])).toEqual([
      ['on-stack-x2', null, []],
      ['after-x2', null, []],
    ]);
    // Each variant sees the earlier variants under their plain names.
    expect(seen).toEqual([
      { name: 'on-stack', earlier: [] },
      { name: 'after', earlier: ['on-stack'] },
    ]);
    // Both gateways took connections of the load (2 connections: one each).
    expect(servers.map((entry) => entry.sockets.size > 0)).toEqual([true, true]);
  });

  it('leaves loads elsewhere, and loads already spread, as they are', () => {
    const elsewhere: HttpLoad = { kind: 'http', url: 'http://127.0.0.1:1/' };
    expect(spreadOver(elsewhere, urls())).toBe(elsewhere);
    const own: HttpLoad = { kind: 'http', url: `${servers[0]?.url}/`, origins: ['http://a:1'] };
    expect(spreadOver(own, urls())).toBe(own);
    const call = { kind: 'call' as const, call: async () => {} };
    expect(spreadOver(call, urls())).toBe(call);
  });
});

describe('replicaRatios', () => {
  it("divides each variant by its plain scenario's figure", () => {
    const report = (name: string): ScenarioReport => ({
      name,
      description: name,
      stats: null,
      failure: null,
      problems: [],
    });
    const ratios = replicaRatios(
      [report('gateway-create'), report('express-bare'), report('gateway-create-x2')],
      2,
    );
    expect(ratios.map((r) => [r.subject, r.baseline])).toEqual([
      ['gateway-create-x2', 'gateway-create'],
    ]);
    expect(replicaRatios([report('gateway-create-x2')], 1)).toEqual([]);
  });
});
