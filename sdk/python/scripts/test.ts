// `npm test` for the Python SDK: one local stack as `npm start` runs it (tools/devstack), one
// agent integration with every scope and its test key, then pytest in .tools/python-venv with
// what the tests need in the environment (tests/conftest.py reads it). Arguments go to pytest:
//   node scripts/test.ts tests/interop/test_a2a.py -x
// The totals go to <repo>/.test-results/sdk-python.json in the shape jest's summary reporter
// writes, so scripts/test.sh counts them; the exit code is non-zero on any failed test.
import { SCOPES } from '@handoff/contracts';
import { startStack, waitUntilReady, type Stack } from '@handoff/devstack';
import { issueTestKey, onboardAgent } from '@handoff/devstack/gateway-client';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { totalsOf, type Totals } from './junit.ts';

const SDK_DIR = fileURLToPath(new URL('..', import.meta.url));
const REPO_ROOT = join(SDK_DIR, '..', '..');
const PYTHON = join(REPO_ROOT, '.tools', 'python-venv', 'bin', 'python');
const RESULTS_FILE = join(REPO_ROOT, '.test-results', 'sdk-python.json');
/** A new stack's start: its own PostgreSQL cluster and eleven processes (examples/test/support.ts). */
const STACK_READY_WITHIN_MS = 180_000;

function say(line: string): void {
  process.stderr.write(`[sdk-python] ${line}\n`);
}

function writeTotals(totals: Totals): void {
  mkdirSync(join(REPO_ROOT, '.test-results'), { recursive: true });
  writeFileSync(RESULTS_FILE, JSON.stringify({ workspace: SDK_DIR, ...totals }));
}

const NONE: Totals = {
  passed: 0,
  failed: 0,
  skipped: 0,
  suites_passed: 0,
  suites_failed: 0,
  suites_skipped: 0,
};

/** Whether the venv's Python runs and has pytest; what is missing otherwise. */
async function pythonProblem(): Promise<string | undefined> {
  if (!existsSync(PYTHON)) return `no ${PYTHON}: run \`npm run setup\` (it needs python3)`;
  const code = await run(PYTHON, ['-c', 'import pytest, handoff'], { quiet: true });
  return code === 0
    ? undefined
    : `${PYTHON} cannot import pytest and handoff: run \`npm run setup\``;
}

function run(
  command: string,
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; quiet?: boolean } = {},
): Promise<number> {
  return new Promise((resolvePromise) => {
    const child = spawn(command, args, {
      cwd: SDK_DIR,
      env: options.env ?? process.env,
      stdio: options.quiet ? 'ignore' : 'inherit',
    });
    child.on('error', () => resolvePromise(127));
    child.on('exit', (code, signal) => resolvePromise(code ?? (signal ? 128 : 1)));
  });
}

interface Harness {
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** The stack, the agent's keys and the staff token, as environment variables for pytest. */
async function startHarness(lines: string[]): Promise<Harness> {
  const dataDir = mkdtempSync(join(tmpdir(), 'handoff-sdk-python-'));
  let stack: Stack | undefined;
  const stop = async () => {
    await stack?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    stack = await startStack({
      dataDir,
      port: 0,
      logLevel: 'warn',
      env: { PAYMENT_PROVIDER: 'manual' },
      events: {
        onLine: (service, line) => {
          lines.push(`${service} | ${line}`);
          if (lines.length > 200) lines.shift();
        },
        onStart() {},
        onExit() {},
      },
    });
    const base = stack.state().gateway_url;
    if (!(await waitUntilReady(base, STACK_READY_WITHIN_MS))) {
      throw new Error(`the stack did not become ready within ${STACK_READY_WITHIN_MS / 1_000} s`);
    }
    const staffToken = await stack.staffToken();
    const agent = await onboardAgent({
      gatewayUrl: base,
      staffToken,
      scopes: SCOPES,
      appName: 'Python SDK tests',
    });
    const testKey = await issueTestKey({ gatewayUrl: base, staffToken }, agent.integration_id);
    return {
      env: {
        HANDOFF_URL: base,
        HANDOFF_API_KEY: agent.api_key,
        HANDOFF_TEST_KEY: testKey,
        HANDOFF_STAFF_TOKEN: staffToken,
        HANDOFF_INTEGRATION_ID: agent.integration_id,
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function main(): Promise<number> {
  rmSync(RESULTS_FILE, { force: true });
  const problem = await pythonProblem();
  if (problem !== undefined) {
    if (process.env['CI'] === 'true') {
      say(`${problem} (CI=true: a missing Python fails the run)`);
      writeTotals({ ...NONE, failed: 1, suites_failed: 1 });
      return 1;
    }
    say(`${problem}; the Python tests are skipped, which npm test counts against the run`);
    writeTotals({ ...NONE, skipped: 1, suites_skipped: 1 });
    return 0;
  }
  const lines: string[] = [];
  const harness = await startHarness(lines).catch((error: unknown) => {
    say(`${String(error)}\nthe services' last lines:\n${lines.slice(-40).join('\n')}`);
    return undefined;
  });
  if (harness === undefined) {
    writeTotals({ ...NONE, failed: 1, suites_failed: 1 });
    return 1;
  }
  const stopOnSignal = () => void harness.stop().finally(() => process.exit(130));
  process.once('SIGINT', stopOnSignal);
  process.once('SIGTERM', stopOnSignal);
  const reportDir = mkdtempSync(join(tmpdir(), 'handoff-pytest-'));
  const report = join(reportDir, 'junit.xml');
  try {
    const code = await run(
      PYTHON,
      [
        '-m',
        'pytest',
        `--junitxml=${report}`,
        '-o',
        'junit_family=xunit1',
        ...process.argv.slice(2),
      ],
      { env: { ...process.env, ...harness.env } },
    );
    const totals = existsSync(report)
      ? totalsOf(readFileSync(report, 'utf8'))
      : { ...NONE, failed: 1, suites_failed: 1 };
    writeTotals(totals);
    if (code !== 0 || totals.failed > 0) {
      say(`pytest exited with ${code}; the services' last lines:\n${lines.slice(-40).join('\n')}`);
      return 1;
    }
    // As jest: skips pass the run here, and scripts/test.sh fails on the skipped count.
    return 0;
  } finally {
    rmSync(reportDir, { recursive: true, force: true });
    await harness.stop();
  }
}

process.exitCode = await main();
