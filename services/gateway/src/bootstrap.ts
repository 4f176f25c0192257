import { busOptionsFromEnv, connectBus, onBusInterrupted } from '@handoff/bus';
import { createLogger, type Logger } from '@handoff/observability';
import { createRequestCache, packageVersion } from '@handoff/runtime';
import type { BootstrapOptions, HealthServer } from '@handoff/runtime';
import { randomUUID } from 'node:crypto';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { agentKeys, createBearerKeyVerifier, providerKeys } from './auth/bearer-keys.ts';
import { createAuthFailureGuard } from './auth/client-guard.ts';
import { createStaffVerifier } from './auth/staff-jwt.ts';
import { createSessionVerifier } from './auth/workspace-sessions.ts';
import { readEnv, type Env } from './env.ts';
import { startHealthPort } from './health-port.ts';
import { createIdempotencyStore } from './idempotency.ts';
import { startRequestViews } from './views/projector.ts';
import { a2aBinding } from './a2a/index.ts';
import { createApp } from './http/app.ts';
import { mcpEndpoint, mcpMount, type McpEndpoint } from './mcp/endpoint.ts';
import { createRateLimiter, ensureRateLimitStream } from './ratelimit.ts';
import { docsRouter } from './http/docs.ts';
import { buildOpenApi, withOpenApi } from './openapi/document.ts';
import { createReadinessCheck } from './readiness.ts';
import { gatewayRoutes, ratePolicies } from './routes/index.ts';
import { createUpdateHub } from './routes/updates.ts';
import { watchWebhookSettings } from './webhook-settings.ts';

export const VERSION = packageVersion(import.meta.url);

export interface RunningGateway {
  env: Env;
  port: number;
  /** The internal port of the probes (`HEALTH_PORT`), when it has one. */
  healthPort?: number;
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
  const limiter = createRateLimiter(bus.nc, { timeoutMs: env.RATE_LIMIT_TIMEOUT_MS });
  const keyOptions = {
    nc: bus.nc,
    ttlMs: env.ACCESS_CACHE_TTL_MS,
    busTimeoutMs: env.BUS_TIMEOUT_MS,
  };
  const keys = createBearerKeyVerifier(agentKeys, keyOptions);
  const providers = createBearerKeyVerifier(providerKeys, keyOptions);
  const sessions = createSessionVerifier(keyOptions);
  // Slow clients (slowloris) hold a connection each: headers and the whole request have a
  // deadline, checked often enough that it is kept (Node checks every 30 s by default). The
  // server's is the uploads'; the app keeps other requests to HTTP_REQUEST_TIMEOUT_MS
  // (http/deadlines.ts).
  const server = createServer({
    headersTimeout: env.HTTP_HEADERS_TIMEOUT_MS,
    requestTimeout: env.HTTP_UPLOAD_TIMEOUT_MS,
    connectionsCheckingInterval: Math.max(100, Math.min(1_000, env.HTTP_HEADERS_TIMEOUT_MS / 4)),
  });
  // What this replica knows of requests between their events (owners for the request token
  // check, statuses, agents' reads); the hub's subscription tells it of every event, and a lost
  // connection drops all but the owners, which never change.
  const requests = createRequestCache();
  onBusInterrupted(bus.nc, () => requests.clear());
  // Long-polls for a request's events, woken by the events on the bus.
  const updates = createUpdateHub(
    bus.nc,
    {
      perProcess: env.UPDATES_MAX_WAITERS_PER_PROCESS,
      perKey: env.UPDATES_MAX_WAITERS_PER_KEY,
    },
    (event) => requests.heard(event),
  );
  const webhookSettings = watchWebhookSettings({
    nc: bus.nc,
    logger,
    busTimeoutMs: env.BUS_TIMEOUT_MS,
  });
  const guard = createAuthFailureGuard(
    limiter,
    { address: policies.authFailures, credential: policies.authFailuresPerPrefix },
    logger,
  );
  // What watches the bus for changes (settings, revoked keys and sessions), stopped either way.
  const watchers = [webhookSettings, keys, providers, sessions];
  let mcp: McpEndpoint | undefined;
  let views: Awaited<ReturnType<typeof startRequestViews>> | undefined;
  let health: HealthServer | undefined;
  try {
    await ensureRateLimitStream(bus.jsm, env.NATS_STREAM_REPLICAS);
    const idempotency = await createIdempotencyStore(bus.nc, {
      timeoutMs: env.BUS_TIMEOUT_MS,
      replicas: env.NATS_STREAM_REPLICAS,
    });
    views = await startRequestViews(bus, {
      logger,
      replicas: env.NATS_STREAM_REPLICAS,
      owners: requests,
    });
    const readiness = createReadinessCheck(bus.nc, env.READINESS_TIMEOUT_MS, () => accepting);
    const routes = withOpenApi(
      gatewayRoutes(env, readiness, updates, webhookSettings.current, { limiter, logger }),
    );
    // What the routes and the A2A binding share: the bus, the callers' keys and their limits.
    const shared = { nc: bus.nc, busTimeoutMs: env.BUS_TIMEOUT_MS, logger, keys, guard };
    const limits = { limiter, policies, requests, views };
    const stopping = () => updates.closed;
    const a2a = await a2aBinding(env, { ...shared, ...limits, routes, version: VERSION, stopping });
    mcp = mcpEndpoint({ ...shared, ...limits, routes, gatewayUrl: () => ownUrl(server) });
    const app = createApp({
      ...shared,
      ...limits,
      idempotency,
      readiness,
      trustProxy: env.TRUST_PROXY,
      requestTimeoutMs: env.HTTP_REQUEST_TIMEOUT_MS,
      ...(env.CONSOLE_DIR ? { consoleDir: env.CONSOLE_DIR } : {}),
      ...(env.WORKSPACE_DIR ? { workspaceDir: env.WORKSPACE_DIR } : {}),
      providers,
      sessions,
      staff: staffVerifier(env),
      routes,
      docs: docsRouter(buildOpenApi(routes)),
      mounts: [{ path: '/mcp', handle: mcpMount(mcp) }],
      routers: a2a ? [a2a] : [],
    });
    await listen(server, app, env.PORT);
    health = await startHealthPort(env.HEALTH_PORT, readiness);
  } catch (error) {
    if (server.listening) server.close();
    await views?.stop();
    await updates.close();
    for (const watcher of watchers) watcher.stop();
    await bus.nc.close();
    throw error;
  }
  const port = (server.address() as AddressInfo).port;
  logger.info({ port, health_port: health?.port, instance }, 'gateway listening');

