import { connectBus } from '@handoff/bus';
import { createLogger, type Logger } from '@handoff/observability';
import { packageVersion } from '@handoff/runtime';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { readEnv, type Env } from './env.ts';
import { createApp } from './http/app.ts';

export const VERSION = packageVersion(import.meta.url);

export interface BootstrapOptions {
  env?: Record<string, string | undefined>;
  logger?: Logger;
}

export interface RunningGateway {
  env: Env;
  port: number;
  url: string;
  logger: Logger;
  stop(): Promise<void>;
}

export async function bootstrap(options: BootstrapOptions = {}): Promise<RunningGateway> {
  const env = readEnv(options.env);
  const logger =
    options.logger ?? createLogger({ service: 'gateway', version: VERSION, level: env.LOG_LEVEL });
  const instance = `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  const bus = await connectBus({ url: env.NATS_URL, name: `gateway/${instance}`, logger });
  let accepting = true;
  const app = createApp({
    nc: bus.nc,
    logger,
    readinessTimeoutMs: env.READINESS_TIMEOUT_MS,
    isAccepting: () => accepting,
  });
  const server = createServer(app);
  server.keepAliveTimeout = 5_000;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(env.PORT, resolve);
    });
  } catch (error) {
    await bus.nc.close();
    throw error;
  }
  const port = (server.address() as AddressInfo).port;
  logger.info({ port, instance }, 'gateway listening');

  let stopping: Promise<void> | undefined;
  return {
    env,
    port,
    url: `http://127.0.0.1:${port}`,
    logger,
    stop() {
      stopping ??= (async () => {
        accepting = false;
        // Stop taking connections, let in-flight requests finish, then drain the bus.
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        await closed;
        await bus.nc.drain();
        logger.info('gateway stopped');
      })();
      return stopping;
    },
  };
}
