import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { BACKEND_SERVICES, type BackendService } from '@handoff/contracts';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { userInfo } from 'node:os';

/**
 * PostgreSQL as FerretDB's backend, for the local stack, the tests and the bench.
 *
 * Why: FerretDB 1.24 on SQLite applies every filter but an exact `{_id}` in Go after reading the
 * whole collection, and even `{_id}` misses its index; writers queue on one lock and sleep-poll.
 * On PostgreSQL, FerretDB pushes every equality filter down as `_jsonb -> 'field' @> value`, and
 * writers run concurrently. Its own indexes are btree indexes on `_jsonb -> 'field'`, which
 * cannot serve `@>`; so an event trigger gives every such index a GIN twin on the same expression,
 * and `plan_cache_mode = force_custom_plan` lets the planner see the field name (FerretDB passes
 * it as a parameter) and use the twin. With both, an equality lookup costs the same at 100k
 * documents as at 1k. Nothing of this reaches the services: they declare MongoDB indexes, which
 * MongoDB 7 serves natively in production.
 */

/**
 * The index layout FerretDB's indexes get here, applied by an event trigger as FerretDB creates
 * them and at every start to what older data dirs hold:
 *
 * - a GIN (`jsonb_path_ops`) twin beside each top-level field of a btree index, which serves
 *   FerretDB's `@>` equalities;
 * - each non-unique btree index itself becomes an empty placeholder of the same name (`WHERE
 *   false`): FerretDB pushes down no range and sorts only by its record id, so such an index
 *   served no query, yet every insert and update paid for its entries. The name stays so that
 *   FerretDB's `dropIndexes` still finds an index to drop. Unique indexes stay as they are: they
 *   enforce the constraint, and the `_id` one serves FerretDB's `_id` lookups of updates.
 */
export const INDEX_LAYOUT_SQL = `
CREATE OR REPLACE FUNCTION handoff_index_layout(idx oid) RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE
  ix record;
  k int;
  expr text;
BEGIN
  SELECT i.indrelid::regclass AS tbl, i.indnkeyatts AS nkeys, i.indisunique AS uniq,
         i.indpred IS NOT NULL AS partial, am.amname AS method, c.relname AS name,
         n.nspname AS schema
    INTO ix
    FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am am ON am.oid = c.relam
         JOIN pg_namespace n ON n.oid = c.relnamespace
   WHERE i.indexrelid = idx;
  IF NOT FOUND OR ix.method IS DISTINCT FROM 'btree' OR ix.partial THEN RETURN; END IF;
  -- Only FerretDB's indexes: every key an expression on its document column.
  FOR k IN 1..ix.nkeys LOOP
    IF pg_get_indexdef(idx, k, false) !~ '^\\(+_jsonb ' THEN RETURN; END IF;
  END LOOP;
  FOR k IN 1..ix.nkeys LOOP
    expr := pg_get_indexdef(idx, k, false);
    -- Only a top-level field: FerretDB queries nested paths with #>, which this would not match.
    CONTINUE WHEN expr !~ '^\\(+_jsonb -> ''[^'']+''::text\\)+$';
    EXECUTE format(
      'CREATE INDEX IF NOT EXISTS %I ON %s USING gin (%s jsonb_path_ops) WITH (fastupdate = off)',
      left(split_part(ix.tbl::text, '.', 2), 40) || '_gin_' || left(md5(expr), 12),
      ix.tbl,
      expr
    );
  END LOOP;
  IF NOT ix.uniq THEN
    EXECUTE format('DROP INDEX %I.%I', ix.schema, ix.name);
    EXECUTE format('CREATE INDEX %I ON %s ((1)) WHERE false', ix.name, ix.tbl);
  END IF;
END
$fn$;
CREATE OR REPLACE FUNCTION handoff_index_layout_of_new() RETURNS event_trigger
LANGUAGE plpgsql AS $fn$
DECLARE
  cmd record;
BEGIN
  FOR cmd IN SELECT objid FROM pg_event_trigger_ddl_commands()
             WHERE command_tag = 'CREATE INDEX' AND object_type = 'index' LOOP
    PERFORM handoff_index_layout(cmd.objid);
  END LOOP;
END
$fn$;
-- The trigger's name before it made placeholders too, in older data dirs.
DROP EVENT TRIGGER IF EXISTS handoff_gin_twins;
DROP FUNCTION IF EXISTS handoff_gin_twins();
DROP EVENT TRIGGER IF EXISTS handoff_index_layout;
CREATE EVENT TRIGGER handoff_index_layout ON ddl_command_end WHEN TAG IN ('CREATE INDEX')
  EXECUTE FUNCTION handoff_index_layout_of_new();
DO $layout$ DECLARE idx oid; BEGIN
  FOR idx IN SELECT i.indexrelid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
              JOIN pg_namespace n ON n.oid = c.relnamespace
             WHERE n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast') LOOP
    PERFORM handoff_index_layout(idx);
  END LOOP;
END $layout$;
`;

