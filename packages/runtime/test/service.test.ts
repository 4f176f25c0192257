import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { callSubject, endpoint } from '@handoff/bus';
import { baseServiceEnv, loadEnv } from '@handoff/config';
import { createLogger } from '@handoff/observability';
import { natsEnv, natsOptions, testServers, uniqueDatabase } from '@handoff/testkit';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { z } from 'zod';
import { runService } from '../src/index.ts';

let client: NatsConnection;

beforeAll(async () => {
  client = await connect({ ...natsOptions() });
});

afterAll(async () => {
  await client.close();
});

const start = () =>
  runService({
    name: 'intake',
    version: '0.0.0-test',
    description: 'runtime test',
    env: loadEnv('runtime-test', baseServiceEnv, {
      ...natsEnv('intake'),
      MONGO_URL: testServers().mongoUrl,
      MONGO_DB: uniqueDatabase('runtime'),
      HEALTH_PORT: '0',
    }),
    collections: {},
    logger: createLogger({ service: 'runtime-test', version: '0', level: 'silent' }),
    endpoints: () => ({
      slow: endpoint(z.object({ ms: z.number() }), async ({ ms }) => {
        await new Promise((resolve) => setTimeout(resolve, ms));
        return { done: true };
      }),
    }),
  });

describe('graceful stop', () => {
  it('finishes a request already in flight before it closes', async () => {
    const service = await start();
    const inFlight = callSubject(
      client,
      'handoff.intake.slow',
      { ms: 400 },
      { timeoutMs: 5_000, reply: z.object({ done: z.boolean() }) },
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    const probe = `http://127.0.0.1:${service.healthPort}/readyz`;
    const stopping = service.stop();
    await expect(inFlight).resolves.toEqual({ done: true });
    await stopping;
    await expect(fetch(probe)).rejects.toThrow();
    await expect(
      callSubject(client, 'handoff.intake.slow', { ms: 1 }, { timeoutMs: 500, reply: z.unknown() }),
    ).rejects.toMatchObject({ code: 'service_unavailable' });
  });

  it('reports not ready on /readyz while draining', async () => {
    const service = await start();
    const probe = `http://127.0.0.1:${service.healthPort}/readyz`;
    expect((await fetch(probe)).status).toBe(200);
    const slow = callSubject(
      client,
      'handoff.intake.slow',
      { ms: 600 },
      { timeoutMs: 5_000, reply: z.unknown() },
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    const stopping = service.stop();
    const during = await fetch(probe);
    expect(during.status).toBe(503);
    expect(await during.json()).toMatchObject({ status: 'not_ready', draining: true });
    await slow;
    await stopping;
  });
});
