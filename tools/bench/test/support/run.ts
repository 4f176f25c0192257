// What the tests that run scenarios through the harness share: a data dir of each test's own, and
// the options of a short, quiet run in it.
import { afterEach, beforeEach } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunOptions } from '../../src/harness.ts';

/** A temporary dir made before each test of the file (named from `prefix`) and removed after it. */
export function tempDirPerTest(prefix: string): () => string {
  let dir = '';
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  return () => dir;
}

/** A run in `tempDir` of 20 ms at 2 connections, no warm-up, no environment, no progress lines. */
export const runOptions = (
  tempDir: string,
  overrides: Partial<Omit<RunOptions, 'tempDir'>> = {},
): RunOptions => ({
  connections: 2,
  durationMs: 20,
  warmupMs: 0,
  tempDir,
  env: {},
  signal: new AbortController().signal,
  progress: () => {},
  ...overrides,
});
