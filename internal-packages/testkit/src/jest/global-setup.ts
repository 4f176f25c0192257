import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMailpit } from '../mailpit.ts';
import { startMongo } from '../mongo-server.ts';
import { startNats } from '../nats-server.ts';
import { startS3Server } from '../s3-server.ts';
import { startPair, type RunningServer } from '../servers.ts';
import { SERVERS_ENV, type WorkerServers } from '../fixtures.ts';

interface GlobalConfig {
  maxWorkers: number;
}

const RUNNING = Symbol.for('handoff.testkit.running');

/**
 * Starts one NATS, one MongoDB-wire server, one Mailpit (SMTP) and one S3-compatible server
 * (versitygw) per jest worker, before any test file runs.
 */
export default async function globalSetup(config: GlobalConfig): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'handoff-test-'));
  const workers = Math.max(1, config.maxWorkers);
  const running: RunningServer[] = [];
  (globalThis as Record<symbol, unknown>)[RUNNING] = { running, root };
  // Every worker's servers settled, so that none still starting is left out of the stop below.
  const settled = await Promise.allSettled(
    Array.from({ length: workers }, async (_, index) => {
      const dataDir = join(root, `worker-${index + 1}`);
      const [nats, mongo] = await startPair(
        startNats({ dataDir }),
        startMongo({ dataDir, durable: false }),
      );
      running.push(nats, mongo);
      const [mail, s3] = await startPair(
        startMailpit({ dataDir }).then((mail) => ({
          ...mail,
          description: `Mailpit at ${mail.url}`,
        })),
        startS3Server({ dataDir }),
      );
      running.push(mail, s3);
      return {
        natsUrl: nats.url,
        ...(nats.passwords ? { natsPasswords: nats.passwords } : {}),
        mongoUrl: mongo.url,
        mailpitUrl: mail.url,
        smtpUrl: mail.smtpUrl,
        s3: {
          url: s3.url,
          region: s3.region,
          accessKeyId: s3.accessKeyId,
          secretAccessKey: s3.secretAccessKey,
        },
        dataDir,
      };
    }),
  );
  const failed = settled.find((result) => result.status === 'rejected');
  if (failed) {
    // Jest runs no teardown after a failed setup: the other workers' servers are stopped here.
    await Promise.allSettled(running.map((server) => server.stop()));
    throw failed.reason;
  }
  const servers: WorkerServers[] = settled.flatMap((result) =>
    result.status === 'fulfilled' ? [result.value] : [],
  );
  process.env[SERVERS_ENV] = JSON.stringify(servers);
}

export { RUNNING };
