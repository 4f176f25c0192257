import { ALL_SERVICES, type ServiceName } from '@handoff/contracts';
import {
  freePort,
  startMailpit,
  startMongo,
  startNats,
  startNatsCluster,
  TEST_NATS_USER,
  type Mailpit,
  type MongoServer,
  type NatsServer,
} from '@handoff/testkit';
import { EnvError, loadEnv } from '@handoff/config';
import { gatewayEnv } from '@handoff/config/services/gateway';
import { notificationsEnv } from '@handoff/config/services/notifications';
import { paymentsEnv } from '@handoff/config/services/payments';
import { webhookDispatcherEnv as dispatcherEnv } from '@handoff/config/services/webhook-dispatcher';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { signStaffToken, STAFF_SECRET_FILE } from './staff-token.ts';
import { Supervised, type SupervisorEvents } from './supervisor.ts';

const gatewayVariables = Object.keys(gatewayEnv.shape);
const dispatcherVariables = Object.keys(dispatcherEnv.shape);
const paymentsVariables = Object.keys(paymentsEnv.shape);
const notificationsVariables = Object.keys(notificationsEnv.shape);
const STACK_DECIDES = [
  'PORT',
  'NATS_URL',
  'NATS_USER',
  'NATS_PASSWORD',
  'MONGO_URL',
  'MONGO_DB',
  'HEALTH_PORT',
  'LOG_LEVEL',
  'STAFF_JWT_SECRET',
];

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface StackOptions {
  /** Where NATS, the database and the development secrets live across restarts. */
  dataDir: string;
  /** Gateway port; 0 picks a free one. */
  port: number;
  logLevel: string;
  /**
   * NATS_URL / MONGO_URL, MAILPIT_URL with MAILPIT_SMTP_URL, or SMTP_URL (mail to that server, no
   * Mailpit), when the caller runs its own servers.
   */
  env: Record<string, string | undefined>;
  events: SupervisorEvents;
  /**
   * nats-server nodes: 1 (the default) for one server, or a JetStream cluster of that many on
   * loopback with every stream replicated on all of them (NATS_STREAM_REPLICAS), as in production.
   */
  natsNodes?: number;
}

export interface StackState {
  gateway_url: string;
  nats_url: string;
  /**
   * The development stack's all-access NATS user (`test`, like the testkit's), for tools, tests
   * and the bench; absent when the caller runs NATS. Services use their own users.
   */
  nats_user?: string;
  nats_password?: string;
  mongo_url: string;
  /**
   * Mailpit's web UI and its API (under `/api/v1`): every mail the stack sends is there. Absent
   * when the caller's SMTP_URL takes the stack's mail instead.
   */
  mail_url?: string;
  /**
   * Where the stack's services hand their mail: Mailpit's `smtp://127.0.0.1:<port>` (no TLS), or
   * the caller's SMTP_URL without its credentials.
   */
  smtp_url: string;
  services: Partial<Record<ServiceName, { pid: number | undefined; health_port?: number }>>;
}

export interface Stack {
  state(): StackState;
  staffToken(): Promise<string>;
  stop(): Promise<void>;
}

const SHUTDOWN_TIMEOUT_MS = 10_000;
/**
 * Mails Mailpit keeps (the oldest pruned past it): a bench run or a long-lived data dir must not
 * grow its database without bound, and nobody reads further back than this in its UI.
 */
export const STACK_MAIL_KEPT = 5_000;
/** Who the local stack's staff mails go to, unless STAFF_NOTIFY_EMAIL says otherwise. */
export const STACK_STAFF_EMAIL = 'staff@handoff.local';

/**
 * Brings up NATS, the database, Mailpit (unless the caller's SMTP_URL takes the mail) and all
 * seven services as separate processes, each restarted when it dies. The state (URLs, pids) is
 * kept in `<dataDir>/stack.json` for tools and tests.
 */
