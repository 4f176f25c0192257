// Starts `npm start`'s program (src/main.ts) as a child process, exactly as on a fresh machine:
// its own NATS and database servers, the given data dir, a free port unless told otherwise.
import { afterAll } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
export const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));
export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

export interface RunningStack {
  child: ChildProcess;
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
  /** Resolves with its exit code. */
  exited: Promise<number | null>;
  /** SIGINT (Ctrl-C) and its exit code; at once when it has exited already. */
  stop(): Promise<number | null>;
}

/**
 * The environment of a child that must start its own servers (no NATS_URL / MONGO_URL, no
 * MAILPIT_URL / MAILPIT_SMTP_URL, no SMTP_URL: its mail goes to its own Mailpit).
 */
export function freshEnv(extra: Record<string, string>): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env, ...extra };
  delete env.NATS_URL;
  delete env.MONGO_URL;
  delete env.MAILPIT_URL;
  delete env.MAILPIT_SMTP_URL;
  delete env.SMTP_URL;
  delete env.NODE_OPTIONS;
  delete env.STAFF_JWT_SECRET;
  delete env.GATEWAY;
  delete env.STAFF;
  return env;
}

export function runStack(env: Record<string, string>): RunningStack {
  let output = '';
  const child = spawn(process.execPath, [MAIN], {
    env: freshEnv({ PORT: '0', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return {
    child,
    output: () => output,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
      return exited;
    },
  };
}

/** Waits for the banner's last line (`export STAFF=…`); fails as soon as the stack exits. */
export async function untilBanner(stack: RunningStack): Promise<void> {
  for (;;) {
    if (/^export STAFF=\S+$/m.test(stack.output())) return;
    if (stack.child.exitCode !== null || stack.child.signalCode !== null) {
      throw new Error(
        `the stack exited (${stack.child.exitCode}) before its banner:\n${stack.output()}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * How long a test waits for a stack's banner: longer than the stack's own deadlines (its servers,
 * a fresh PostgreSQL cluster's initdb among them, then 60 s for every service to answer
 * `/readyz`), since the stack exits when one of those passes, which `untilBanner` reports at
 * once. A busy machine then costs time, not a timeout of the test's own.
 */
export const STACK_START_BUDGET_MS = 180_000;

/**
 * A data dir of the test file's own (named from `prefix`) and `start`, which runs a quiet stack
 * in it up to its banner. After the file's tests the stack, if started, is stopped and the dir
 * removed.
 */
export function quietStackPerFile(prefix: string): { dataDir: string; start(): Promise<void> } {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  let stack: RunningStack | undefined;
  afterAll(async () => {
    await stack?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return {
    dataDir,
    async start() {
      stack = runStack({ DATA_DIR: dataDir, STACK_QUIET: 'true', LOG_LEVEL: 'warn' });
      await untilBanner(stack);
    },
  };
}

/**
 * Stack events for a test that starts a stack in-process: they keep the services' last 200 lines,
 * and `tail()` gives the last 40, to show when the stack or the test fails.
 */
export function lastServiceLines() {
  const lines: string[] = [];
  return {
    events: {
      onLine(name: string, line: string) {
        lines.push(`${name} | ${line}`);
        if (lines.length > 200) lines.shift();
      },
      onStart() {},
      onExit() {},
    },
    tail: () => lines.slice(-40).join('\n'),
  };
}
