import { describe, expect, it } from '@jest/globals';
import { parsePrometheusText, type PrometheusSample } from '@handoff/observability';
import { natsEnv } from '@handoff/testkit';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:net';
import { bootstrap } from '../src/bootstrap.ts';
import { useStack } from './support/stack.ts';

// The gateway's internal health port (HEALTH_PORT): the probes with the process's memory, which
// the public port never shows. READINESS_TIMEOUT_MS is generous for a loaded machine.
const stack = useStack('health_port', {
  oneDatabase: true,
  gateway: { HEALTH_PORT: '0', READINESS_TIMEOUT_MS: '5000' },
});

const internal = (path: string, port = stack.gateway.healthPort) => {
  if (port === undefined) throw new Error('the gateway has no health port');
  return fetch(`http://127.0.0.1:${port}${path}`);
};

const MEMORY = {
  rss_bytes: expect.any(Number),
  heap_used_bytes: expect.any(Number),
  heap_total_bytes: expect.any(Number),
  external_bytes: expect.any(Number),
  array_buffers_bytes: expect.any(Number),
};

describe('the gateway health port', () => {
  it('is a port of its own, apart from the public one', () => {
    expect(stack.gateway.healthPort).toEqual(expect.any(Number));
    expect(stack.gateway.healthPort).not.toBe(stack.gateway.port);
  });

  it('/healthz says ok with the memory; the public /healthz never shows it', async () => {
    const res = await internal('/healthz');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { memory: { heap_used_bytes: number } };
    expect(body).toEqual({ status: 'ok', memory: MEMORY });
    expect(body.memory.heap_used_bytes).toBeGreaterThan(0);
    const open = await fetch(`${stack.gateway.url}/healthz`);
    expect(open.status).toBe(200);
    expect(await open.json()).toEqual({ status: 'ok' });
  });

  it('/readyz is the public readiness: ready or not, and no more', async () => {
    const res = await internal('/readyz');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ready' });
    const open = await fetch(`${stack.gateway.url}/readyz`);
    expect(await open.json()).toEqual({ status: 'ready' });
  });

  it('/readyz is 503 while a backend service is down, and ready once it is back', async () => {
    await stack.stopService('testmode');
    try {
      const res = await internal('/readyz');
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ status: 'not_ready' });
      expect((await fetch(`${stack.gateway.url}/readyz`)).status).toBe(503);
    } finally {
      await stack.startService('testmode');
    }
    expect((await internal('/readyz')).status).toBe(200);
  });

  it('serves none of the public routes', async () => {
    const res = await internal('/v1/openapi.json');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ status: 'not_found' });
  });

  it('closes with the gateway', async () => {
    const gateway = await stack.extraGateway({ HEALTH_PORT: '0' });
    const port = gateway.healthPort;
    expect((await internal('/healthz', port)).status).toBe(200);
    await gateway.stop();
    await expect(internal('/healthz', port)).rejects.toThrow();
  });

  it('is absent unless HEALTH_PORT is set', async () => {
    const gateway = await stack.extraGateway({ HEALTH_PORT: undefined });
    expect(gateway.healthPort).toBeUndefined();
    await gateway.stop();
  });

  it('refuses a HEALTH_PORT that is the public PORT, or no port at all', async () => {
    const same = bootstrap({ env: { ...natsEnv('gateway'), PORT: '18080', HEALTH_PORT: '18080' } });
    await expect(same).rejects.toThrow(/HEALTH_PORT: must differ from PORT/);
    const bad = bootstrap({ env: { ...natsEnv('gateway'), HEALTH_PORT: 'ninety' } });
    await expect(bad).rejects.toThrow(/HEALTH_PORT: must be a port number/);
  });

  it('fails to start, leaving no public port behind, when its health port is taken', async () => {
    const taken = await listening();
    const publicPort = await freePort();
    try {
      await expect(
        stack.extraGateway({ HEALTH_PORT: String(portOf(taken)), PORT: String(publicPort) }),
      ).rejects.toThrow(/EADDRINUSE/);
      await expect(fetch(`http://127.0.0.1:${publicPort}/healthz`)).rejects.toThrow();
    } finally {
      await close(taken);
    }
  });
});

describe('the gateway /metrics', () => {
  const scrape = async (port = stack.gateway.healthPort): Promise<PrometheusSample[]> => {
    const res = await internal('/metrics', port);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return parsePrometheusText(await res.text());
  };
  const requests = (samples: PrometheusSample[]) =>
    samples.filter((s) => s.name === 'http_server_request_duration_seconds_count');

  it('never answers on the public port', async () => {
    const res = await fetch(`${stack.gateway.url}/metrics`);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toMatch(/http_server_request_duration/);
  });

  it('counts a request under its route template, method and status', async () => {
    const agent = await stack.agentOf();
    const request = await stack.requestOf(agent);
    const before = requests(await scrape());
    expect((await stack.asCustomer(agent, request, '')).status).toBe(200);
    const after = requests(await scrape());
    const read = (samples: PrometheusSample[]) =>
      samples.find(
        (s) =>
          s.labels.http_route === '/v1/request/{id}' &&
          s.labels.http_request_method === 'GET' &&
          s.labels.http_response_status_code === '200',
      )?.value ?? 0;
    expect(read(after)).toBe(read(before) + 1);
    // The create behind it crossed the bus to intake: the backend's own health port timed it.
    const intake = await scrape(stack.backend('intake').healthPort);
    const served = intake.find(
      (s) =>
        s.name === 'messaging_process_duration_seconds_count' &&
        s.labels.messaging_destination_name === 'handoff.intake.requests.create',
    );
    expect(served?.value).toBeGreaterThan(0);
  });

  it('keeps the route label bounded: ids and unknown paths add no values', async () => {
    const ids = Array.from({ length: 30 }, () => `req_${randomBytes(8).toString('hex')}`);
    for (const id of ids) {
      await fetch(`${stack.gateway.url}/v1/request/${id}`);
      await fetch(`${stack.gateway.url}/v1/request/${id}/message`, { method: 'POST' });
      await fetch(`${stack.gateway.url}/no/such/${id}`);
    }
    const routes = new Set(requests(await scrape()).map((s) => s.labels.http_route ?? ''));
    expect(routes).toContain('/v1/request/{id}');
    expect(routes).toContain('/v1/request/{id}/message');
    expect(routes).toContain('unmatched');
    expect(routes.size).toBeLessThan(20);
    for (const route of routes) {
      expect(ids.some((id) => route.includes(id))).toBe(false);
      expect(route).toMatch(/^(unmatched|\/[\w\-./{}*]*)$/);
    }
  });
});

const listening = async (port = 0): Promise<Server> => {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, resolve);
  });
  return server;
};
const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));
const portOf = (server: Server): number => {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening on a port');
  return address.port;
};
/** A port free a moment ago, for a test that must know the public port before it starts. */
async function freePort(): Promise<number> {
  const server = await listening();
  const port = portOf(server);
  await close(server);
  return port;
}
