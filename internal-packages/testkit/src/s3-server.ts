import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { testServers, type S3Access } from './fixtures.ts';

export type { S3Access } from './fixtures.ts';
import { freePort } from './ports.ts';
import { findBinary, stopper, waitForPort } from './servers.ts';

/**
 * The Versity S3 Gateway release that `npm run setup` builds (keep in step with
 * scripts/setup.sh): an Apache-2.0 S3 server that keeps each object as a file on disk and checks
 * every request's SigV4 signature, so the files' S3 store is tested against real S3 semantics.
 */
export const VERSITYGW_VERSION = 'v1.8.0';

/** A running S3-compatible server: the worker's, or the caller's (S3_TEST_URL). */
export interface S3Server extends S3Access {
  source: 'env' | 'binary';
  description: string;
  stop(): Promise<void>;
}

export interface S3ServerOptions {
  /** Its objects (one folder per bucket), their metadata and its log go under here. */
  dataDir: string;
  /** A fixed port; a free one when omitted. */
  port?: number;
  /**
   * Reads S3_TEST_URL, S3_TEST_ACCESS_KEY_ID and S3_TEST_SECRET_ACCESS_KEY (a server the caller
   * runs, path-style, region us-east-1) from here first; `process.env` by default.
   */
  env?: Record<string, string | undefined>;
  binDirs?: readonly string[];
}

/** The root account of every test server: it listens on loopback only, for one test run. */
const TEST_ACCESS_KEY_ID = 'handoff-test';
const TEST_SECRET_ACCESS_KEY = 'handoff-test-secret';
const TEST_REGION = 'us-east-1';

const HOW_TO_GET_IT = [
  'The files tests need an S3-compatible server: the Versity S3 Gateway (github.com/versity/versitygw).',
  'Any one of these provides it:',
  `  1. run \`npm run setup\`, which builds versitygw ${VERSITYGW_VERSION} into .tools/bin with Go;`,
  `  2. \`go install github.com/versity/versitygw/cmd/versitygw@${VERSITYGW_VERSION}\` and put it on PATH;`,
  '  3. set S3_TEST_URL, S3_TEST_ACCESS_KEY_ID and S3_TEST_SECRET_ACCESS_KEY to an S3 server you run.',
].join('\n');

export class S3ServerUnavailableError extends Error {
  constructor(detail: string) {
    super(`No S3-compatible server is available: ${detail}\n${HOW_TO_GET_IT}`);
    this.name = 'S3ServerUnavailableError';
  }
}

/**
 * Starts versitygw on loopback over a POSIX folder of its own, with the fixed test account, and
 * waits until it answers. It creates no bucket: the store under test does (its `prepare`). A
 * missing binary fails with instructions, on CI and everywhere else: a files test never skips.
 */
export async function startS3Server(options: S3ServerOptions): Promise<S3Server> {
  const env = options.env ?? process.env;
  if (env.S3_TEST_URL && env.S3_TEST_ACCESS_KEY_ID && env.S3_TEST_SECRET_ACCESS_KEY) {
    const url = env.S3_TEST_URL.replace(/\/+$/, '');
    return {
      url,
      region: TEST_REGION,
      accessKeyId: env.S3_TEST_ACCESS_KEY_ID,
      secretAccessKey: env.S3_TEST_SECRET_ACCESS_KEY,
      source: 'env',
      description: `S3 server at ${url}`,
      stop: async () => {},
    };
  }
  const binary = await findBinary(['versitygw'], options.binDirs);
  if (!binary) {
    throw new S3ServerUnavailableError(
      `no versitygw binary in ${options.binDirs ? 'the given folders' : '.tools/bin or on PATH'}${env.CI === 'true' ? ' (CI)' : ''}.`,
    );
  }
  const root = join(options.dataDir, 's3');
  const objects = join(root, 'objects');
  // Metadata in a folder beside the objects rather than in extended attributes, which not every
  // filesystem a temporary folder sits on (tmpfs on older kernels) stores.
  const metadata = join(root, 'metadata');
  mkdirSync(objects, { recursive: true });
  mkdirSync(metadata, { recursive: true });
  const port = options.port ?? (await freePort());
  const args = [
    '--port',
    `127.0.0.1:${port}`,
    '--region',
    TEST_REGION,
    // Off by default in versitygw; the store's client reuses its connections as in production.
    '--keep-alive',
    '--quiet',
    'posix',
    '--sidecar',
    metadata,
    objects,
  ];
  const child = spawn(binary, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    // The account through the environment, not argv, where every process could read it.
    env: {
      ...process.env,
      ROOT_ACCESS_KEY_ID: TEST_ACCESS_KEY_ID,
      ROOT_SECRET_ACCESS_KEY: TEST_SECRET_ACCESS_KEY,
    },
  });
  // A test process that dies without stopping it must not leave it running.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.removeListener('exit', killOnExit));
  try {
    await waitForPort('versitygw', child, port, root);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    region: TEST_REGION,
    accessKeyId: TEST_ACCESS_KEY_ID,
    secretAccessKey: TEST_SECRET_ACCESS_KEY,
    source: 'binary',
    description: `versitygw at ${url}`,
    stop: stopper(child),
  };
}

/** A bucket name of its own for each call (3-63 lowercase letters, digits and hyphens). */
export function uniqueBucket(label = 't'): string {
  const safe =
    label
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '')
      .slice(0, 20) || 't';
  return `${safe}-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
}

/**
 * The FILES_S3_* variables of a service whose files go to this worker's S3 server, in a bucket
 * of its own ({@link uniqueBucket} of `label`), which the service's store creates at start.
 */
export function s3Env(label = 'files'): Record<string, string> {
  const { s3 } = testServers();
  return {
    FILES_STORE: 's3',
    FILES_S3_ENDPOINT: s3.url,
    FILES_S3_REGION: s3.region,
    FILES_S3_BUCKET: uniqueBucket(label),
    FILES_S3_ACCESS_KEY_ID: s3.accessKeyId,
    FILES_S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    FILES_S3_FORCE_PATH_STYLE: 'true',
  };
}
