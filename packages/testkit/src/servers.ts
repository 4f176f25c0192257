import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { access, constants } from 'node:fs/promises';
import { createServer, Socket, type Server } from 'node:net';
import { MongoClient } from 'mongodb';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  natsPasswords,
  natsServerConfig,
  type NatsClusterConfig,
  type NatsPasswords,
  type NatsTls,
} from './natsconf.ts';
import type { BackendService } from '@handoff/contracts';
import {
  databasePasswords,
  findPostgres,
  INDEX_LAYOUT_SQL,
  postgresCluster,
  serviceRolesSql,
} from './postgres.ts';

/** A NATS or MongoDB-wire server that a test or the local stack can use. */
export interface RunningServer {
  url: string;
  /** Where it came from: the caller's URL, a binary we started, or a container. */
  source: 'env' | 'binary' | 'container';
  description: string;
  stop(): Promise<void>;
}

/**
 * Two servers started at once (NATS and the database of one stack). When either cannot start,
 * the other is stopped once it has settled and the first failure is thrown: a server is never
 * left running for nobody to stop.
 */
export async function startPair<A extends RunningServer, B extends RunningServer>(
  first: Promise<A>,
  second: Promise<B>,
): Promise<[A, B]> {
  const [a, b] = await Promise.allSettled([first, second]);
  if (a.status === 'fulfilled' && b.status === 'fulfilled') return [a.value, b.value];
  await Promise.allSettled(
    [a, b].flatMap((result) => (result.status === 'fulfilled' ? [result.value.stop()] : [])),
  );
  throw a.status === 'rejected' ? a.reason : (b as PromiseRejectedResult).reason;
}

export interface ServerOptions {
  /** Its own data directory (JetStream store, SQLite files, mongod dbpath). */
  dataDir: string;
  /** A fixed port; a free one when omitted. */
  port?: number;
  /** Reads NATS_URL / MONGO_URL from here first; `process.env` by default. */
  env?: Record<string, string | undefined>;
  /** Where to look for server binaries; .tools/bin and then PATH by default. */
  binDirs?: readonly string[];
  /** Whether a Docker engine may be used as the last resort; true by default. */
  containers?: boolean;
  /**
   * Whether the database flushes each commit to disk; true by default. Throwaway test servers
   * turn it off: their data dies with the run, and the flushes only slow it.
   */
  durable?: boolean;
}

/** The server the caller's environment names in `variable` (not ours to stop), if it does. */
function fromEnv(
  options: ServerOptions,
  variable: 'NATS_URL' | 'MONGO_URL',
  what: string,
): RunningServer | undefined {
  const url = (options.env ?? process.env)[variable];
  if (!url) return undefined;
  return { url, source: 'env', description: `${what} at ${url}`, stop: async () => {} };
}

/** The repository's git-ignored tools folder, where `npm run setup` puts the servers it builds. */
export const TOOLS_BIN = fileURLToPath(new URL('../../../.tools/bin', import.meta.url));

const HOW_TO_GET_THEM = [
  'Handoff needs a real NATS server (2.12+, with JetStream) and a real MongoDB-wire server.',
  'Any one of these provides them:',
  '  1. set NATS_URL and MONGO_URL to servers you run;',
  '  2. run `npm run setup`, which builds nats-server and FerretDB 1.24 into .tools/bin with Go',
  '     (or put nats-server and mongod/ferretdb on PATH);',
  '  3. start a Docker engine, so that testcontainers can run nats:2.12 and mongo:7.',
].join('\n');

export class ServersUnavailableError extends Error {
  constructor(what: string, cause?: unknown) {
    super(`${what} is not available.\n${HOW_TO_GET_THEM}`, cause === undefined ? {} : { cause });
    this.name = 'ServersUnavailableError';
  }
}

const defaultBinDirs = () => [
  TOOLS_BIN,
  ...(process.env.PATH ?? '').split(delimiter).filter(Boolean),
];

export async function findBinary(
  names: readonly string[],
  dirs: readonly string[] = defaultBinDirs(),
): Promise<string | undefined> {
  for (const name of names) {
    for (const dir of dirs) {
      const candidate = join(dir, name);
      try {
        await access(candidate, constants.X_OK);
        return candidate;
      } catch {
        // not here
      }
    }
  }
  return undefined;
}

