// `npm start`'s command line: `--replicas N` (as STACK_REPLICAS, and winning over it), refused
// with a message when bad, before anything starts.
import { afterAll, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseStartArgs, START_HELP } from '../src/start-args.ts';
import { StackError } from '../src/stack.ts';
import { freshEnv, MAIN } from './support/run-stack.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Runs `npm start`'s program with `args` in a data dir of its own; its exit code and output. */
function start(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; output: string; dataDir: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'handoff-start-args-'));
  dirs.push(dataDir);
  const child = spawn(process.execPath, [MAIN, ...args], {
    env: freshEnv({ DATA_DIR: dataDir, PORT: '0', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  return new Promise((resolve) =>
    child.once('close', (code) => resolve({ code, output, dataDir })),
  );
}

describe('parseStartArgs', () => {
  it('reads --replicas N and --replicas=N, and nothing as no choice', () => {
    expect(parseStartArgs(['--replicas', '2'])).toEqual({ help: false, replicas: 2 });
    expect(parseStartArgs(['--replicas=8'])).toEqual({ help: false, replicas: 8 });
    expect(parseStartArgs([])).toEqual({ help: false, replicas: undefined });
    expect(parseStartArgs(['-h'])).toEqual({ help: true });
    expect(parseStartArgs(['--help'])).toEqual({ help: true });
  });

  it('refuses a count out of 1 to 8, a non-number, a missing value and unknown arguments', () => {
    for (const bad of ['0', '9', '-1', '1.5', 'two', '', '2x']) {
      expect(() => parseStartArgs([`--replicas=${bad}`])).toThrow(
        new StackError(`--replicas must be a whole number from 1 to 8, not "${bad}"`),
      );
    }
    expect(() => parseStartArgs(['--replicas'])).toThrow(/--replicas.*argument missing/);
    expect(() => parseStartArgs(['--replica', '2'])).toThrow(/Unknown option '--replica'/);
    expect(() => parseStartArgs(['2'])).toThrow(StackError);
  });
});

describe('npm start -- --replicas', () => {
  it('refuses a bad count with its message, before starting anything', async () => {
    const { code, output, dataDir } = await start(['--replicas', '0']);
    expect(code).toBe(1);
    expect(output).toBe(
      '[stack] --replicas must be a whole number from 1 to 8, not "0"\n' +
        '[stack] npm start -- --help shows its options.\n',
    );
    expect(existsSync(join(dataDir, 'logs'))).toBe(false);
  });

  it('prints its help', async () => {
    const { code, output } = await start(['--help']);
    expect(code).toBe(0);
    expect(output).toBe(`${START_HELP}\n`);
    expect(output).toContain('--replicas N');
  });

  it('wins over STACK_REPLICAS, which is refused without it', async () => {
    // A taken port stops the stack right after its settings are read: nothing starts.
    const taken: Server = await new Promise((resolve) => {
      const server = createServer();
      server.listen(0, () => resolve(server));
    });
    try {
      const address = taken.address();
      const port = String(typeof address === 'object' && address ? address.port : 0);
      const alone = await start([], { STACK_REPLICAS: '9', PORT: port });
      expect(alone.code).toBe(1);
      expect(alone.output).toContain('STACK_REPLICAS');
      const flagged = await start(['--replicas', '2'], { STACK_REPLICAS: '9', PORT: port });
      expect(flagged.code).toBe(1);
      expect(flagged.output).not.toContain('STACK_REPLICAS');
      expect(flagged.output).toContain(`[stack] cannot start: port ${port} is taken`);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});
