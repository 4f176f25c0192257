import { describe, expect, it } from '@jest/globals';
import http from 'node:http';
import { startReceiver, type Received } from '@handoff/testkit';
import { postOnce } from '../src/fixtures/receiver.ts';
import { runScenario } from '../src/harness.ts';
import { rawHttpPost } from '../src/scenarios/raw-http-post.ts';
import { runOptions, tempDirPerTest } from './support/run.ts';

describe('postOnce', () => {
  it('POSTs to the receiver, path, headers and body, and resolves with its 204', async () => {
    const seen: Received[] = [];
    const receiver = await startReceiver((received) => seen.push(received));
    const agent = new http.Agent({ keepAlive: true, maxSockets: 2 });
    try {
      const before = process.hrtime.bigint();
      const status = await postOnce(new URL('/hook/3', receiver.url), Buffer.from('{"a":1}'), {
        agent,
        headers: { 'webhook-id': 'evt_1' },
        timeoutMs: 5_000,
      });
      expect(status).toBe(204);
      expect(seen).toHaveLength(1);
      expect(seen[0]?.path).toBe('/hook/3');
      expect(seen[0]?.body).toBe('{"a":1}');
      expect(seen[0]?.headers['webhook-id']).toBe('evt_1');
      expect(seen[0]?.headers['content-type']).toBe('application/json');
      expect(seen[0]?.receivedAt).toBeGreaterThanOrEqual(before);
    } finally {
      agent.destroy();
      await receiver.close();
    }
  });

  it('postOnce rejects what is not 2xx, and an unreachable server', async () => {
    const server = http.createServer((_req, res) => res.writeHead(500).end('no'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const agent = new http.Agent();
    try {
      const url = new URL(`http://127.0.0.1:${port}/`);
      await expect(postOnce(url, Buffer.from('{}'), { agent, timeoutMs: 5_000 })).rejects.toThrow(
        /answered 500/,
      );
    } finally {
      agent.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
    await expect(
      postOnce(new URL(`http://127.0.0.1:${port}/`), Buffer.from('{}'), {
        agent: new http.Agent(),
        timeoutMs: 5_000,
      }),
    ).rejects.toThrow();
  });
});

describe('raw-http-post', () => {
  const tempDir = tempDirPerTest('bench-raw-post-test-');

  it('runs at its own concurrency and completes POSTs without problems', async () => {
    const lines: string[] = [];
    const report = await runScenario(
      rawHttpPost,
      runOptions(tempDir(), { durationMs: 200, progress: (line) => lines.push(line) }),
    );
    expect(report.failure).toBeNull();
    expect(report.problems).toEqual([]);
    expect(report.stats?.count).toBeGreaterThan(10);
    expect(lines.some((line) => line.includes('at 32 connections'))).toBe(true);
  });
});
