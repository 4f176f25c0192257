import type { ServiceName } from '@handoff/contracts';
import { EnvError, loadEnv } from '@handoff/config';
import { conversationEnv } from '@handoff/config/services/conversation';
import { filesEnvShape } from '@handoff/config/services/files';
import { gatewayEnv } from '@handoff/config/services/gateway';
import { milestonesEnv } from '@handoff/config/services/milestones';
import { notificationsEnv } from '@handoff/config/services/notifications';
import { paymentsEnv } from '@handoff/config/services/payments';
import { webhookDispatcherEnv as dispatcherEnv } from '@handoff/config/services/webhook-dispatcher';
import type { MongoServer, NatsServer } from '@handoff/testkit';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// Each service's environment in the development stack: what the stack decides (ports, URLs,
// users, development secrets) and the settings the caller chose for it.

const gatewayVariables = Object.keys(gatewayEnv.shape);
const dispatcherVariables = Object.keys(dispatcherEnv.shape);
const paymentsVariables = Object.keys(paymentsEnv.shape);
const notificationsVariables = Object.keys(notificationsEnv.shape);
const filesVariables = Object.keys(filesEnvShape);
const STACK_DECIDES = [
  'PORT',
  'NATS_URL',
  'NATS_USER',
  'NATS_PASSWORD',
  'MONGO_URL',
  'MONGO_DB',
  'HEALTH_PORT',
  'LOG_LEVEL',
  'STORE_LOCKS',
  'STAFF_JWT_SECRET',
];
export const SHUTDOWN_TIMEOUT_MS = 10_000;
/** Who the local stack's staff mails go to, unless STAFF_NOTIFY_EMAIL says otherwise. */
export const STACK_STAFF_EMAIL = 'staff@handoff.local';

/** What a stack's services are started with, once its servers run. */
export interface StackServices {
  /** What the caller chose (StackOptions): its variables, the log level, the NATS nodes. */
  options: {
    env: Record<string, string | undefined>;
    logLevel: string;
    natsNodes?: number;
    replicas?: number;
  };
  dataDir: string;
  /** The staff JWT secret the gateway checks tokens with. */
  secret: string;
  nats: NatsServer;
  mongo: MongoServer;
  mailSmtpUrl: string;
  /** The stack's Jaeger's OTLP/HTTP receiver (TRACING=jaeger): every service exports there. */
  otlpEndpoint?: string;
  /** Each gateway replica's port, the first one's (the stack's PORT) first. */
  gatewayPorts: readonly number[];
  /** Each backend service replica's health port, in replica order. */
  healthPorts: ReadonlyMap<ServiceName, readonly number[]>;
}

/**
 * The environment of each service process of the stack: `replica` (from 0) picks the ports of
 * that process; everything else is the same for every replica of a service.
 */
