// The README's walkthrough, run as written: every ```bash block of README.md, in order, as one
// `bash -euo pipefail` script, at the repository root, against a fresh stack started as `npm start`
// starts it. A command that fails, an id that is not captured or a step out of order fails it.
import { beforeAll, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { bashBlocks, README, readmeScript } from '../src/readme-script.ts';
import {
  freshEnv,
  quietStackPerFile,
  REPO_ROOT,
  STACK_START_BUDGET_MS,
} from './support/run-stack.ts';

const markdown = readFileSync(README, 'utf8');
const stack = quietStackPerFile('handoff-readme-');
const { dataDir } = stack;

beforeAll(() => stack.start(), STACK_START_BUDGET_MS);

function bash(script: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // No GATEWAY or STAFF from outside: the README's own first block finds the stack (DATA_DIR).
    const child = spawn('bash', ['-euo', 'pipefail', '-c', script], {
      cwd: REPO_ROOT,
      env: freshEnv({ DATA_DIR: dataDir }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('the README walkthrough', () => {
  it('is written to be run: ids in variables, no placeholders, quoted URLs, no uuidgen', () => {
    const blocks = bashBlocks(markdown);
    expect(blocks.length).toBeGreaterThanOrEqual(8);
    const script = blocks.map((block) => block.body).join('\n');
    // Commands only: the comments may show answers with their … elisions.
    const commands = script
      .split('\n')
      .map((line) => line.replace(/(^|\s)#.*$/, ''))
      .join('\n');
    expect(commands).not.toContain('…');
    expect(commands).not.toContain('uuidgen');
    // A URL with a query string is quoted (zsh would glob an unquoted `?`).
    expect(commands).not.toMatch(/(^|\s)\$GATEWAY[^\s"']*\?/m);
    expect(markdown).not.toMatch(/spec 2\.\d|conventions §/);
  });

  it('runs top to bottom against a fresh stack', async () => {
    const { code, stdout, stderr } = await bash(readmeScript(markdown));
    if (code !== 0) {
      throw new Error(
        `the walkthrough failed (exit ${code}):\n${stderr}\n--- stdout ---\n${stdout.slice(-4000)}`,
      );
    }
    // The request went all the way: paid, accepted, worked, reviewed, disputed and completed.
    expect(stdout).toMatch(/^completed$/m);
    expect(stdout).toContain('"type":"job.completed"');
  });
});
