import type { BackendService } from '@handoff/contracts';
import { MongoClient } from 'mongodb';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from './ports.ts';
import {
  databasePasswords,
  findPostgres,
  INDEX_LAYOUT_SQL,
  postgresCluster,
  serviceRolesSql,
} from './postgres.ts';
import {
  findBinary,
  fromEnv,
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
