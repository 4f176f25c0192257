import { spawn } from 'node:child_process';
import { findBinary } from './servers.ts';

/** The stripe-mock release that `npm run setup` builds (keep in step with scripts/setup.sh). */
export const STRIPE_MOCK_VERSION = 'v0.203.0';

/** A running stripe-mock: Stripe's API, stateless, answering from its OpenAPI fixtures. */
export interface StripeMock {
  /** Its HTTP base URL, for `STRIPE_API_URL` (`http://127.0.0.1:<port>`). */
  url: string;
  stop(): Promise<void>;
}

export interface StripeMockOptions {
  /** Reads STRIPE_MOCK_URL from here first (a stripe-mock the caller runs); `process.env` by default. */
  env?: Record<string, string | undefined>;
  /** Where to look for the binary; .tools/bin and then PATH by default. */
  binDirs?: readonly string[];
}

const HOW_TO_GET_IT = [
  'The payments tests need stripe-mock (github.com/stripe/stripe-mock), the Stripe API double.',
  'Any one of these provides it:',
  `  1. run \`npm run setup\`, which builds stripe-mock ${STRIPE_MOCK_VERSION} into .tools/bin with Go;`,
  `  2. \`go install github.com/stripe/stripe-mock@${STRIPE_MOCK_VERSION}\` and put it on PATH;`,
  '  3. set STRIPE_MOCK_URL to the HTTP address of a stripe-mock you run.',
].join('\n');

export class StripeMockUnavailableError extends Error {
  constructor(detail: string) {
    super(`stripe-mock is not available: ${detail}\n${HOW_TO_GET_IT}`);
    this.name = 'StripeMockUnavailableError';
  }
}

/**
 * Starts stripe-mock on loopback ports that the system chooses (HTTP, and HTTPS which it always
 * opens), reading the HTTP port from its "Listening for HTTP" line, so no other process can take
 * the port between choosing and binding. A missing binary fails with instructions, on CI and
 * everywhere else: a payments test never skips.
 */
export async function startStripeMock(options: StripeMockOptions = {}): Promise<StripeMock> {
  const env = options.env ?? process.env;
  if (env.STRIPE_MOCK_URL) return { url: env.STRIPE_MOCK_URL, stop: async () => {} };
  const binary = await findBinary(['stripe-mock'], options.binDirs);
  if (!binary) {
    throw new StripeMockUnavailableError(
      `no stripe-mock binary in ${options.binDirs ? 'the given folders' : '.tools/bin or on PATH'}${env.CI === 'true' ? ' (CI)' : ''}.`,
    );
  }
  const child = spawn(binary, ['-http-addr', '127.0.0.1:', '-https-addr', '127.0.0.1:'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Its request log can be long; the tail explains a failed start.
  let output = '';
  let url: string | undefined;
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-4_000);
    url ??= /Listening for HTTP at address: (127\.0\.0\.1:\d+)/.exec(output)?.[1];
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let exited: number | null | undefined;
  // A test process that dies without stopping it must not leave it running.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', (code) => {
    exited = code;
    process.removeListener('exit', killOnExit);
  });

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await gone;
    clearTimeout(timer);
  };

  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (url !== undefined) return { url: `http://${url}`, stop };
    if (exited !== undefined) {
      throw new Error(`stripe-mock (${binary}) exited with code ${exited}:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  await stop();
  throw new Error(`stripe-mock did not start listening within 30 s:\n${output}`);
}