/**
 * The ports {@link freePort} has given out in this process. The kernel may offer a port again as
 * soon as the probe that found it closes: NATS and PostgreSQL of one stack, asked for at once,
 * were once both given the same one (PostgreSQL could not listen, and its set-up reached NATS).
 */
const givenOut = new Set<number>();

/** How many probes {@link freePort} holds open looking for a port it has not given out yet. */
const FREE_PORT_PROBES = 50;

/** A listener that holds a port until it is closed: {@link freePort}'s probe. */
export type PortProbe = Pick<Server, 'address' | 'close'>;

/**
 * A port on 127.0.0.1 that nothing listens on, never one this process was given before. `probe`
 * (a listener on a port the kernel picks, by default) is there for the tests.
 */
export async function freePort(probe: () => Promise<PortProbe> = listenAnywhere): Promise<number> {
  // Every probe stays open until one finds a new port, so the kernel cannot offer it twice.
  const probes: PortProbe[] = [];
  try {
    for (let i = 0; i < FREE_PORT_PROBES; i += 1) {
      const held = await probe();
      probes.push(held);
      const address = held.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      if (port !== 0 && !givenOut.has(port)) {
        givenOut.add(port);
        return port;
      }
    }
    throw new Error(`no free port after ${FREE_PORT_PROBES} probes`);
  } finally {
    await Promise.all(
      probes.map((held) => new Promise<void>((resolve) => held.close(() => resolve()))),
    );
  }
}

function listenAnywhere(): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => {
      socket.destroy();
      resolve(false);
    });
    socket.connect(port, '127.0.0.1');
  });
}

async function startProcess(
  label: string,
  command: string,
  args: string[],
  port: number,
  dataDir: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ChildProcess> {
  return waitForPort(
    label,
    spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env }),
    port,
    dataDir,
  );
}

/**
 * The Go collector's target for FerretDB (`GOGC`), unless the caller's environment sets one.
 * FerretDB decodes every document it reads into short-lived objects: at Go's default of 100, a
 * CPU profile of it under the milestone-approval bench spent 16 % of its time marking, and
 * FerretDB was the largest CPU user of the stack. Its live heap is a few tens of megabytes, so
 * letting it grow to five times that before a collection costs little memory.
 */
export const FERRETDB_GOGC = '400';

/** How much of a server's last output a {@link ServerExitedError} keeps. */
const OUTPUT_KEPT = 8_192;

/** A server that stopped before it listened, with the end of what it printed. */
export class ServerExitedError extends Error {
  readonly output: string;

  constructor(label: string, code: number | null, logFile: string, output: string) {
    super(`${label} exited with code ${code}; see ${logFile}`);
    this.name = 'ServerExitedError';
    this.output = output;
  }
}

export async function waitForPort(
  label: string,
  child: ChildProcess,
  port: number,
  dataDir: string,
): Promise<ChildProcess> {
  mkdirSync(dataDir, { recursive: true });
  const logFile = join(dataDir, `${label}.log`);
  const log = createWriteStream(logFile, { flags: 'a' });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  // The end of what it printed, for the error when it stops at start.
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-OUTPUT_KEPT);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exited: number | null | undefined;
  let closed = false;
  child.once('exit', (code) => {
    exited = code;
  });
  // Once its output has all been read (not before a child process that shares it exits too).
  child.once('close', () => {
    closed = true;
  });
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (exited !== undefined) {
      for (let waited = 0; !closed && waited < 1_000; waited += 25) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      throw new ServerExitedError(label, exited, logFile, output);
    }
    if (await canConnect(port)) {
      child.stdout?.off('data', keep);
      child.stderr?.off('data', keep);
      return child;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill('SIGKILL');
  throw new Error(`${label} did not listen on port ${port} within 30 s`);
}

/** Stops a server; PostgreSQL takes SIGINT ("fast": ends sessions) where SIGTERM would wait for them. */
export function stopper(
  child: ChildProcess,
  signal: NodeJS.Signals = 'SIGTERM',
): () => Promise<void> {
  return async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };
}

/** A NATS server with Handoff's users: `passwords` is absent for a server the caller runs. */
export interface NatsServer extends RunningServer {
  passwords?: NatsPasswords;
  /** The CA file clients need, when the server speaks TLS. */
  tlsCa?: string;
  /** Kills the server at once (SIGKILL), as a crashed node; cluster tests. */
  kill(): void;
}