/**
 * Who may log in: the superuser `postgres` without a password (FerretDB's own connection, the
 * set-up's psql, and so every client that does not authenticate: the all-access URL of tools,
 * tests and the bench), every other role only with its password. Written at every start, so a
 * cluster made before the service roles existed (initdb's `trust` for all) gets it too.
 */
const PG_HBA = [
  '# Written by internal-packages/testkit (postgres.ts) at every start; edits are lost.',
  'host all postgres 127.0.0.1/32 trust',
  'host all all 127.0.0.1/32 scram-sha-256',
  '',
].join('\n');

/** A service's database, as the stack names it (MONGO_DB) and as production's users are scoped. */
export function serviceDatabase(service: BackendService): string {
  return `handoff_${service.replace(/-/g, '_')}`;
}

export type DatabasePasswords = Record<BackendService, string>;

/**
 * The service roles' passwords, made once per data dir and kept there, as the NATS ones. A data
 * dir made before a service was added gets that service's password added to its file (and the
 * role, at the cluster's next start, from {@link serviceRolesSql}).
 */
export function databasePasswords(file: string): DatabasePasswords {
  const kept = existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as Partial<DatabasePasswords>)
    : {};
  if (BACKEND_SERVICES.every((service) => kept[service])) return kept as DatabasePasswords;
  const passwords = Object.fromEntries(
    BACKEND_SERVICES.map((service) => [
      service,
      kept[service] ?? randomBytes(24).toString('base64url'),
    ]),
  ) as DatabasePasswords;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(passwords, null, 2)}\n`, { mode: 0o600 });
  return passwords;
}

/**
 * One PostgreSQL role per backend service, named as its MongoDB user in production
 * (deploy/compose/mongo-users.js, the operator's users), that may create schemas (FerretDB's
 * databases) and owns its own `handoff_<service>` one; it has no grant on any other schema, so
 * PostgreSQL refuses its credentials there. A service's schema and tables belong to its role
 * whoever made them: an event trigger hands over what the superuser creates there (a tool that
 * writes first, the bench's preload), and the start hands over what older data dirs hold.
 */
export function serviceRolesSql(passwords: DatabasePasswords): string {
  const roles = BACKEND_SERVICES.map((service) => {
    const role = `"${service}"`;
    return `
DO $r$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${service}') THEN
    CREATE ROLE ${role} LOGIN;
  END IF;
END $r$;
ALTER ROLE ${role} LOGIN NOSUPERUSER NOCREATEROLE NOCREATEDB PASSWORD '${passwords[service]}';
GRANT CONNECT, CREATE ON DATABASE postgres TO ${role};
SELECT handoff_give_schema('${serviceDatabase(service)}');`;
  }).join('\n');
  return `
CREATE OR REPLACE FUNCTION handoff_give_schema(target name) RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE
  owner_role name;
  tbl record;