export async function startStack(options: StackOptions): Promise<Stack> {
  const dataDir = resolve(options.dataDir);
  // A taken port would leave this stack's gateway crash-looping while another program (often
  // another stack) answers in its place: refuse before starting anything.
  if (options.port !== 0 && (await portTaken(options.port))) {
    throw new StackError(
      `port ${options.port} is taken (another Handoff stack, or another program, listens on it): stop it, or start with another PORT (PORT=0 picks a free one)`,
    );
  }
  mkdirSync(dataDir, { recursive: true });
  const secret =
    options.env.STAFF_JWT_SECRET ??
    developmentSecret(dataDir, STAFF_SECRET_FILE, () => randomBytes(32).toString('base64url'));
  const servers: { stop(): Promise<void> }[] = [];
  const stateFile = join(dataDir, 'stack.json');
  let started: [NatsServer, MongoServer, MailServer];
  try {
    const natsNodes = options.natsNodes ?? 1;
    if (![1, 3, 5].includes(natsNodes)) throw new Error('natsNodes must be 1, 3 or 5');
    // All three at once; those that started are stopped when another could not start.
    started = await startAll(
      natsNodes > 1 && !options.env.NATS_URL
        ? startNatsCluster({ dataDir: join(dataDir, 'nats'), size: natsNodes }).then(
            (cluster): NatsServer => ({
              url: cluster.url,
              source: 'binary',
              description: `a ${natsNodes}-node nats-server cluster`,
              passwords: cluster.passwords,
              stop: () => cluster.stop(),
              kill: () => cluster.nodes.forEach((node) => node.kill()),
            }),
          )
        : startNats({ dataDir: join(dataDir, 'nats'), env: options.env }),
      startMongo({ dataDir: join(dataDir, 'db'), env: options.env }),
      startMail(dataDir, options.env),
    );
    servers.push(...started);
  } catch (error) {
    await Promise.allSettled(servers.map((server) => server.stop()));
    throw error;
  }
  const [nats, mongo, mail] = started;
  // Each service connects as its own NATS user with production's permissions; passwords are
  // made once per data dir (nats/nats-users.json). A caller's own NATS_URL has no such users.
  const natsCredentials = (name: ServiceName): Record<string, string> =>
    nats.passwords ? { NATS_USER: name, NATS_PASSWORD: nats.passwords[name] } : {};
  const gatewayPort = options.port === 0 ? await freePort() : options.port;
  const healthPorts = new Map<ServiceName, number>();
  for (const name of ALL_SERVICES) if (name !== 'gateway') healthPorts.set(name, await freePort());

  const children = new Map<ServiceName, Supervised>();
  const state = (): StackState => ({
    gateway_url: `http://127.0.0.1:${gatewayPort}`,
    nats_url: nats.url,
    ...(nats.passwords ? { nats_user: TEST_NATS_USER, nats_password: nats.passwords.test } : {}),
    mongo_url: mongo.url,
    ...(mail.url ? { mail_url: mail.url } : {}),
    smtp_url: withoutCredentials(mail.smtpUrl),
    services: Object.fromEntries(
      [...children].map(([name, child]) => [
        name,
        { pid: child.pid, health_port: healthPorts.get(name) },
      ]),
    ),
  });
  const saveState = () => writeFileSync(stateFile, `${JSON.stringify(state(), null, 2)}\n`);

  const common = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    NATS_URL: nats.url,
    LOG_LEVEL: options.logLevel,
    ...((options.natsNodes ?? 1) > 1 ? { NATS_STREAM_REPLICAS: String(options.natsNodes) } : {}),
    SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
    // Node options for every service process, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to
    // profile a bench run (each process writes its profile when it stops).
    ...(options.env.STACK_NODE_OPTIONS ? { NODE_OPTIONS: options.env.STACK_NODE_OPTIONS } : {}),
    ...pick(options.env, [
      'OTEL_EXPORTER_OTLP_ENDPOINT',
      'OTEL_TRACES_EXPORTER',
      'OTEL_SERVICE_NAME',
    ]),
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
    SMTP_URL: mail.smtpUrl,
    // Mails link into this stack's gateway (the workspace, the console).
    PUBLIC_URL: options.env.PUBLIC_URL || `http://127.0.0.1:${gatewayPort}`,
    STAFF_NOTIFY_EMAIL: options.env.STAFF_NOTIFY_EMAIL || STACK_STAFF_EMAIL,
    // Made once, like the staff JWT secret: unsubscribe links in mails already sent keep working
    // across restarts.
    NOTIFICATIONS_SIGNING_KEY:
      options.env.NOTIFICATIONS_SIGNING_KEY ||
      developmentSecret(dataDir, 'dev-notifications-signing-key', () =>
        randomBytes(32).toString('base64'),
      ),
  };
  const envOf = (name: ServiceName): Record<string, string> =>
    name === 'gateway'
      ? {
          ...common,
          ...natsCredentials(name),
          ...gatewaySettings,
          PORT: String(gatewayPort),
          STAFF_JWT_SECRET: secret,
        }
      : {
          ...common,
          ...natsCredentials(name),
          ...(name === 'webhook-dispatcher' ? dispatcherSettings : {}),
          ...(name === 'payments' ? chosen(paymentsVariables) : {}),
          ...(name === 'notifications' ? notificationsSettings : {}),
          // Its own user where the database has them (FerretDB on PostgreSQL: a role that can
          // reach only its own database), else the shared URL; see startMongo.
          MONGO_URL: mongo.serviceUrls?.[name] ?? mongo.url,
          // A database per service, as in production, where each may get its own credentials;
          // on FerretDB's SQLite fallback each is also its own file with its own writer lock.
          MONGO_DB: `handoff_${name.replace(/-/g, '_')}`,
          HEALTH_PORT: String(healthPorts.get(name)),
        };
  // The settings the caller chose are checked with each service's own schema before anything
  // starts: a bad one (RATE_LIMIT_PER_MINUTE over its maximum, …) stops here with the message.
  const problems = (
    [
      ['gateway', gatewayEnv],
      ['payments', paymentsEnv],
      ['webhook-dispatcher', dispatcherEnv],
      ['notifications', notificationsEnv],
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
  if (problems.length > 0) {
    await Promise.allSettled(servers.map((server) => server.stop()));
    throw new StackError(`a service refuses its settings:\n${problems.join('\n')}`);
  }
  for (const name of ALL_SERVICES) {
    const env = envOf(name);
    const child = new Supervised(
      {
        name,
        command: process.execPath,
        args: ['src/main.ts'],
        cwd: join(REPO_ROOT, 'services', name),
        env,
      },
      {
        ...options.events,
        onStart(childName, pid, restarts) {
          saveState();
          options.events.onStart(childName, pid, restarts);
        },
      },
    );
    children.set(name, child);
    child.start();
  }
  saveState();

  return {
    state,
    staffToken: () => signStaffToken(secret),
    async stop() {
      for (const child of children.values()) child.hold();
      // The gateway first, so no new calls arrive while the services drain.
      await children.get('gateway')?.stop(SHUTDOWN_TIMEOUT_MS + 2_000);
      await Promise.all(
        [...children.values()].map((child) => child.stop(SHUTDOWN_TIMEOUT_MS + 2_000)),
      );
      await Promise.all(servers.map((server) => server.stop()));
      rmSync(stateFile, { force: true });
    },
  };
}

/** Where the stack's mail goes: a Mailpit, or an SMTP server without one (no web UI). */
type MailServer = Pick<Mailpit, 'smtpUrl' | 'stop'> & { url: string | undefined };

/**
 * The stack's Mailpit, its messages kept in the data dir like the rest of the stack's data;
 * MAILPIT_URL with MAILPIT_SMTP_URL name one the caller runs instead. SMTP_URL sends the
 * stack's mail to that server (a real one, to try delivery) and starts no Mailpit.
 */
async function startMail(
  dataDir: string,
  env: Record<string, string | undefined>,
): Promise<MailServer> {
  if (env.SMTP_URL) return { url: undefined, smtpUrl: env.SMTP_URL, stop: async () => {} };
  return startMailpit({
    dataDir: join(dataDir, 'mailpit'),
    database: join(dataDir, 'mailpit', 'mailpit.db'),
    maxMessages: STACK_MAIL_KEPT,
    chaos: false,
    env,
  });
}

/** An SMTP URL as stack.json and the banner show it: its user and password left out. */
function withoutCredentials(smtpUrl: string): string {
  try {
    const url = new URL(smtpUrl);
    url.username = '';
    url.password = '';
    return url.toString();
  } catch {
    // Not a URL: the notifications schema refuses it before any service starts.
    return smtpUrl;
  }
}

/**
 * Servers started at once (NATS, the database and Mailpit of one stack). When one cannot start,
 * the others are stopped once they have settled and the first failure is thrown: a server is
 * never left running behind a failed start.
 */
async function startAll<T extends readonly { stop(): Promise<void> }[]>(
  ...starting: { [K in keyof T]: Promise<T[K]> }
): Promise<T> {
  const results = await Promise.allSettled(starting);
  const failed = results.find((result) => result.status === 'rejected');
  if (!failed)
    return results.map(
      (result) => (result as PromiseFulfilledResult<T[number]>).value,
    ) as unknown as T;
  await Promise.allSettled(
    results.flatMap((result) => (result.status === 'fulfilled' ? [result.value.stop()] : [])),
  );
  throw failed.reason;
}

/**
 * A development secret of this data dir (staff JWTs, webhook secrets, the notifications signing
 * key), made once and kept.
 */
function developmentSecret(dataDir: string, name: string, make: () => string): string {
  const file = join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = make();
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

function pick(source: Record<string, string | undefined>, keys: string[]): Record<string, string> {
  return Object.fromEntries(keys.flatMap((key) => (source[key] ? [[key, source[key]]] : [])));
}

/** A stack that cannot start, with a message for the person who started it. */
export class StackError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StackError';
  }
}