export interface NatsServerOptions extends ServerOptions {
  tls?: NatsTls;
  cluster?: NatsClusterConfig;
  /** The server's name; `handoff-<port>` by default. */
  serverName?: string;
  /** Where the users' passwords are kept; `<dataDir>/nats-users.json` by default. */
  passwordsFile?: string;
}

/**
 * nats-server with the generated configuration: the account HANDOFF, one user per service with
 * production's permissions (packages/contracts/src/nats-users.ts), passwords kept in the data dir.
 */
export async function startNats(options: NatsServerOptions): Promise<NatsServer> {
  const given = fromEnv(options, 'NATS_URL', 'NATS');
  if (given) return { ...given, kill: () => {} };
  const binary = await findBinary(['nats-server'], options.binDirs);
  if (binary) {
    const port = options.port ?? (await freePort());
    const storeDir = join(options.dataDir, 'jetstream');
    const passwords = natsPasswords(
      options.passwordsFile ?? join(options.dataDir, 'nats-users.json'),
    );
    const configFile = join(options.dataDir, 'nats-server.conf');
    mkdirSync(options.dataDir, { recursive: true });
    writeFileSync(
      configFile,
      natsServerConfig({
        port,
        serverName: options.serverName ?? `handoff-${port}`,
        storeDir,
        passwords,
        ...(options.tls ? { tls: options.tls } : {}),
        ...(options.cluster ? { cluster: options.cluster } : {}),
      }),
      { mode: 0o600 },
    );
    const child = await startProcess(
      'nats-server',
      binary,
      ['-c', configFile],
      port,
      options.dataDir,
    );
    const scheme = options.tls ? 'tls' : 'nats';
    return {
      url: `${scheme}://127.0.0.1:${port}`,
      source: 'binary',
      description: `${binary} on port ${port}, data in ${storeDir}`,
      passwords,
      ...(options.tls ? { tlsCa: options.tls.ca } : {}),
      stop: stopper(child),
      kill: () => {
        child.kill('SIGKILL');
      },
    };
  }
  // Without accounts: a container cannot read the generated file without a bind mount, and the
  // permission tests then fail loudly (no passwords) instead of passing on an open server.
  const container = await startContainer(
    'NATS',
    'nats:2.12-alpine',
    ['-js'],
    4222,
    (host, port) => `nats://${host}:${port}`,
  );
  return { ...container, kill: () => {} };
}

/** A MongoDB-wire server; `url` is all-access (tools, tests, the bench). */
export interface MongoServer extends RunningServer {
  /**
   * Each backend service's own connection string, as its own user: present only on FerretDB on
   * PostgreSQL, where PostgreSQL refuses a service's role on any schema (database) but its own
   * `handoff_<service>`. Elsewhere locally (SQLite, a mongod, a container, the caller's URL)
   * there are no such users and services share `url`: their databases are apart by name only.
   */
  serviceUrls?: Record<BackendService, string>;
}

export async function startMongo(options: ServerOptions): Promise<MongoServer> {
  const given = fromEnv(options, 'MONGO_URL', 'MongoDB');
  if (given) return given;
  const mongod = await findBinary(['mongod'], options.binDirs);
  if (mongod) {
    const port = options.port ?? (await freePort());
    const dir = join(options.dataDir, 'mongod');
    mkdirSync(dir, { recursive: true });
    const child = await startProcess(
      'mongod',
      mongod,
      ['--dbpath', dir, '--port', String(port), '--bind_ip', '127.0.0.1', '--quiet'],
      port,
      options.dataDir,
    );
    return {
      url: `mongodb://127.0.0.1:${port}/`,
      source: 'binary',
      description: `${mongod} on port ${port}, data in ${dir}`,
      stop: stopper(child),
    };
  }
  const ferretdb = await findBinary(['ferretdb'], options.binDirs);
  if (ferretdb) return startFerretDB(ferretdb, options, options.env ?? process.env);
  return startContainer(
    'MongoDB',
    'mongo:7',
    [],
    27017,
    (host, port) => `mongodb://${host}:${port}/`,
  );
}

/** The backend FerretDB runs on: PostgreSQL where it is installed, else SQLite (and says why). */
export function ferretBackend(env: Record<string, string | undefined>): 'postgresql' | 'sqlite' {
  if (env.HANDOFF_FERRETDB_BACKEND === 'sqlite') return 'sqlite';
  if (findPostgres(env)) return 'postgresql';
  if (env.HANDOFF_FERRETDB_BACKEND === 'postgresql') {
    throw new ServersUnavailableError(
      'PostgreSQL (HANDOFF_FERRETDB_BACKEND=postgresql)',
      new Error(
        'no initdb/postgres/psql under /usr/lib/postgresql/<major>/bin or HANDOFF_POSTGRES_BIN',
      ),
    );
  }
  return 'sqlite';
}

