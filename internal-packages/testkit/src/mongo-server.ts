import type { BackendService } from '@handoff/contracts';
import { MongoClient } from 'mongodb';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from './ports.ts';
import {
  databasePasswords,
  findPostgres,
  INDEX_LAYOUT_SQL,
  postgresCluster,
  serviceLoginsSql,
  serviceRolesSql,
  type DatabasePasswords,
  type PostgresBinaries,
} from './postgres.ts';
import {
  findBinary,
  fromEnv,
  onFreePort,
  restartOrder,
  ServersUnavailableError,
  startContainer,
  startProcess,
  stopper,
  waitForPort,
  type RunningServer,
  type ServerOptions,
} from './servers.ts';

/**
 * The Go collector's target for FerretDB (`GOGC`), unless the caller's environment sets one.
 * FerretDB decodes every document it reads into short-lived objects: at Go's default of 100, a
 * CPU profile of it under the milestone-approval bench spent 16 % of its time marking, and
 * FerretDB was the largest CPU user of the stack. Its live heap is a few tens of megabytes, so
 * letting it grow to five times that before a collection costs little memory.
 */
export const FERRETDB_GOGC = '400';

/** A MongoDB-wire server; `url` is all-access (tools, tests, the bench). */
export interface MongoServer extends RunningServer {
  /**
   * Each backend service's own connection string, as its own user: present only on FerretDB on
   * PostgreSQL, where PostgreSQL refuses a service's role on any schema (database) but its own
   * `handoff_<service>`. Elsewhere locally (SQLite, a mongod, a container, the caller's URL)
   * there are no such users and services share `url`: their databases are apart by name only.
   */
  serviceUrls?: Record<BackendService, string>;
  /** The server processes running now (FerretDB and its PostgreSQL, or mongod), when ours. */
  pids?(): number[];
  /**
   * Fault tests: SIGKILLs FerretDB and starts it again on the same port, flags and state dir;
   * resolves once it answers MongoDB commands. Only on a FerretDB we started.
   */
  restartFerretDB?(): Promise<void>;
  /**
   * Fault tests: stops PostgreSQL as a crash does (immediate shutdown: no checkpoint) under a
   * running FerretDB and starts it again on the same port and data dir; resolves once it takes
   * connections. A durable cluster loses no commit; one with `durable: false` may lose the last
   * ones (its commits do not wait for the WAL). Only on FerretDB on a PostgreSQL we started.
   */
  restartPostgres?(): Promise<void>;
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
      pids: () => pidsOf(child),
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

function pidsOf(...children: (ChildProcess | undefined)[]): number[] {
  return children.flatMap((child) =>
    child?.pid !== undefined && child.exitCode === null && child.signalCode === null
      ? [child.pid]
      : [],
  );
}

let warnedSqlite = false;

function warnSqlite(env: Record<string, string | undefined>): void {
  if (warnedSqlite || env.HANDOFF_FERRETDB_BACKEND === 'sqlite') return;
  warnedSqlite = true;
  process.stderr.write(
    'FerretDB runs on SQLite: PostgreSQL was not found (Debian: apt-get install postgresql).\n' +
      'On SQLite every lookup but an exact _id scans its collection and writers queue on one\n' +
      "lock, so throughput falls as data grows; the README's figures are for PostgreSQL.\n",
  );
}

/** FerretDB on its port, given its backend's flags: how it is started, and started again. */
interface FerretDB {
  binary: string;
  port: number;
  url: string;
  dir: string;
  start(backend: string[]): Promise<ChildProcess>;
}

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
  const ferret: FerretDB = {
    binary,
    port,
    url: `mongodb://127.0.0.1:${port}/`,
    dir,
    start: (backend) =>
      startProcess('ferretdb', binary, [...backend, ...common], port, options.dataDir, ferretEnv),
  };
  const bins = ferretBackend(env) === 'postgresql' ? findPostgres(env) : undefined;
  if (bins) return startFerretOnPostgres(ferret, bins, options);
  warnSqlite(env);
  const backend = ['--handler=sqlite', `--sqlite-url=file:${dir}/`];
  let child = await ferret.start(backend);
  const order = restartOrder('FerretDB');
  return {
    url: ferret.url,
    source: 'binary',
    description: `${binary} on SQLite, port ${port}, data in ${dir}`,
    pids: () => pidsOf(child),
    // `child` when the stop runs: the process of the last restart.
    stop: () => order.stop(() => stopper(child)()),
    restartFerretDB: () =>
      order.restart(async () => {
        await stopper(child, 'SIGKILL')();
        child = await ferret.start(backend);
        await loadCatalogue(ferret.url);
      }),
  };
}

async function startFerretOnPostgres(
  ferret: FerretDB,
  bins: PostgresBinaries,
  options: ServerOptions,
): Promise<MongoServer> {
  const cluster = postgresCluster(bins, join(options.dataDir, 'postgres'), options.durable ?? true);
  let pgPort = 0;
  const startPostgres = () =>
    waitForPort('postgres', cluster.start(pgPort).child, pgPort, options.dataDir);
  let postgres = await onFreePort((port) => {
    pgPort = port;
    return startPostgres();
  });
  const backend = [
    '--handler=postgresql',
    // Clients that do not authenticate use this superuser; FerretDB passes a client's PLAIN
    // credentials on to PostgreSQL instead, with a pool (of this size) per credentials.
    `--postgresql-url=postgres://postgres@127.0.0.1:${pgPort}/postgres?pool_max_conns=100`,
  ];
  let child: ChildProcess | undefined;
  const stop = async () => {
    if (child) await stopper(child)();
    await stopper(postgres, 'SIGINT')();
  };
  const sql = (statements: string) => cluster.ready(pgPort, statements, Date.now() + 60_000);
  try {
    const passwords = databasePasswords(join(options.dataDir, 'mongo-users.json'));
    await sql(INDEX_LAYOUT_SQL + serviceRolesSql(passwords));
    child = await ferret.start(backend);
    await loadCatalogue(ferret.url);
    const order = restartOrder('FerretDB on PostgreSQL');
    return {
      url: ferret.url,
      serviceUrls: serviceUrlsOf(ferret.url, passwords),
      source: 'binary',
      description: `${ferret.binary} on PostgreSQL ${bins.version} (port ${pgPort}), port ${ferret.port}, data in ${ferret.dir}`,
      pids: () => pidsOf(child, postgres),
      stop: () => order.stop(stop),
      restartFerretDB: () =>
        order.restart(async () => {
          if (child) await stopper(child, 'SIGKILL')();
          // The superuser first (see loadCatalogue): the services' reconnects wait at the door.
          await sql(serviceLoginsSql(false));
          try {
            child = await ferret.start(backend);
            await loadCatalogue(ferret.url);
          } finally {
            await sql(serviceLoginsSql(true));
          }
        }),
      restartPostgres: () =>
        order.restart(async () => {
          // SIGQUIT: an immediate shutdown, as a crash (recovery replays the WAL at the start),
          // yet every backend ends with the postmaster, so none holds the cluster's memory.
          await stopper(postgres, 'SIGQUIT')();
          postgres = await startPostgres();
          await sql('SELECT 1');
        }),
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

function serviceUrlsOf(url: string, passwords: DatabasePasswords): Record<BackendService, string> {
  const { host } = new URL(url);
  return Object.fromEntries(
    Object.entries(passwords).map(([service, password]) => [
      service,
      `mongodb://${encodeURIComponent(service)}:${encodeURIComponent(password)}@${host}/` +
        '?authMechanism=PLAIN&authSource=%24external',
    ]),
  ) as Record<BackendService, string>;
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