/** Whether something already listens on `port` (on any address, as the gateway binds it). */
export function portTaken(port: number): Promise<boolean> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE' || error.code === 'EACCES') resolvePort(true);
      else reject(error);
    });
    probe.listen({ port, exclusive: true }, () => probe.close(() => resolvePort(false)));
  });
}

export type Ownership = { own: true } | { own: false; reason: string };

/**
 * Whether the gateway answering at `gatewayUrl` is this stack's own: it accepts this stack's staff
 * token, and the services it reaches over NATS are this stack's processes (each service's
 * `instance` in `GET /v1/staff/health` is `<host>-<pid>-<random>`). Another stack on the same port
 * fails one or both.
 */
export async function checkOwnGateway(
  gatewayUrl: string,
  staffToken: string,
  pids: Partial<Record<ServiceName, number | undefined>>,
): Promise<Ownership> {
  let res: Response;
  try {
    res = await fetch(`${gatewayUrl}/v1/staff/health`, {
      headers: { Authorization: `Bearer ${staffToken}` },
      signal: AbortSignal.timeout(5_000),
    });
  } catch (error) {
    return { own: false, reason: `${gatewayUrl} does not answer (${String(error)})` };
  }
  if (res.status === 401 || res.status === 403) {
    await res.body?.cancel();
    return {
      own: false,
      reason: `the gateway at ${gatewayUrl} refuses this stack's staff token (${res.status}): another stack answers there`,
    };
  }
  if (res.status !== 200 && res.status !== 503) {
    await res.body?.cancel();
    return { own: false, reason: `GET /v1/staff/health at ${gatewayUrl} answered ${res.status}` };
  }
  const body = (await res.json()) as {
    services?: Record<string, { instance?: string }>;
  };
  for (const [name, service] of Object.entries(body.services ?? {})) {
    const pid = pids[name as ServiceName];
    const instancePid = /-(\d+)-[^-]+$/.exec(service.instance ?? '')?.[1];
    if (pid !== undefined && instancePid !== undefined && Number(instancePid) !== pid) {
      return {
        own: false,
        reason: `the gateway at ${gatewayUrl} reaches a ${name} with pid ${instancePid}, not this stack's ${pid}: another stack answers there`,
      };
    }
  }
  return { own: true };
}

/** Polls the gateway's `/readyz` until every service answers. */
export async function waitUntilReady(gatewayUrl: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${gatewayUrl}/readyz`, { signal: AbortSignal.timeout(2_000) });
      if (res.status === 200) return true;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return false;
}