let warnedSqlite = false;

async function startFerretDB(
  binary: string,
  options: ServerOptions,
  env: Record<string, string | undefined>,
): Promise<MongoServer> {
  const port = options.port ?? (await freePort());
  const dir = join(options.dataDir, 'ferretdb');
  mkdirSync(dir, { recursive: true });
  const common = [
    `--listen-addr=127.0.0.1:${port}`,
    `--debug-addr=127.0.0.1:${process.env.HANDOFF_FERRETDB_DEBUG_PORT ?? 0}`,
    `--state-dir=${dir}`,
    '--telemetry=disable',
    '--log-level=warn',
  ];
  const ferretEnv = { ...process.env, GOGC: process.env.GOGC ?? FERRETDB_GOGC };
  const bins = ferretBackend(env) === 'postgresql' ? findPostgres(env) : undefined;
  if (!bins) {
    if (!warnedSqlite && env.HANDOFF_FERRETDB_BACKEND !== 'sqlite') {
      warnedSqlite = true;
      process.stderr.write(
        'FerretDB runs on SQLite: PostgreSQL was not found (Debian: apt-get install postgresql).\n' +
          'On SQLite every lookup but an exact _id scans its collection and writers queue on one\n' +
          "lock, so throughput falls as data grows; the README's figures are for PostgreSQL.\n",
      );
    }
    const child = await startProcess(
      'ferretdb',
      binary,
      ['--handler=sqlite', `--sqlite-url=file:${dir}/`, ...common],
      port,
      options.dataDir,
      ferretEnv,
    );
    return {
      url: `mongodb://127.0.0.1:${port}/`,
      source: 'binary',
      description: `${binary} on SQLite, port ${port}, data in ${dir}`,
      stop: stopper(child),
    };
  }
  const pgPort = await freePort();
  const cluster = postgresCluster(bins, join(options.dataDir, 'postgres'), options.durable ?? true);
  const started = cluster.start(pgPort);
  const postgres = await waitForPort('postgres', started.child, pgPort, options.dataDir);
  const stopPostgres = stopper(postgres, 'SIGINT');
  try {
    const passwords = databasePasswords(join(options.dataDir, 'mongo-users.json'));
    await cluster.ready(pgPort, INDEX_LAYOUT_SQL + serviceRolesSql(passwords), Date.now() + 30_000);
    const child = await startProcess(
      'ferretdb',
      binary,
      [
        '--handler=postgresql',
        // Clients that do not authenticate use this superuser; FerretDB passes a client's PLAIN
        // credentials on to PostgreSQL instead, with a pool (of this size) per credentials.
        `--postgresql-url=postgres://postgres@127.0.0.1:${pgPort}/postgres?pool_max_conns=100`,
        ...common,
      ],
      port,
      options.dataDir,
      ferretEnv,
    );
    const stopFerret = stopper(child);
    const url = `mongodb://127.0.0.1:${port}/`;
    try {
      await loadCatalogue(url);
    } catch (error) {
      await stopFerret();
      throw error;
    }
    const serviceUrls = Object.fromEntries(
      Object.entries(passwords).map(([service, password]) => [
        service,
        `mongodb://${encodeURIComponent(service)}:${encodeURIComponent(password)}@127.0.0.1:${port}/` +
          '?authMechanism=PLAIN&authSource=%24external',
      ]),
    ) as Record<BackendService, string>;
    return {
      url,
      serviceUrls,
      source: 'binary',
      description: `${binary} on PostgreSQL ${bins.version} (port ${pgPort}), port ${port}, data in ${dir}`,
      stop: async () => {
        await stopFerret();
        await stopPostgres();
      },
    };
  } catch (error) {
    await stopPostgres();
    throw error;
  }
}

/**
 * FerretDB 1.24 reads its catalogue of databases once, through the first client's credentials,
 * and PostgreSQL shows a role only the schemas it may use: were a service first, the others'
 * existing databases would be missing from the catalogue, and FerretDB would try to create them
 * again ("relation _ferretdb_database_metadata already exists"). So the superuser asks first.
 */