BEGIN
  SELECT rolname INTO owner_role FROM pg_roles
   WHERE 'handoff_' || replace(rolname, '-', '_') = target AND NOT rolsuper;
  IF owner_role IS NULL OR NOT EXISTS (SELECT FROM pg_namespace WHERE nspname = target) THEN
    RETURN;
  END IF;
  IF (SELECT nspowner::regrole::name FROM pg_namespace WHERE nspname = target) <> owner_role THEN
    EXECUTE format('ALTER SCHEMA %I OWNER TO %I', target, owner_role);
  END IF;
  FOR tbl IN SELECT c.oid::regclass AS name FROM pg_class c
              JOIN pg_namespace n ON n.oid = c.relnamespace
             WHERE n.nspname = target AND c.relkind IN ('r', 'p', 'S', 'v', 'm')
               AND c.relowner::regrole::name <> owner_role LOOP
    EXECUTE format('ALTER TABLE %s OWNER TO %I', tbl.name, owner_role);
  END LOOP;
END
$fn$;
CREATE OR REPLACE FUNCTION handoff_give_created() RETURNS event_trigger
LANGUAGE plpgsql AS $fn$
DECLARE
  cmd record;
BEGIN
  IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
    RETURN;
  END IF;
  FOR cmd IN SELECT command_tag, object_identity, schema_name FROM pg_event_trigger_ddl_commands()
             WHERE command_tag IN ('CREATE SCHEMA', 'CREATE TABLE') LOOP
    PERFORM handoff_give_schema(coalesce(cmd.schema_name, cmd.object_identity));
  END LOOP;
END
$fn$;
DROP EVENT TRIGGER IF EXISTS handoff_give_created;
CREATE EVENT TRIGGER handoff_give_created ON ddl_command_end
  WHEN TAG IN ('CREATE SCHEMA', 'CREATE TABLE') EXECUTE FUNCTION handoff_give_created();
