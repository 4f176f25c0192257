import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UnexpectedStatusError } from '@handoff/devstack/gateway-client';
import { approvePath, proposalsPath } from '../src/fixtures/engagement.ts';
import {
  expectedCalls,
  FreshPool,
  interleave,
  PoolExhaustedError,
  spreadPairs,
} from '../src/fresh-pool.ts';
import { KeepAliveClient } from '../src/keep-alive-client.ts';
import {
  APPROVAL_RATE_ESTIMATE,
  approvalJobs,
  approvalRateEstimate,
  MAX_ROUTED_PROVIDERS,
  pairSides,
  PLAN_MILESTONES,
  PROPOSAL_RATE_ESTIMATE,
  SETUP_PACE_FACTOR,
} from '../src/scenarios/gateway-engagement.ts';

describe('expectedCalls', () => {
  it('covers the warm-up and the measurement at the estimated rate, with a margin', () => {
    expect(expectedCalls(60, { durationMs: 10_000, warmupMs: 2_000 })).toBe(1_080);
    expect(expectedCalls(40, { durationMs: 5_000, warmupMs: 0 })).toBe(300);
    expect(expectedCalls(1, { durationMs: 1_001, warmupMs: 0 })).toBe(2);
  });
});

describe('FreshPool', () => {
  it('hands out each item once, in order, then says it ran out and what it was sized for', () => {
    const pool = new FreshPool(['a', 'b'], 'fresh things', '2 calls');
    expect([pool.take(), pool.take()]).toEqual(['a', 'b']);
    expect(pool.used).toBe(2);
    expect(() => pool.take()).toThrow(PoolExhaustedError);
    expect(() => pool.take()).toThrow(
      /ran out of fresh things: all 2 made in setup are used \(sized for 2 calls\)/,
    );
    expect(pool.used).toBe(2);
    expect(pool.size).toBe(2);
  });
});

describe('spreadPairs', () => {
  it('makes every pair once, consecutive pairs on different sides', () => {
    const as = Array.from({ length: 12 }, (_, i) => `p${i}`);
    const bs = Array.from({ length: 12 }, (_, i) => `r${i}`);
    const pairs = spreadPairs(as, bs);
    expect(pairs).toHaveLength(144);
    expect(new Set(pairs.map(([a, b]) => `${a}/${b}`)).size).toBe(144);
    // Any 10 in a row (10 connections' calls) are on 10 requests and 10 providers.
    for (let start = 0; start + 10 <= pairs.length; start += 1) {
      const window = pairs.slice(start, start + 10);
      expect(new Set(window.map(([a]) => a)).size).toBe(10);
      expect(new Set(window.map(([, b]) => b)).size).toBe(10);
    }
  });

  it('pairs sides of different lengths, and nothing with nothing', () => {
    const pairs = spreadPairs(['a', 'b'], [1, 2, 3]);
    expect(pairs).toHaveLength(6);
    expect(new Set(pairs.map(([a, b]) => `${a}${b}`)).size).toBe(6);
    expect(spreadPairs([], [1])).toEqual([]);
  });
});

describe('interleave', () => {
  it('takes one item of each list in turn', () => {
    expect(interleave([[1, 2, 3], [4], [5, 6]])).toEqual([1, 4, 5, 2, 6, 3]);
    expect(interleave([])).toEqual([]);
  });
});

