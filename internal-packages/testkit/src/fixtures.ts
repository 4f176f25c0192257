import { natsInboxPrefix, type NatsUser } from '@handoff/config/nats-users';
import { randomBytes } from 'node:crypto';
import { mailpitClient, type MailpitClient } from './mailpit.ts';
import { TEST_NATS_USER, type NatsPasswords } from './natsconf.ts';

/** Where a test's S3 client connects, and as whom. */
export interface S3Access {
  /** `http://127.0.0.1:<port>`: path-style addressing only. */
  url: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

export const SERVERS_ENV = 'HANDOFF_TEST_SERVERS';

export interface WorkerServers {
  natsUrl: string;
  /** The users' passwords of this worker's nats-server (absent when NATS_URL was given). */
  natsPasswords?: NatsPasswords;
  mongoUrl: string;
  /** This worker's Mailpit: its web UI and API, and its SMTP address. */
  mailpitUrl: string;
  smtpUrl: string;
  /** This worker's S3-compatible server (versitygw), for the files' S3 store. */
  s3: S3Access;
  dataDir: string;
}

/**
 * The real NATS and MongoDB-wire servers of this jest worker, started by the testkit's global
 * setup. Fails, never skips, when they are missing.
 */
export function testServers(): WorkerServers {
  const raw = process.env[SERVERS_ENV];
  if (!raw) {
    throw new Error(
      `${SERVERS_ENV} is not set: this test needs the testkit's jest globalSetup ` +
        "(jestConfig({ servers: true }) in the workspace's jest.config.js).",
    );
  }
  const all = JSON.parse(raw) as WorkerServers[];
  const worker = Number(process.env.JEST_WORKER_ID ?? '1');
  const mine = all[(worker - 1) % all.length];
  if (!mine) throw new Error(`no servers were started for jest worker ${worker}`);
  return mine;
}

/**
 * NATS_URL, NATS_USER and NATS_PASSWORD of a service, as its Deployment gets them: tests start
 * each service as its own user, under production's permissions.
 */
export function natsEnv(
  user: NatsUser,
): Record<'NATS_URL' | 'NATS_USER' | 'NATS_PASSWORD', string> {
  const { natsUrl, natsPasswords } = testServers();
  if (!natsPasswords) return { NATS_URL: natsUrl, NATS_USER: '', NATS_PASSWORD: '' };
  return { NATS_URL: natsUrl, NATS_USER: user, NATS_PASSWORD: natsPasswords[user] };
}

/** The unsubscribe links' signing key of this test process's notifications services. */
const NOTIFICATIONS_SIGNING_KEY = randomBytes(32).toString('base64');

/**
 * A backend service's variables in a test: its NATS user, `database` on the worker's MongoDB-wire
 * server, a health port the system picks, and no log lines (`LOG_LEVEL` can be given again after).
 * The notifications service also gets the worker's Mailpit as its SMTP server and a signing key.
 */
export function serviceEnv(user: NatsUser, database: string): Record<string, string> {
  return {
    ...natsEnv(user),
    MONGO_URL: testServers().mongoUrl,
    MONGO_DB: database,
    HEALTH_PORT: '0',
    LOG_LEVEL: 'silent',
    ...(user === 'notifications'
      ? { SMTP_URL: testServers().smtpUrl, NOTIFICATIONS_SIGNING_KEY }
      : {}),
  };
}

/** This worker's Mailpit, through its API (see {@link mailpitClient}). */
export function testMail(): MailpitClient {
  return mailpitClient(testServers().mailpitUrl);
}

/**
 * Connection options for a test's own client: the test user (everything in the account) by
 * default, so that a test can publish what no service may, or a service user's.
 */
export function natsOptions(user: NatsUser | typeof TEST_NATS_USER = TEST_NATS_USER): {
  servers: string;
  user?: string;
  pass?: string;
  inboxPrefix?: string;
} {
  const { natsUrl, natsPasswords } = testServers();
  if (!natsPasswords) return { servers: natsUrl };
  const credentials = { servers: natsUrl, user, pass: natsPasswords[user] };
  // A service user may read replies only under its own inbox prefix.
  return user === TEST_NATS_USER
    ? credentials
    : { ...credentials, inboxPrefix: natsInboxPrefix(user) };
}

/** A database name of its own for each test file, so files never see each other's data. */
export function uniqueDatabase(label = 't'): string {
  const safe = label.replace(/[^A-Za-z0-9]/g, '').slice(0, 20) || 't';
  return `${safe}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
}

/**
 * Where a test's store of its own connects: this worker's database server and a fresh database on
 * it ({@link uniqueDatabase} of `label`).
 */
export function freshDatabase(label: string): { url: string; database: string } {
  return { url: testServers().mongoUrl, database: uniqueDatabase(label) };
}

/** Polls `check` until it returns a value other than undefined, or fails after `timeoutMs`. */
export async function eventually<T>(
  check: () => Promise<T | undefined> | T | undefined,
  options: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 50));
  }
  throw new Error(
    `timed out after ${options.timeoutMs ?? 10_000} ms waiting for ${options.what ?? 'a condition'}` +
      (lastError ? `: ${String(lastError)}` : ''),
    lastError === undefined ? {} : { cause: lastError },
  );
}
