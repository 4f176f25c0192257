import { ALL_SERVICES, type ServiceName } from '@handoff/contracts';
import {
  freePort,
  startMailpit,
  startMongo,
  startNats,
  startNatsCluster,
  startJaeger,
  TEST_NATS_USER,
  type Jaeger,
  type Mailpit,
  type MongoServer,
  type NatsServer,
} from '@handoff/testkit';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { signStaffToken, STAFF_SECRET_FILE } from './staff-token.ts';
import {
  developmentSecret,
  serviceEnvironments,
  settingsProblems,
  SHUTDOWN_TIMEOUT_MS,
} from './service-env.ts';
import { Supervised, type SupervisorEvents } from './supervisor.ts';

export { STACK_STAFF_EMAIL } from './service-env.ts';

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
  /**
   * Processes of every service: 1 (the default), or that many of each on the same NATS and
   * database, as production's replicas (their durable consumers shared, the bus calls split by
   * queue groups). The first gateway listens on `port`, the others on free ports.
   */
  replicas?: number;
  /**
   * `jaeger` (TRACING=jaeger) starts Jaeger with in-memory storage beside the other servers and
   * points every service's OTEL_EXPORTER_OTLP_ENDPOINT at it (over the caller's own). Without
   * it, services export spans only where the caller's OTEL_EXPORTER_OTLP_ENDPOINT says.
   */
  tracing?: Tracing;
  /**
   * With `tracing`: Jaeger's scheduling priority (`nice`; the bench's 19 lets it take only the CPU
   * the services leave, as a collector on machines of its own would).
   */
  tracesPriority?: number;
}

/** TRACING, `npm start`'s choice of a trace backend: `jaeger`, or none when unset. */
export const tracingSetting = z.enum(['jaeger']).optional();
export type Tracing = z.infer<typeof tracingSetting>;

/** The most replicas of each service a stack runs (8 services each: 64 processes). */
export const MAX_STACK_REPLICAS = 8;

/** One process of a service, as stack.json names it. */
export interface ReplicaState {
  pid: number | undefined;
  /** Its internal `/healthz` (with its memory) and `/readyz` port, the gateways' included. */
  health_port?: number;
}

/** A service in stack.json: its first process (as with one replica), and every one of them. */
export interface ServiceState extends ReplicaState {
  /** Each replica in order, the first one first (one entry with a single replica). */
  replicas: ReplicaState[];
}

export interface StackState {
  /** The first gateway (the stack's PORT). */
  gateway_url: string;
  /** Every gateway replica, `gateway_url` first (one entry with a single replica). */
  gateway_urls: string[];
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
  /**
   * With TRACING=jaeger: Jaeger's web UI and its HTTP query API (`/api/traces/{id}`), where every
   * service's spans go. Absent otherwise.
   */
  jaeger_url?: string;
  /** With TRACING=jaeger: the OTLP/HTTP endpoint the services export to (Jaeger's receiver). */
  otlp_url?: string;
  services: Partial<Record<ServiceName, ServiceState>>;
}

/** The stack's servers as a fault test (the chaos run) handles them. */
export interface StackFaults {
  /** The pids of the nats-server process(es) the stack started (one, or one per cluster node). */
  natsPids(): number[];
  /** SIGKILL FerretDB and start it again on the same port, flags and state dir; resolves once it accepts MongoDB connections again. Absent when the database is not FerretDB started by the stack. */
  restartFerretDB?(): Promise<void>;
  /** Stop PostgreSQL abruptly (immediate shutdown or SIGKILL of the postmaster) and start it again on the same port and data dir, FerretDB left running; resolves once PostgreSQL accepts connections. Absent when FerretDB does not run on a PostgreSQL the stack started. */
  restartPostgres?(): Promise<void>;
}

export interface Stack {
  state(): StackState;
  staffToken(): Promise<string>;
  /**
   * The servers the stack started, for fault tests: undefined when it started no nats-server
   * (the caller's NATS_URL); without the restarts the database it did not start lacks (the
   * caller's MONGO_URL, a mongod). A restart asked for once `stop` was is refused.
   */
  faults(): StackFaults | undefined;
  stop(): Promise<void>;
}

/** {@link Stack.faults} of a stack's NATS and database servers. */
export function stackFaults(
  nats: Pick<NatsServer, 'source' | 'pids'>,
  mongo: Pick<MongoServer, 'restartFerretDB' | 'restartPostgres'>,
): StackFaults | undefined {
  if (nats.source !== 'binary') return undefined;
  const { restartFerretDB, restartPostgres } = mongo;
  return {
    natsPids: () => nats.pids(),
    ...(restartFerretDB ? { restartFerretDB: () => restartFerretDB.call(mongo) } : {}),
    ...(restartPostgres ? { restartPostgres: () => restartPostgres.call(mongo) } : {}),
  };
}

