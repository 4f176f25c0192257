// The parts every `handoff` command is made of (src/cli.ts, src/cli-test.ts): parsing a command
// line, finding the stack, and one JSON call to its gateway.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readStaffSecret, signStaffToken } from './staff-token.ts';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** A mistake in the command line: printed with a hint to `--help`, exit code 2. */
export class UsageError extends Error {}

/** What a command writes; the CLI's tests run commands in-process through it. */
export interface Io {
  out(text: string): void;
  err(text: string): void;
  env: Record<string, string | undefined>;
  signal?: AbortSignal;
}

export interface Options {
  strings: readonly string[];
  flags?: readonly string[];
}
export const GATEWAY_OPTIONS = ['data-dir', 'gateway'];
export const STAFF_OPTIONS = [...GATEWAY_OPTIONS, 'staff-token'];

export type Values = Record<string, string | boolean | undefined>;
export interface Parsed {
  values: Values;
  positionals: string[];
}
export type Command = (args: string[], io: Io) => Promise<void>;

export function parse(args: string[], { strings, flags = [] }: Options): Parsed {
  const options: ParseArgsConfig['options'] = { help: { type: 'boolean', short: 'h' } };
  for (const name of strings) options[name] = { type: 'string' };
  for (const name of flags) options[name] = { type: 'boolean' };
  try {
    const { values, positionals } = parseArgs({
      args,
      options,
      allowPositionals: true,
      strict: true,
    });
    return { values: values as Values, positionals };
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/** A command of `options` (and `--help`, which prints `help` instead of running it). */
export const command =
  (
    help: string | undefined,
    options: Options,
    run: (parsed: Parsed, io: Io) => Promise<void>,
  ): Command =>
  async (args, io) => {
    const parsed = parse(args, options);
    if (parsed.values.help) return io.out(`${help}\n`);
    return run(parsed, io);
  };

export const str = (values: Values, name: string): string | undefined => {
  const value = values[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
};

export function dataDir(values: Values, io: Io): string {
  return resolve(str(values, 'data-dir') ?? io.env.DATA_DIR ?? join(REPO_ROOT, '.data'));
}

/** `fromEnv: false` reads the stack, never GATEWAY / STAFF (`handoff env` must not echo stale ones). */
export function gatewayUrl(values: Values, io: Io, fromEnv = true): string {
  const given =
    str(values, 'gateway') ?? (fromEnv ? (io.env.GATEWAY ?? io.env.HANDOFF_URL) : undefined);
  if (given) return given.replace(/\/+$/, '');
  const dir = dataDir(values, io);
  const file = join(dir, 'stack.json');
  if (!existsSync(file)) {
    throw new Error(`no ${file}: is the stack running (npm start) with DATA_DIR=${dir}?`);
  }
  const state = JSON.parse(readFileSync(file, 'utf8')) as { gateway_url?: unknown };
  if (typeof state.gateway_url !== 'string') throw new Error(`${file} names no gateway_url`);
  return state.gateway_url.replace(/\/+$/, '');
}

/**
 * Mailpit's address from the stack's stack.json; undefined when the gateway was given (then the
 * stack is not ours to read), the stack's mail goes to SMTP_URL instead, or the stack predates
 * its mail.
 */
export function mailUrl(values: Values, io: Io): string | undefined {
  if (str(values, 'gateway')) return undefined;
  const file = join(dataDir(values, io), 'stack.json');
  if (!existsSync(file)) return undefined;
  const state = JSON.parse(readFileSync(file, 'utf8')) as { mail_url?: unknown };
  return typeof state.mail_url === 'string' ? state.mail_url.replace(/\/+$/, '') : undefined;
}

export async function staffToken(values: Values, io: Io, fromEnv = true): Promise<string> {
  const given = str(values, 'staff-token') ?? (fromEnv ? io.env.STAFF : undefined);
  if (given) return given;
  return signStaffToken(readStaffSecret(dataDir(values, io), io.env.STAFF_JWT_SECRET));
}

/** One JSON call; a non-2xx answer throws with the problem's status, code and detail. */
export async function call(
  io: Io,
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<Record<string, unknown>> {
  const res = await fetch(url, {
    method,
    headers: {
      Accept: 'application/json',
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    ...(io.signal ? { signal: io.signal } : {}),
  });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (!res.ok) {
    const problem = (parsed ?? {}) as { code?: string; detail?: string };
    throw new Error(
      `${method} ${new URL(url).pathname} answered ${res.status}${problem.code ? ` ${problem.code}` : ''}: ${problem.detail ?? text.slice(0, 500)}`,
    );
  }
  if (typeof parsed !== 'object' || parsed === null) {
    throw new Error(`${method} ${new URL(url).pathname}: the answer is not JSON`);
  }
  return parsed as Record<string, unknown>;
}

export const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** One call of the staff API (`/v1/staff/<route>`) with the staff token the options name. */
export async function staffCall(
  values: Values,
  io: Io,
  method: string,
  route: string,
  body?: unknown,
): Promise<Record<string, unknown>> {
  const url = `${gatewayUrl(values, io)}/v1/staff/${route}`;
  return call(io, method, url, { Authorization: `Bearer ${await staffToken(values, io)}` }, body);
}
