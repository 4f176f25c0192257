import { afterAll, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXIT_CONFIG, Supervised } from '../src/supervisor.ts';
import { freshEnv, REPO_ROOT, runStack } from './support/run-stack.ts';

/** `runMain`'s exit code for a start that failed other than on its settings (EX_UNAVAILABLE). */
const EXIT_START_FAILED = 69;

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'handoff-start-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('a service that cannot start', () => {
  it('exits with EX_UNAVAILABLE (69), not with the 1 of a crash', async () => {
    // Nothing listens on port 1: NATS is out of reach, as while a fault holds it.
    const child = spawn(process.execPath, ['src/main.ts'], {
      cwd: join(REPO_ROOT, 'services', 'gateway'),
      env: {
        ...freshEnv({}),
        NATS_URL: 'nats://127.0.0.1:1',
        STAFF_JWT_SECRET: 'a-development-secret-of-at-least-32-bytes',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const take = (chunk: Buffer) => (output += chunk.toString('utf8'));
    child.stdout?.on('data', take);
    child.stderr?.on('data', take);
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect({ code, output }).toEqual({
      code: EXIT_START_FAILED,
      output: expect.stringContaining('start failed'),
    });
  });
});

describe('a service that refuses its settings', () => {
  it('exits with EX_CONFIG (78) and names the setting', async () => {
    const child = spawn(process.execPath, ['src/main.ts'], {
      cwd: join(REPO_ROOT, 'services', 'gateway'),
      env: freshEnv({
        RATE_LIMIT_PER_MINUTE: '2000000',
        NATS_URL: 'nats://127.0.0.1:1',
        STAFF_JWT_SECRET: 'a-development-secret-of-at-least-32-bytes',
      }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(EXIT_CONFIG);
    expect(stderr).toContain('RATE_LIMIT_PER_MINUTE: must be at most 1000000');
  });

  it('exits with EX_CONFIG (78) on a bad METRICS too, before anything starts', async () => {
    const child = spawn(process.execPath, ['src/main.ts'], {
      cwd: join(REPO_ROOT, 'services', 'gateway'),
      env: { ...freshEnv({}), METRICS: 'sometimes' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(EXIT_CONFIG);
    expect(stderr).toContain('METRICS must be "on" or "off"');
  });

  it('is not restarted by the supervisor, which reports its last lines once', async () => {
    const fatal: { name: string; lines: readonly string[] }[] = [];
    const starts: number[] = [];
    const exits: (number | undefined)[] = [];
    let reported!: () => void;
    const done = new Promise<void>((resolve) => (reported = resolve));
    const child = new Supervised(
      {
        name: 'refuser',
        command: process.execPath,
        args: ['-e', `console.error('refuser: invalid environment'); process.exit(${EXIT_CONFIG})`],
        cwd: REPO_ROOT,
        env: { PATH: process.env.PATH ?? '' },
      },
      {
        onLine: () => undefined,
        onStart: (_name, _pid, restarts) => starts.push(restarts),
        onExit: (_name, _code, _signal, restartInMs) => exits.push(restartInMs),
        onFatal: (name, lines) => {
          fatal.push({ name, lines });
          reported();
        },
      },
    );
    child.start();
    await done;
    // A restart would come after the shortest backoff (250 ms); give it twice that.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(starts).toEqual([0]);
    expect(exits).toEqual([undefined]);
    expect(fatal).toEqual([{ name: 'refuser', lines: ['refuser: invalid environment'] }]);
    await child.stop(1_000);
  });

  it('and a crash that is not about settings is restarted', async () => {
    const starts: number[] = [];
    let second!: () => void;
    const restarted = new Promise<void>((resolve) => (second = resolve));
    const child = new Supervised(
      {
        name: 'crasher',
        command: process.execPath,
        args: ['-e', 'process.exit(1)'],
        cwd: REPO_ROOT,
        env: { PATH: process.env.PATH ?? '' },
      },
      {
        onLine: () => undefined,
        onStart: (_name, _pid, restarts) => {
          starts.push(restarts);
          if (restarts === 1) second();
        },
        onExit: () => undefined,
      },
    );
    child.start();
    await restarted;
    await child.stop(1_000);
    expect(starts.slice(0, 2)).toEqual([0, 1]);
  });
});

describe('npm start with a bad setting', () => {
  it('stops with the message instead of starting a service that restarts forever', async () => {
    const dataDir = tempDir();
    const stack = runStack({ DATA_DIR: dataDir, RATE_LIMIT_PER_MINUTE: '2000000' });
    const code = await stack.exited;
    expect(code).toBe(1);
    expect(stack.output()).toContain('[stack] cannot start: a service refuses its settings');
    expect(stack.output()).toContain('RATE_LIMIT_PER_MINUTE: must be at most 1000000');
    expect(stack.output()).not.toContain('Handoff is up');
    expect(stack.output()).not.toContain('restarting');
  });
});