/**
 * Mails Mailpit keeps (the oldest pruned past it): a bench run or a long-lived data dir must not
 * grow its database without bound, and nobody reads further back than this in its UI.
 */
export const STACK_MAIL_KEPT = 5_000;

/**
 * Brings up NATS, the database, Mailpit (unless the caller's SMTP_URL takes the mail) and all
 * eight services as separate processes (`replicas` of each), each restarted when it dies. The
 * state (URLs, pids) is kept in `<dataDir>/stack.json` for tools and tests.
 */
export async function startStack(options: StackOptions): Promise<Stack> {
  const dataDir = resolve(options.dataDir);
  const replicas = options.replicas ?? 1;
  if (!Number.isInteger(replicas) || replicas < 1 || replicas > MAX_STACK_REPLICAS) {
    throw new StackError(`replicas must be a whole number from 1 to ${MAX_STACK_REPLICAS}`);
  }
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
  const stateFile = join(dataDir, 'stack.json');
  const started = await startServers(dataDir, options);
  const servers: { stop(): Promise<void> }[] = started;
  const [nats, mongo, mail, { jaeger }] = started;
  const firstGatewayPort = options.port === 0 ? await freePort() : options.port;
  const gatewayPorts = [firstGatewayPort, ...(await freePorts(replicas - 1))];
  const healthPorts = new Map<ServiceName, number[]>();
  // Every process's internal health port (/healthz with its memory, /readyz), the gateways' too.
  for (const name of ALL_SERVICES) healthPorts.set(name, await freePorts(replicas));

  const children = new Map<ServiceName, Supervised[]>();
  const state = (): StackState => ({
    gateway_url: gatewayUrl(firstGatewayPort),
    gateway_urls: gatewayPorts.map(gatewayUrl),
    nats_url: nats.url,
    ...(nats.passwords ? { nats_user: TEST_NATS_USER, nats_password: nats.passwords.test } : {}),
    mongo_url: mongo.url,
    ...(mail.url ? { mail_url: mail.url } : {}),
    smtp_url: withoutCredentials(mail.smtpUrl),
    ...(jaeger ? { jaeger_url: jaeger.queryUrl, otlp_url: jaeger.otlpHttpUrl } : {}),
    services: Object.fromEntries(
      [...children].map(([name, processes]) => {
        const all = processes.map((child, index) => ({
          pid: child.pid,
          health_port: healthPorts.get(name)?.[index],
        }));
        return [name, { ...all[0], replicas: all }];
      }),
    ),
  });
  const saveState = () => writeFileSync(stateFile, `${JSON.stringify(state(), null, 2)}\n`);

  const envOf = serviceEnvironments({
    options,
    dataDir,
    secret,
    nats,
    mongo,
    mailSmtpUrl: mail.smtpUrl,
    ...(jaeger ? { otlpEndpoint: jaeger.otlpHttpUrl } : {}),
    gatewayPorts,
    healthPorts,
  });
  const problems = settingsProblems(envOf);
  if (problems.length > 0) {
    await Promise.allSettled(servers.map((server) => server.stop()));
    throw new StackError(`a service refuses its settings:\n${problems.join('\n')}`);
  }
  const events: SupervisorEvents = {
    ...options.events,
    onStart(childName, pid, restarts) {
      saveState();
      options.events.onStart(childName, pid, restarts);
    },
  };
  for (const name of ALL_SERVICES) {
    const processes = Array.from({ length: replicas }, (_, replica) => {
      const child = new Supervised(
        {
          name: replicaName(name, replica, replicas),
          command: process.execPath,
          args: ['src/main.ts'],
          cwd: join(REPO_ROOT, 'services', name),
          env: envOf(name, replica),
        },
        events,
      );
      child.start();
      return child;
    });
    children.set(name, processes);
  }
  saveState();

  return {
    state,
    staffToken: () => signStaffToken(secret),
    faults: () => stackFaults(nats, mongo),
    async stop() {
      const all = [...children.values()].flat();
      for (const child of all) child.hold();
      // The gateways first, so no new calls arrive while the services drain.
      await Promise.all(
        (children.get('gateway') ?? []).map((child) => child.stop(SHUTDOWN_TIMEOUT_MS + 2_000)),
      );
      await Promise.all(all.map((child) => child.stop(SHUTDOWN_TIMEOUT_MS + 2_000)));
      await Promise.all(servers.map((server) => server.stop()));
      rmSync(stateFile, { force: true });
    },
  };
}

