import { describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { REQUIRED_MAJOR, tooOldMessage } from '../bin/node-version.js';

const BIN = fileURLToPath(new URL('../bin/handoff.js', import.meta.url));

describe('the handoff bin', () => {
  it('tells a Node older than 24 which Node to use, instead of failing on a .ts file', () => {
    const message = tooOldMessage('20.20.2', '/repo/.tools/node/bin');
    expect(message).toContain('handoff needs Node 24 or later, and this is Node 20.20.2.');
    expect(message).toContain('export PATH="/repo/.tools/node/bin:$PATH"');
    expect(tooOldMessage(`${REQUIRED_MAJOR}.0.0`, '/x')).toBeNull();
    expect(tooOldMessage('26.1.0', '/x')).toBeNull();
  });

  it('runs the command line under this Node', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [BIN, '--help']);
    expect(stdout).toContain('Usage: handoff <command> [options]');
  });
});
