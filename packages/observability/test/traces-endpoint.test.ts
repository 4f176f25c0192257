// OpenTelemetry's traces-only endpoint (`OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) is as good as the
// shared one: a process given only it records its spans and sends them there. Before, a service
// decided that no endpoint was set and exported nothing. Its own file: the SDK starts once per
// process, with the variables it finds then.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTelemetry, stopTelemetry, tracesRecorded, withSpan } from '../src/index.ts';

const received: { path: string; bytes: number }[] = [];
let server: Server;

beforeAll(async () => {
  server = createServer((req, res) => {
    let bytes = 0;
    req.on('data', (chunk: Buffer) => (bytes += chunk.length));
    req.on('end', () => {
      received.push({ path: req.url ?? '', bytes });
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  delete process.env.OTEL_TRACES_EXPORTER;
  process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT = `http://127.0.0.1:${port}/collector/v1/traces`;
});

afterAll(async () => {
  await stopTelemetry();
  await new Promise((resolve) => server.close(resolve));
});

describe('a traces-only OTLP endpoint', () => {
  it('is enough for spans to be recorded and sent to it', async () => {
    startTelemetry({ service: 'traces-endpoint-test', version: '0' });
    expect(tracesRecorded()).toBe(true);
    await withSpan('sent', {}, () => Promise.resolve());
    // The shutdown flushes the batch processor.
    await stopTelemetry();
    expect(received).toEqual([{ path: '/collector/v1/traces', bytes: expect.any(Number) }]);
    expect(received[0]?.bytes).toBeGreaterThan(0);
  });
});