/**
 * A service process's name in the supervisor's events and the log's prefix: the service's own
 * name with one replica, `<name>#<n>` (from 1) with several.
 */
export function replicaName(name: ServiceName, replica: number, replicas: number): string {
  return replicas === 1 ? name : `${name}#${replica + 1}`;
}

async function freePorts(count: number): Promise<number[]> {
  const ports: number[] = [];
  for (let i = 0; i < count; i += 1) ports.push(await freePort());
  return ports;
}

function gatewayUrl(port: number): string {
  return `http://127.0.0.1:${port}`;
}

/**
 * NATS (one server or a cluster), the database, the mail server and (with TRACING=jaeger)
 * Jaeger of a stack, all at once.
 */
async function startServers(
  dataDir: string,
  options: StackOptions,
): Promise<[NatsServer, MongoServer, MailServer, TraceServer]> {
  const natsNodes = options.natsNodes ?? 1;
  if (![1, 3, 5].includes(natsNodes)) throw new Error('natsNodes must be 1, 3 or 5');
  // All at once; those that started are stopped when another could not start.
  return startAll(
    natsNodes > 1 && !options.env.NATS_URL
      ? startNatsCluster({ dataDir: join(dataDir, 'nats'), size: natsNodes }).then(
          (cluster): NatsServer => ({
            url: cluster.url,
            source: 'binary',
            description: `a ${natsNodes}-node nats-server cluster`,
            passwords: cluster.passwords,
            stop: () => cluster.stop(),
            kill: () => cluster.nodes.forEach((node) => node.kill()),
            pids: () => cluster.nodes.flatMap((node) => node.pids()),
          }),
        )
      : startNats({ dataDir: join(dataDir, 'nats'), env: options.env }),
    startMongo({ dataDir: join(dataDir, 'db'), env: options.env }),
    startMail(dataDir, options.env),
    startTraces(dataDir, options.tracing, options.tracesPriority),
  );
}

/** Where the stack's spans go: its Jaeger with TRACING=jaeger, else none of the stack's. */
interface TraceServer {
  jaeger: Jaeger | undefined;
  stop(): Promise<void>;
}

/** Jaeger in memory: the traces of a development stack are not worth keeping across restarts. */
async function startTraces(
  dataDir: string,
  tracing: Tracing,
  priority: number | undefined,
): Promise<TraceServer> {
  if (tracing !== 'jaeger') return { jaeger: undefined, stop: async () => {} };
  const jaeger = await startJaeger({
    dataDir: join(dataDir, 'jaeger'),
    ...(priority === undefined ? {} : { priority }),
  });
  return { jaeger, stop: () => jaeger.stop() };
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
 * `instance` in `GET /v1/staff/health` is `<host>-<pid>-<random>`; with replicas, `pids` lists each
 * service's processes and whichever answered must be one of them). Another stack on the same port
 * fails one or both.
 */
export async function checkOwnGateway(
  gatewayUrl: string,
  staffToken: string,
  pids: Partial<Record<ServiceName, number | undefined | readonly (number | undefined)[]>>,
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
    const known = [pids[name as ServiceName]].flat().filter((pid) => pid !== undefined);
    const instancePid = /-(\d+)-[^-]+$/.exec(service.instance ?? '')?.[1];
    if (known.length > 0 && instancePid !== undefined && !known.includes(Number(instancePid))) {
      return {
        own: false,
        reason: `the gateway at ${gatewayUrl} reaches a ${name} with pid ${instancePid}, not this stack's ${known.join(' or ')}: another stack answers there`,
      };
    }
  }
  return { own: true };
}

/**
 * Polls every process of the stack until each answers ready: every gateway's `/readyz` and every
 * backend replica's own health port. With replicas, a gateway's `/readyz` passes as soon as one
 * replica of each service answers its bus call, before the others listen.
 */
export async function waitUntilEveryReplicaReady(
  state: StackState,
  timeoutMs: number,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  const probes = [
    ...state.gateway_urls,
    ...Object.values(state.services).flatMap((service) =>
      service.replicas.flatMap((replica) =>
        replica.health_port === undefined ? [] : [`http://127.0.0.1:${replica.health_port}`],
      ),
    ),
  ];
  for (const url of probes) {
    if (!(await waitUntilReady(url, deadline - Date.now()))) return false;
  }
  return true;
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