export function serviceEnvironments(
  stack: StackServices,
): (name: ServiceName, replica?: number) => Record<string, string> {
  const { options, dataDir, secret, nats, mongo, gatewayPorts, healthPorts } = stack;
  // Each service connects as its own NATS user with production's permissions; passwords are
  // made once per data dir (nats/nats-users.json). A caller's own NATS_URL has no such users.
  const natsCredentials = (name: ServiceName): Record<string, string> =>
    nats.passwords ? { NATS_USER: name, NATS_PASSWORD: nats.passwords[name] } : {};
  const common = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    NATS_URL: nats.url,
    LOG_LEVEL: options.logLevel,
    ...((options.natsNodes ?? 1) > 1 ? { NATS_STREAM_REPLICAS: String(options.natsNodes) } : {}),
    SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
    // Several replicas on one FerretDB: each document's writes take turns across processes
    // (packages/store/src/locks.ts); one replica's serializer is enough on its own.
    ...((options.replicas ?? 1) > 1 ? { STORE_LOCKS: 'true' } : {}),
    // Node options for every service process, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to
    // profile a bench run (each process writes its profile when it stops).
    ...(options.env.STACK_NODE_OPTIONS ? { NODE_OPTIONS: options.env.STACK_NODE_OPTIONS } : {}),
    // Every standard OpenTelemetry variable the caller set (the exporter, its endpoint and
    // protocol, the sampler, the batch processor, the propagators…) reaches every service, as it
    // would in production, but for the traces' endpoint when the stack runs Jaeger (TRACING);
    // METRICS=off: no metrics at all (packages/observability).
    ...pick(options.env, [
      ...Object.keys(options.env).filter(
        (key) =>
          key.startsWith('OTEL_') &&
          !(stack.otlpEndpoint && key === 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'),
      ),
      'METRICS',
    ]),
    ...(stack.otlpEndpoint ? { OTEL_EXPORTER_OTLP_ENDPOINT: stack.otlpEndpoint } : {}),
  };
  // Settings the caller chose (rate limits, timeouts, JWT checks, retry schedule) reach the
  // service they belong to; what the stack itself decides is not taken from the caller.
  const chosen = (keys: string[]) =>
    pick(
      options.env,
      keys.filter((key) => !STACK_DECIDES.includes(key)),
    );
  const gatewaySettings = chosen(gatewayVariables);
  const dispatcherSettings = {
    ...chosen(dispatcherVariables),
    WEBHOOK_ALLOW_PRIVATE_TARGETS: options.env.WEBHOOK_ALLOW_PRIVATE_TARGETS ?? 'true',
    WEBHOOK_SECRETS_KEY:
      options.env.WEBHOOK_SECRETS_KEY ??
      developmentSecret(dataDir, 'dev-webhook-secrets-key', () =>
        randomBytes(32).toString('base64'),
      ),
  };
  const notificationsSettings = {
    ...chosen(notificationsVariables),
    SMTP_URL: stack.mailSmtpUrl,
    // Mails link into this stack's gateway (the workspace, the console).
    PUBLIC_URL:
      options.env.PUBLIC_URL || `http://127.0.0.1:${portOf(gatewayPorts, 0, 'gateway port')}`,
    STAFF_NOTIFY_EMAIL: options.env.STAFF_NOTIFY_EMAIL || STACK_STAFF_EMAIL,
    // Made once, like the staff JWT secret: unsubscribe links in mails already sent keep working
    // across restarts.
    NOTIFICATIONS_SIGNING_KEY:
      options.env.NOTIFICATIONS_SIGNING_KEY ||
      developmentSecret(dataDir, 'dev-notifications-signing-key', () =>
        randomBytes(32).toString('base64'),
      ),
  };
  return (name: ServiceName, replica = 0): Record<string, string> =>
    name === 'gateway'
      ? {
          ...common,
          ...natsCredentials(name),
          ...gatewaySettings,
          PORT: portOf(gatewayPorts, replica, 'gateway port'),
          HEALTH_PORT: portOf(healthPorts.get(name), replica, 'gateway health port'),
          STAFF_JWT_SECRET: secret,
          // Made once, like the webhook secrets' key: the A2A tasks' held tokens outlive restarts.
          A2A_TOKENS_KEY:
            options.env.A2A_TOKENS_KEY ||
            developmentSecret(dataDir, 'dev-a2a-tokens-key', () =>
              randomBytes(32).toString('base64'),
            ),
          // Made once too: a download URL handed out keeps working across a restart.
          FILE_URLS_KEY:
            options.env.FILE_URLS_KEY ||
            developmentSecret(dataDir, 'dev-file-urls-key', () =>
              randomBytes(32).toString('base64'),
            ),
        }
      : {
          ...common,
          ...natsCredentials(name),
          ...(name === 'webhook-dispatcher' ? dispatcherSettings : {}),
          ...(name === 'payments' ? chosen(paymentsVariables) : {}),
          ...(name === 'notifications' ? notificationsSettings : {}),
          // The services that keep files: where the bytes go (FILES_STORE=s3 with FILES_S3_*)
          // and the limits.
          ...(name === 'conversation' || name === 'milestones' ? chosen(filesVariables) : {}),
          // Its own user where the database has them (FerretDB on PostgreSQL: a role that can
          // reach only its own database), else the shared URL; see startMongo.
          MONGO_URL: mongo.serviceUrls?.[name] ?? mongo.url,
          // A database per service, as in production, where each may get its own credentials;
          // on FerretDB's SQLite fallback each is also its own file with its own writer lock.
          MONGO_DB: `handoff_${name.replace(/-/g, '_')}`,
          HEALTH_PORT: portOf(healthPorts.get(name), replica, `${name} health port`),
        };
}

/**
 * The settings the caller chose, checked with each service's own schema before anything starts:
 * a bad one (RATE_LIMIT_PER_MINUTE over its maximum, …) stops the start with the message.
 */
export function settingsProblems(envOf: (name: ServiceName) => Record<string, string>): string[] {
  return (
    [
      ['gateway', gatewayEnv],
      ['payments', paymentsEnv],
      ['webhook-dispatcher', dispatcherEnv],
      ['notifications', notificationsEnv],
      ['conversation', conversationEnv],
      ['milestones', milestonesEnv],
    ] as const
  ).flatMap(([name, schema]) => {
    try {
      loadEnv(name, schema, envOf(name));
      return [];
    } catch (error) {
      if (error instanceof EnvError) return [error.message];
      throw error;
    }
  });
}

/**
 * A development secret of this data dir (staff JWTs, webhook secrets, the notifications signing
 * key), made once and kept.
 */
export function developmentSecret(dataDir: string, name: string, make: () => string): string {
  const file = join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = make();
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

function portOf(ports: readonly number[] | undefined, replica: number, what: string): string {
  const port = ports?.[replica];
  if (port === undefined) throw new Error(`no ${what} for replica ${replica + 1}`);
  return String(port);
}

function pick(source: Record<string, string | undefined>, keys: string[]): Record<string, string> {
  return Object.fromEntries(keys.flatMap((key) => (source[key] ? [[key, source[key]]] : [])));
}
