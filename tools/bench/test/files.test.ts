// What the file scenarios are made of, without a stack: the figures a scenario reports (its
// MiB/s, its own), the memory sampler, and the client's uploads and downloads against a plain
// HTTP server that checks what it receives.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { FileClient, MIB, pngBytes, streamedPng } from '../src/fixtures/file-api.ts';
import type { GatewayStack } from '../src/fixtures/gateway-stack.ts';
import { formatBytes, formatFiguresTable } from '../src/format.ts';
import { runScenario } from '../src/harness.ts';
import { lastBefore, parseVmRss, peakSince, rssOf, RssSampler } from '../src/rss.ts';
import type { Scenario } from '../src/types.ts';
import { report, stats } from './support/reports.ts';
import { runOptions, tempDirPerTest } from './support/run.ts';

const tempDir = tempDirPerTest('bench-files-test-');
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

describe('figures', () => {
  it('adds MiB/s to a scenario whose operations move bytes, and keeps those it records', async () => {
    const scenario: Scenario = {
      name: 'bytes',
      description: 'bytes',
      bytesPerOperation: 2 * MIB,
      async setup(ctx) {
        ctx.teardown(() => ctx.figure({ name: 'peak', value: 12.5, unit: 'MiB', note: 'late' }));
        return { kind: 'call', call: () => sleep(1) };
      },
    };
    const result = await runScenario(scenario, runOptions(tempDir(), { durationMs: 50 }));
    const rate = result.stats?.requests_per_s ?? 0;
    expect(rate).toBeGreaterThan(0);
    expect(result.figures).toEqual([
      {
        name: 'throughput',
        value: Math.round(rate * 2 * 10) / 10,
        unit: 'MiB/s',
        note: 'req/s × 2 MiB',
      },
      { name: 'peak', value: 12.5, unit: 'MiB', note: 'late' },
    ]);
  });

  it('prints one row per figure, and nothing when there is none', () => {
    expect(formatFiguresTable([report('a', stats(1, 1, 1))])).toBeNull();
    const lines = formatFiguresTable([
      report('a', stats(1, 1, 1)),
      {
        ...report('upload', stats(10.25, 1, 1)),
        figures: [
          { name: 'throughput', value: 10.25, unit: 'MiB/s' },
          { name: 'rss', value: 150.4, unit: 'MiB', note: 'target < 100 MiB: MISSED' },
        ],
      },
    ])?.split('\n');
    expect(lines?.map((line) => line.split(/\s{2,}/))).toEqual([
      ['scenario', 'figure', 'value', 'note'],
      [expect.stringMatching(/^-+$/), expect.any(String), expect.any(String), expect.any(String)],
      ['upload', 'throughput', '10.3 MiB/s'],
      ['upload', 'rss', '150 MiB', 'target < 100 MiB: MISSED'],
    ]);
  });

  it('says sizes in whole units where it can', () => {
    expect(formatBytes(50 * MIB)).toBe('50 MiB');
    expect(formatBytes(255 * 1024)).toBe('255 KiB');
    expect(formatBytes(1000)).toBe('1000 B');
  });
});

describe('memory samples', () => {
  it('reads VmRSS from a /proc status', () => {
    expect(parseVmRss('Name:\tnode\nVmPeak:\t  900 kB\nVmRSS:\t  123456 kB\nThreads: 7\n')).toBe(
      123_456 * 1024,
    );
    expect(parseVmRss('Name:\tzombie\n')).toBeUndefined();
  });

  it('finds the idle sample before a time and the peak from it on', () => {
    const samples = [
      { at: 1, pid: 9, bytes: 100 },
      { at: 2, pid: 9, bytes: 90 },
      { at: 3, pid: 9, bytes: 300 },
      { at: 4, pid: 9, bytes: 200 },
    ];
    expect(lastBefore(samples, 3)?.bytes).toBe(90);
    expect(peakSince(samples, 3)?.bytes).toBe(300);
    expect(lastBefore(samples, 1)).toBeUndefined();
    expect(peakSince(samples, 5)).toBeUndefined();
  });

  it('samples a live process every interval until stopped, and nothing of one that is gone', async () => {
    expect(await rssOf(process.pid)).toBeGreaterThan(MIB);
    const sampler = new RssSampler(() => process.pid, 10);
    sampler.start();
    await sleep(120);
    await sampler.stop();
    const taken = sampler.samples.length;
    expect(taken).toBeGreaterThanOrEqual(3);
    expect(sampler.pids()).toEqual([process.pid]);
    await sleep(40);
    expect(sampler.samples).toHaveLength(taken);
    expect(await new RssSampler(() => undefined, 10).sample()).toBeUndefined();
  });
});