${roles}
`;
}

/**
 * Lets the service roles log in (`true`) or not. A restarted FerretDB reads its catalogue of
 * databases through the first client's credentials (see mongo-server.ts, `loadCatalogue`): the
 * restart holds the services' logins until the superuser has been first.
 */
export function serviceLoginsSql(login: boolean): string {
  return BACKEND_SERVICES.map(
    (service) => `ALTER ROLE "${service}" ${login ? 'LOGIN' : 'NOLOGIN'};`,
  ).join('\n');
}

export interface PostgresBinaries {
  dir: string;
  version: string;
}

/** Debian's PostgreSQL (the newest installed major), or `HANDOFF_POSTGRES_BIN`. */
export function findPostgres(
  env: Record<string, string | undefined>,
): PostgresBinaries | undefined {
  const usable = (dir: string) =>
    ['initdb', 'postgres', 'psql'].every((name) => existsSync(join(dir, name)));
  if (env.HANDOFF_POSTGRES_BIN) {
    return usable(env.HANDOFF_POSTGRES_BIN)
      ? { dir: env.HANDOFF_POSTGRES_BIN, version: 'custom' }
      : undefined;
  }
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const majors = readdirSync(root)
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(b) - Number(a));
  for (const major of majors) {
    const dir = join(root, major, 'bin');
    if (usable(dir)) return { dir, version: major };
  }
  return undefined;
}

/**
 * PostgreSQL refuses to run as root. As root, the cluster belongs to the `postgres` system user
 * (Debian's package makes it) and the server runs as that user; the folders above the cluster
 * must let it through.
 */
function runAs(): { uid: number; gid: number } | undefined {
  if (userInfo().uid !== 0) return undefined;
  const result = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const group = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (result.status !== 0 || group.status !== 0) {
    throw new Error('running as root, and there is no `postgres` user for the PostgreSQL server');
  }
  return { uid: Number(result.stdout.trim()), gid: Number(group.stdout.trim()) };
}

function letThrough(dir: string): void {
  for (let current = dir; current !== dirname(current); current = dirname(current)) {
    const mode = statSync(current).mode;
    if ((mode & 0o001) === 0) chmodSync(current, mode | 0o011);
  }
}

function asUser(user: { uid: number; gid: number } | undefined, command: string, args: string[]) {
  return user
    ? {
        command: 'setpriv',
        args: [
          `--reuid=${user.uid}`,
          `--regid=${user.gid}`,
          '--init-groups',
          '--',
          command,
          ...args,
        ],
      }
    : { command, args };
}

export interface PostgresCluster {
  /** Starts the server on `port` and returns it, with the twins installed. */
  start(port: number): { child: ChildProcess; command: string; args: string[] };
  /** Runs SQL as the superuser once the server accepts connections (retried while it starts). */
  ready(port: number, sql: string, deadline: number): Promise<void>;
}

/** A cluster in `dir`, made on first use; `durable: false` trades crash safety for speed (tests). */
export function postgresCluster(
  bins: PostgresBinaries,
  dir: string,
  durable: boolean,
): PostgresCluster {
  const user = runAs();
  const data = join(dir, 'data');
  mkdirSync(dir, { recursive: true });
  if (user) {
    chownSync(dir, user.uid, user.gid);
    letThrough(dirname(dir));
  }
  if (!existsSync(join(data, 'PG_VERSION'))) {
    const init = asUser(user, join(bins.dir, 'initdb'), [
      '-D',
      data,
      '-U',
      'postgres',
      '--auth=trust',
      '-E',
      'UTF8',
      '--locale=C',
      ...(durable ? [] : ['--no-sync']),
    ]);
    const result = spawnSync(init.command, init.args, { encoding: 'utf8' });
    if (result.status !== 0) {
      throw new Error(`initdb failed in ${data}:\n${result.stderr || result.stdout}`);
    }
  }
  const settings = [
    'listen_addresses=127.0.0.1',
    'unix_socket_directories=',
    'plan_cache_mode=force_custom_plan',
    // FerretDB keeps one pool per credentials: the superuser's and each service role's.
    'max_connections=650',
    'shared_buffers=128MB',
    // For profiling: more `name=value` settings, `;`-separated (e.g. pg_stat_statements).
    ...(process.env.HANDOFF_POSTGRES_SETTINGS?.split(';').filter(Boolean) ?? []),
    // Throwaway test clusters skip the flushes; the local stack and the bench keep them.
    ...(durable ? [] : ['fsync=off', 'synchronous_commit=off', 'full_page_writes=off']),
  ];
  const psql = (port: number, sql: string) => {
    const run = asUser(user, join(bins.dir, 'psql'), [
      '-h',
      '127.0.0.1',
      '-p',
      String(port),
      '-U',
      'postgres',
      '-d',
      'postgres',
      '-v',
      'ON_ERROR_STOP=1',
      '-q',
      '-c',
      sql,
    ]);
    // Not spawnSync: a fault test's restart waits here while the caller's load keeps running.
    return new Promise<{ ok: boolean; stderr: string }>((resolve) => {
      execFile(run.command, run.args, { encoding: 'utf8' }, (error, _stdout, stderr) =>
        resolve({ ok: error === null, stderr }),
      );
    });
  };
  return {
    start(port) {
      const hba = join(data, 'pg_hba.conf');
      writeFileSync(hba, PG_HBA, { mode: 0o600 });
      if (user) chownSync(hba, user.uid, user.gid);
      const run = asUser(user, join(bins.dir, 'postgres'), [
        '-D',
        data,
        '-p',
        String(port),
        ...settings.flatMap((setting) => ['-c', setting]),
      ]);
      const child = spawn(run.command, run.args, { stdio: ['ignore', 'pipe', 'pipe'] });
      return { child, ...run };
    },
    async ready(port, sql, deadline) {
      for (;;) {
        const result = await psql(port, sql);
        if (result.ok) return;
        if (Date.now() > deadline) {
          throw new Error(`PostgreSQL on port ${port} did not take its set-up:\n${result.stderr}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
  };
}