async function loadCatalogue(url: string): Promise<void> {
  const client = new MongoClient(url, { serverSelectionTimeoutMS: 10_000 });
  try {
    await client.db('admin').admin().listDatabases();
  } finally {
    await client.close();
  }
}

async function startContainer(
  what: string,
  image: string,
  command: string[],
  port: number,
  url: (host: string, port: number) => string,
): Promise<RunningServer> {
  if (!dockerMayBeRunning()) throw new ServersUnavailableError(what);
  try {
    const { GenericContainer, Wait } = await import('testcontainers');
    let container = new GenericContainer(image)
      .withExposedPorts(port)
      .withWaitStrategy(Wait.forListeningPorts());
    if (command.length > 0) container = container.withCommand(command);
    const started = await container.start();
    return {
      url: url(started.getHost(), started.getMappedPort(port)),
      source: 'container',
      description: `${image} in a container`,
      stop: async () => {
        await started.stop();
      },
    };
  } catch (error) {
    throw new ServersUnavailableError(what, error);
  }
}

function dockerMayBeRunning(): boolean {
  return Boolean(process.env.DOCKER_HOST) || existsSync('/var/run/docker.sock');
}

export interface NatsCluster {
  /** The client URLs of every node, comma-separated: NATS_URL. */
  url: string;
  nodes: NatsServer[];
  passwords: NatsPasswords;
  stop(): Promise<void>;
}

interface ClusterOptions {
  dataDir: string;
  size: number;
  binDirs?: readonly string[];
  /** Picks each port; a free one by default. */
  pickPort?: () => Promise<number>;
}

/** How many times a cluster start is tried with fresh ports when one was taken meanwhile. */
const CLUSTER_START_ATTEMPTS = 3;

/**
 * A JetStream cluster of `size` nats-servers on loopback, with the generated configuration and
 * one set of passwords; resolves once every node listens (JetStream elects its leaders after).
 *
 * Its 2 × `size` ports are free when picked and taken only when the nodes start: on a busy
 * machine another socket can take one in between (a bench run lost its 3-node stack to
 * "address already in use"). Then every node is stopped and the cluster starts again on fresh
 * ports, {@link CLUSTER_START_ATTEMPTS} times at most. `pickPort` is for tests.
 */
export async function startNatsCluster(options: ClusterOptions): Promise<NatsCluster> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startClusterOnce(options);
    } catch (error) {
      if (!(error instanceof PortTakenError) || attempt >= CLUSTER_START_ATTEMPTS) throw error;
    }
  }
}

/** A node could not listen: a port picked free was taken before the node bound it. */
class PortTakenError extends Error {}

async function startClusterOnce(options: ClusterOptions): Promise<NatsCluster> {
  const pickPort = options.pickPort ?? freePort;
  const clientPorts: number[] = [];
  const routePorts: number[] = [];
  for (let index = 0; index < options.size; index += 1) {
    clientPorts.push(await pickPort());
    routePorts.push(await pickPort());
  }
  const passwordsFile = join(options.dataDir, 'nats-users.json');
  const passwords = natsPasswords(passwordsFile);
  const started = await Promise.allSettled(
    clientPorts.map((port, index) =>
      startNats({
        dataDir: join(options.dataDir, `node-${index + 1}`),
        env: {},
        port,
        passwordsFile,
        serverName: `handoff-node-${index + 1}`,
        cluster: {
          name: 'handoff',
          port: routePorts[index] ?? 0,
          routes: routePorts.filter((_, other) => other !== index),
        },
        ...(options.binDirs ? { binDirs: options.binDirs } : {}),
      }),
    ),
  );
  const failed = started.flatMap((result) =>
    result.status === 'rejected' ? [result.reason as unknown] : [],
  );
  const nodes = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  if (failed.length > 0) {
    await Promise.allSettled(nodes.map((node) => node.stop()));
    const taken = failed.some(
      (reason) =>
        reason instanceof ServerExitedError && /address already in use/i.test(reason.output),
    );
    if (taken) throw new PortTakenError('a port of the cluster was taken before a node bound it');
    throw failed[0];
  }
  if (nodes.some((node) => node.source !== 'binary')) {
    await Promise.allSettled(nodes.map((node) => node.stop()));
    throw new ServersUnavailableError('nats-server (a binary, for a cluster)');
  }
  return {
    url: nodes.map((node) => node.url).join(','),
    nodes,
    passwords,
    stop: async () => {
      await Promise.allSettled(nodes.map((node) => node.stop()));
    },
  };
}
