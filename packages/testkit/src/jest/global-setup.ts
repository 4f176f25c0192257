import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMongo, startNats, type RunningServer } from '../servers.ts';
import { SERVERS_ENV, type WorkerServers } from '../fixtures.ts';

interface GlobalConfig {
  maxWorkers: number;
}

const RUNNING = Symbol.for('handoff.testkit.running');

/** Starts one NATS and one MongoDB-wire server per jest worker, before any test file runs. */
export default async function globalSetup(config: GlobalConfig): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'handoff-test-'));
  const workers = Math.max(1, config.maxWorkers);
  const running: RunningServer[] = [];
  (globalThis as Record<symbol, unknown>)[RUNNING] = { running, root };
  const servers: WorkerServers[] = await Promise.all(
    Array.from({ length: workers }, async (_, index) => {
      const dataDir = join(root, `worker-${index + 1}`);
      const [nats, mongo] = await Promise.all([
        startNats({ dataDir }),
        startMongo({ dataDir, durable: false }),
      ]);
      running.push(nats, mongo);
      return {
        natsUrl: nats.url,
        ...(nats.passwords ? { natsPasswords: nats.passwords } : {}),
        mongoUrl: mongo.url,
        dataDir,
      };
    }),
  );
  process.env[SERVERS_ENV] = JSON.stringify(servers);
}

export { RUNNING };
