// What every backend service promises, as a jest suite each service's test/service.test.ts runs.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { callSubject } from '@handoff/bus';
import { HealthReply, subjects, type BackendService } from '@handoff/contracts';
import type { BaseServiceEnv } from '@handoff/config';
import type { CollectionPlan } from '@handoff/store';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { RunningService } from '@handoff/runtime';
import { natsOptions, serviceEnv, uniqueDatabase } from '@handoff/testkit';

type Start = (env: Record<string, string | undefined>) => Promise<RunningService<BaseServiceEnv>>;

/**
 * What every backend service promises: a clear refusal of a bad environment, its own collections
 * and indexes, health over the bus and over HTTP, and a graceful stop.
 */
export function describeBackendService(
  name: BackendService,
  start: Start,
  collections: CollectionPlan,
): void {
  describe(`${name} service`, () => {
    const database = uniqueDatabase(name);
    let service: RunningService<BaseServiceEnv> | undefined;
    let client: NatsConnection;
    const env = () => serviceEnv(name, database);

    beforeAll(async () => {
      client = await connect({ ...natsOptions() });
      service = await start(env());
    });

    afterAll(async () => {
      await service?.stop();
      await client.close();
    });

    it('refuses a bad environment, naming each bad variable', async () => {
      await expect(
        start({ ...env(), NATS_URL: 'http://localhost:4222', MONGO_URL: undefined }),
      ).rejects.toThrow(/NATS_URL: must be a nats:\/\/[\s\S]*MONGO_URL:/);
    });

    it('creates the collections it owns, with their indexes', async () => {
      const db = service?.store.db;
      if (!db) throw new Error('service did not start');
      for (const [collection, indexes] of Object.entries(collections)) {
        const names = (await db.collection(collection).indexes()).map((index) => index.name);
        expect(names).toEqual(expect.arrayContaining(indexes.map((index) => index.options.name)));
      }
    });

    it('starts again on the same database without error (idempotent set-up)', async () => {
      const second = await start(env());
      await second.stop();
    });

    it('answers health over the bus', async () => {
      const reply = await callSubject(client, subjects.health(name), null, {
        timeoutMs: 2_000,
        reply: HealthReply,
      });
      expect(reply).toMatchObject({
        service: name,
        status: 'ok',
        checks: { nats: 'up', mongo: 'up' },
      });
    });

    it('serves /healthz and /readyz for its probes', async () => {
      const base = `http://127.0.0.1:${service?.healthPort}`;
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      const ready = await fetch(`${base}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toMatchObject({
        status: 'ready',
        checks: { nats: 'up', mongo: 'up' },
      });
    });

    it('stops gracefully and leaves the bus', async () => {
      const running = service;
      service = undefined;
      await running?.stop();
      await expect(
        callSubject(client, subjects.health(name), null, { timeoutMs: 1_000, reply: HealthReply }),
      ).rejects.toMatchObject({ code: 'service_unavailable' });
    });
  });
}
