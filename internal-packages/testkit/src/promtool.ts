import { spawn } from 'node:child_process';
import { findBinary } from './servers.ts';

/** The Prometheus release whose promtool `npm run setup` builds (keep in step with scripts/setup.sh). */
export const PROMETHEUS_VERSION = 'v0.316.0';

const HOW_TO_GET_IT = [
  "Handoff checks its alert rules and its services' /metrics with promtool (Prometheus's tool).",
  'Any one of these provides it:',
  `  1. run \`npm run setup\`, which builds promtool ${PROMETHEUS_VERSION} into .tools/bin with Go;`,
  `  2. \`go install github.com/prometheus/prometheus/cmd/promtool@${PROMETHEUS_VERSION}\` and put it on PATH;`,
  '  3. put the promtool of a Prometheus 3 release on PATH.',
].join('\n');

export class PromtoolUnavailableError extends Error {
  constructor(detail: string) {
    super(`promtool is not available: ${detail}\n${HOW_TO_GET_IT}`);
    this.name = 'PromtoolUnavailableError';
  }
}

/** What one promtool run printed, and how it ended. */
export interface PromtoolResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The promtool binary, from .tools/bin or PATH. Missing, it throws with instructions, on CI and
 * everywhere else: a rules or metrics check never skips.
 */
export async function findPromtool(
  options: { binDirs?: readonly string[]; env?: Record<string, string | undefined> } = {},
): Promise<string> {
  const binary = await findBinary(['promtool'], options.binDirs);
  if (binary) return binary;
  const env = options.env ?? process.env;
  throw new PromtoolUnavailableError(
    `no promtool binary in ${options.binDirs ? 'the given folders' : '.tools/bin or on PATH'}${env.CI === 'true' ? ' (CI)' : ''}.`,
  );
}

/** Runs promtool with `args`, writing `input` (if any) to its standard input. */
export function runPromtool(
  binary: string,
  args: readonly string[],
  options: { input?: string; cwd?: string } = {},
): Promise<PromtoolResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, {
      cwd: options.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}
