import { busOptionsFromEnv, connectBus } from '@handoff/bus';
import { createLogger, type Logger } from '@handoff/observability';
import { packageVersion } from '@handoff/runtime';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { createKeyVerifier } from './auth/agent-keys.ts';
import { createAuthFailureGuard } from './auth/client-guard.ts';
import { createProviderVerifier } from './auth/provider-keys.ts';
import { createStaffVerifier } from './auth/staff-jwt.ts';
import { readEnv, type Env } from './env.ts';
import { createIdempotencyStore } from './idempotency.ts';
import { createApp } from './http/app.ts';
import { createRateLimiter, ensureRateLimitStream } from './ratelimit.ts';
import { withOpenApi } from './openapi/document.ts';
import { gatewayRoutes, ratePolicies } from './routes/index.ts';

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
  const bus = await connectBus({ ...busOptionsFromEnv(env), name: `gateway/${instance}`, logger });
  let accepting = true;
  const policies = ratePolicies(env);
  const limiter = createRateLimiter(bus.nc);
  const keys = createKeyVerifier({
    nc: bus.nc,
    logger,
    ttlMs: env.ACCESS_CACHE_TTL_MS,
    busTimeoutMs: env.BUS_TIMEOUT_MS,
  });
  const providers = createProviderVerifier({
    nc: bus.nc,
    ttlMs: env.ACCESS_CACHE_TTL_MS,
    busTimeoutMs: env.BUS_TIMEOUT_MS,
  });
  const server = createServer();
  try {
    await ensureRateLimitStream(bus.jsm, env.NATS_STREAM_REPLICAS);
    const idempotency = await createIdempotencyStore(bus.nc, {
      timeoutMs: env.BUS_TIMEOUT_MS,
      replicas: env.NATS_STREAM_REPLICAS,
    });
    const app = createApp({
      idempotency,
      nc: bus.nc,
      logger,
      readinessTimeoutMs: env.READINESS_TIMEOUT_MS,
      busTimeoutMs: env.BUS_TIMEOUT_MS,
      trustProxy: env.TRUST_PROXY,
      keys,
      providers,
      staff: createStaffVerifier({
        ...(env.STAFF_JWT_SECRET ? { secret: env.STAFF_JWT_SECRET } : {}),
        ...(env.STAFF_JWKS_URL ? { jwksUrl: env.STAFF_JWKS_URL } : {}),
        ...(env.STAFF_JWT_ISSUER ? { issuer: env.STAFF_JWT_ISSUER } : {}),
        ...(env.STAFF_JWT_AUDIENCE ? { audience: env.STAFF_JWT_AUDIENCE } : {}),
        clockSkewSeconds: env.STAFF_JWT_CLOCK_SKEW_S,
      }),
      guard: createAuthFailureGuard(limiter, policies.authFailures, logger),
      limiter,
      policies,
      routes: withOpenApi(gatewayRoutes(env)),
      isAccepting: () => accepting,
    });
    server.on('request', app);
    server.keepAliveTimeout = 5_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(env.PORT, resolve);
    });
  } catch (error) {
    keys.stop();
    providers.stop();
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
        keys.stop();
        providers.stop();
        await bus.nc.drain();
        logger.info('gateway stopped');
      })();
      return stopping;
    },
  };
}