describe('pool sizes', () => {
  it('pairs providers (one per connection at least, 50 at most) with as many requests as needed', () => {
    expect(pairSides(1_080, 10)).toEqual({ providers: 33, requests: 33 });
    expect(pairSides(20, 10)).toEqual({ providers: 10, requests: 10 });
    expect(pairSides(1_000_000, 10)).toEqual({
      providers: MAX_ROUTED_PROVIDERS,
      requests: 1_000_000 / MAX_ROUTED_PROVIDERS,
    });
    // The default run (10 s after a 2 s warm-up) has pairs to spare.
    const calls = expectedCalls(PROPOSAL_RATE_ESTIMATE, { durationMs: 10_000, warmupMs: 2_000 });
    const { providers, requests } = pairSides(calls, 10);
    expect(providers).toBeLessThanOrEqual(MAX_ROUTED_PROVIDERS);
    expect(providers * requests).toBeGreaterThanOrEqual(calls);
  });

  it('sizes the approvals from the pace of setup, at most the fixed estimate', () => {
    expect(approvalRateEstimate(5)).toBe(5 * SETUP_PACE_FACTOR);
    expect(approvalRateEstimate(1_000)).toBe(APPROVAL_RATE_ESTIMATE);
  });

  it('makes enough jobs of submitted milestones, at least one per connection', () => {
    const calls = expectedCalls(APPROVAL_RATE_ESTIMATE, { durationMs: 10_000, warmupMs: 2_000 });
    expect(approvalJobs(calls, 10) * PLAN_MILESTONES).toBeGreaterThanOrEqual(calls);
    expect(approvalJobs(1, 10)).toBe(10);
    expect(approvalJobs(401, 10)).toBe(21);
  });
});

describe('engagement paths', () => {
  it('encode the ids', () => {
    expect(proposalsPath('req_1/x')).toBe('/v1/provider/requests/req_1%2Fx/proposals');
    expect(approvePath('req_1', 'mst 2')).toBe('/v1/request/req_1/milestones/mst%202/approve');
  });
});

describe('KeepAliveClient', () => {
  let server: Server;
  let base: string;
  const sockets = new Set<unknown>();
  const seen: { method: string; url: string; headers: IncomingHttpHeaders; body: string }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      sockets.add(req.socket);
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
        if (req.url?.startsWith('/conflict')) {
          res.writeHead(409, { 'content-type': 'application/json' });
          res.end('{"error":{"code":"proposal_exists"}}');
        } else if (req.url === '/text') {
          res.writeHead(200).end('not json');
        } else {
          res.writeHead(201, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ echoed: body === '' ? null : (JSON.parse(body) as unknown) }));
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('sends JSON with the headers, and reuses at most `connections` connections', async () => {
    const client = new KeepAliveClient(base, 2);
    try {
      seen.length = 0;
      sockets.clear();
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          client.call({
            method: 'POST',
            path: `/things/${i}`,
            headers: { Authorization: 'Bearer hpk_live_x' },
            body: { n: i },
            expect: 201,
          }),
        ),
      );
      expect(answers.map((answer) => answer.echoed)).toEqual(
        Array.from({ length: 20 }, (_, n) => ({ n })),
      );
      expect(sockets.size).toBe(2);
      expect(seen[0]?.headers.authorization).toBe('Bearer hpk_live_x');
      expect(seen[0]?.headers['content-type']).toBe('application/json');

      // Without a body: no content type, an empty body.
      await client.call({ method: 'POST', path: '/empty', expect: 201 });
      expect(seen.at(-1)?.headers['content-type']).toBeUndefined();
      expect(seen.at(-1)?.body).toBe('');
    } finally {
      client.close();
    }
  });

  it('fails on another status, quoting the answer but not the headers, and on a non-object', async () => {
    const client = new KeepAliveClient(base, 1);
    try {
      const failure = client.call({
        method: 'POST',
        path: '/conflict?x=1',
        headers: { Authorization: 'Bearer secret-key' },
        expect: 201,
      });
      await expect(failure).rejects.toBeInstanceOf(UnexpectedStatusError);
      await expect(failure).rejects.toThrow(
        'POST /conflict answered 409, not 201: {"error":{"code":"proposal_exists"}}',
      );
      await expect(failure).rejects.not.toThrow(/secret-key/);
      await expect(client.call({ method: 'GET', path: '/text', expect: 200 })).rejects.toThrow(
        'GET /text: the answer is not a JSON object: not json',
      );
    } finally {
      client.close();
    }
  });

  it('takes plain HTTP URLs only', () => {
    expect(() => new KeepAliveClient('https://example.com', 1)).toThrow(/plain HTTP/);
  });
});