describe('the file client', () => {
  let server: Server;
  let url = '';
  const received: {
    path: string;
    type?: string;
    length?: string;
    bytes: number;
    sha256: string;
  }[] = [];
  const FILE = pngBytes(300_000);

  beforeAll(async () => {
    server = createServer((req, res) => {
      const hash = createHash('sha256');
      let bytes = 0;
      req.on('data', (piece: Buffer) => {
        bytes += piece.length;
        hash.update(piece);
      });
      req.on('end', () => {
        if (req.method === 'GET') {
          const short = req.url?.includes('short') === true;
          res.writeHead(200, { 'Content-Type': 'image/png' }).end(short ? FILE.subarray(1) : FILE);
          return;
        }
        received.push({
          path: req.url ?? '',
          type: req.headers['content-type'],
          length: req.headers['content-length'],
          bytes,
          sha256: hash.digest('hex'),
        });
        if (req.url?.includes('req_full') === true) {
          res
            .writeHead(409, { 'Content-Type': 'application/json' })
            .end('{"code":"limit_reached"}');
          return;
        }
        res.writeHead(201, { 'Content-Type': 'application/json' }).end(
          JSON.stringify({
            id: 'file_1',
            size: bytes,
            download_url: `http://elsewhere.example/v1/files/file_1/content?expires=1&signature=s`,
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const stack = () => ({ url, agent: { api_key: 'hk_key' } }) as unknown as GatewayStack;

  it('uploads bytes from memory and from a stream, as a PNG of the declared length', async () => {
    const client = new FileClient(stack(), 2);
    try {
      const file = await client.upload({ id: 'req_1', token: 'hrt_1' }, FILE);
      expect(file).toEqual({
        id: 'file_1',
        size: FILE.length,
        // The path of the URL, asked of the same gateway whatever origin the URL names.
        downloadPath: '/v1/files/file_1/content?expires=1&signature=s',
      });
      await client.upload(
        { id: 'req_1', token: 'hrt_1' },
        { stream: streamedPng(MIB + 5), length: MIB + 5 },
      );
      expect(received.slice(-2)).toEqual([
        {
          path: '/v1/request/req_1/files?filename=bench.png',
          type: 'image/png',
          length: String(FILE.length),
          bytes: FILE.length,
          sha256: createHash('sha256').update(FILE).digest('hex'),
        },
        expect.objectContaining({ length: String(MIB + 5), bytes: MIB + 5 }),
      ]);
      await expect(client.upload({ id: 'req_full', token: 'hrt_1' }, FILE)).rejects.toThrow(
        /upload answered 409, not 201: \{"code":"limit_reached"\}/,
      );
    } finally {
      client.close();
    }
  });

  it('downloads the whole file, and fails on a size it did not expect', async () => {
    const client = new FileClient(stack(), 2);
    try {
      await client.download('/v1/files/file_1/content', FILE.length);
      await expect(client.download('/v1/files/short/content', FILE.length)).rejects.toThrow(
        `downloaded ${FILE.length - 1} bytes, not ${FILE.length}`,
      );
    } finally {
      client.close();
    }
  });

  it('makes PNG bytes, in memory and streamed, of exactly the size asked', async () => {
    expect([...pngBytes(100).subarray(0, 8)]).toEqual(PNG_SIGNATURE);
    const pieces: Buffer[] = [];
    for await (const piece of streamedPng(200_001)) pieces.push(piece as Buffer);
    const whole = Buffer.concat(pieces);
    expect(whole).toHaveLength(200_001);
    expect([...whole.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
  });
});