  let stopping: Promise<void> | undefined;
  return {
    env,
    port,
    healthPort: health?.port,
    url: `http://127.0.0.1:${port}`,
    logger,
    stop() {
      stopping ??= (async () => {
        accepting = false;
        // Waiting long-polls answer now with what they have, so that closing does not wait 25 s.
        await updates.close();
        await mcp?.close();
        // Stop taking connections, let in-flight requests finish, then drain the bus.
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        await closed;
        await views?.stop();
        for (const watcher of watchers) watcher.stop();
        await bus.nc.drain();
        // Last, so that probes see the drain (`/readyz` not ready) until the process is done.
        await health?.close();
        logger.info('gateway stopped');
      })();
      return stopping;
    },
  };
}

const ownUrl = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

function staffVerifier(env: Env) {
  return createStaffVerifier({
    ...(env.STAFF_JWT_SECRET ? { secret: env.STAFF_JWT_SECRET } : {}),
    ...(env.STAFF_JWKS_URL ? { jwksUrl: env.STAFF_JWKS_URL } : {}),
    ...(env.STAFF_JWT_ISSUER ? { issuer: env.STAFF_JWT_ISSUER } : {}),
    ...(env.STAFF_JWT_AUDIENCE ? { audience: env.STAFF_JWT_AUDIENCE } : {}),
    clockSkewSeconds: env.STAFF_JWT_CLOCK_SKEW_S,
  });
}

async function listen(server: Server, app: RequestListener, port: number): Promise<void> {
  server.on('request', app);
  // Without this listener Node answers `100 Continue` at once, inviting a body that the checks
  // before it (credentials, content type, declared length) may refuse; the body reader sends it.
  server.on('checkContinue', app);
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, resolve);
  });
}
