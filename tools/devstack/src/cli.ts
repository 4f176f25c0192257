#!/usr/bin/env node
// `handoff`: the development command line of a Handoff stack (`npm start`). Every command has
// `--help`. It talks to the gateway over HTTP only, as an integrator or a staff member would, and
// finds the stack through DATA_DIR (its stack.json and development staff secret) unless told
// the gateway URL and credentials.
import { REQUEST_TOKEN_HEADER, SCOPES } from '@handoff/contracts';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  call,
  command,
  dataDir,
  GATEWAY_OPTIONS,
  gatewayUrl,
  json,
  mailUrl,
  STAFF_OPTIONS,
  staffCall,
  staffToken,
  str,
  UsageError,
  type Command,
  type Io,
} from './cli-kit.ts';
import { HELP } from './cli-help.ts';
import { testCommands } from './cli-test.ts';
import { onboardOnce, shellLines, shellWord } from './onboard.ts';
import { readStaffSecret, signStaffToken } from './staff-token.ts';

export { UsageError, type Io };

const envCommand = command(HELP.env, { strings: STAFF_OPTIONS }, async ({ values }, io) => {
  const gateway = gatewayUrl(values, io, false);
  const mail = mailUrl(values, io);
  const token = await staffToken(values, io, false);
  io.out(
    [
      `export GATEWAY=${shellWord(gateway)}`,
      ...(mail ? [`export MAILPIT=${shellWord(mail)}`] : []),
      `export STAFF=${shellWord(token)}`,
      '',
    ].join('\n'),
  );
});

const onboardCommand = command(
  HELP.onboard,
  { strings: ['data-dir', 'app-name'], flags: ['new', 'json'] },
  async ({ values }, io) => {
    const dir = dataDir(values, io);
    const appName = str(values, 'app-name');
    const onboarded = await onboardOnce({
      dataDir: dir,
      staffJwtSecret: io.env.STAFF_JWT_SECRET,
      fresh: values.new === true,
      ...(appName ? { appName } : {}),
      ...(io.signal ? { signal: io.signal } : {}),
    });
    if (values.json) return io.out(json(onboarded));
    io.err(
      onboarded.reused
        ? `onboard: reusing the agent saved in ${join(dir, 'dev-agent.json')} (--new for another)\n`
        : `onboard: a new agent, saved in ${join(dir, 'dev-agent.json')}\n`,
    );
    io.out(shellLines(onboarded));
  },
);

const staffTokenCommand = command(
  HELP['staff-token'],
  { strings: ['data-dir', 'subject', 'ttl'] },
  async ({ values }, io) => {
    const ttl = str(values, 'ttl');
    const ttlSeconds = ttl === undefined ? undefined : Number(ttl);
    if (ttlSeconds !== undefined && !(Number.isInteger(ttlSeconds) && ttlSeconds > 0)) {
      throw new UsageError(`--ttl must be a whole number of seconds above 0, not ${ttl}`);
    }
    const secret = readStaffSecret(dataDir(values, io), io.env.STAFF_JWT_SECRET);
    const subject = str(values, 'subject');
    io.out(
      `${await signStaffToken(secret, {
        ...(subject ? { subject } : {}),
        ...(ttlSeconds ? { ttlSeconds } : {}),
      })}\n`,
    );
  },
);

const LIST_PATHS: Record<string, string> = {
  applications: 'access-applications',
  'access-applications': 'access-applications',
};

/** One line of a list: the id, the status, and what tells items apart. */
function summary(item: Record<string, unknown>): string {
  const pick = (...names: string[]) =>
    names
      .map((name) => item[name])
      .find((value) => typeof value === 'string' || typeof value === 'number');
  const amount =
    typeof item.amount === 'number' && typeof item.currency === 'string'
      ? `${item.amount} ${item.currency}`
      : undefined;
  return [
    pick('id'),
    pick('status', 'state'),
    amount,
    pick('app_name', 'name', 'kind', 'action', 'type', 'object'),
    pick('request_id'),
    pick('deadline_at', 'created_at', 'timestamp'),
  ]
    .filter((part) => part !== undefined)
    .join('  ');
}

const staffList = command(
  HELP['staff list'],
  { strings: [...STAFF_OPTIONS, 'status', 'request', 'limit'], flags: ['json'] },
  async ({ values, positionals }, io) => {
    const kind = positionals[0];
    if (!kind || positionals.length > 1) throw new UsageError('staff list takes one KIND');
    if (!/^[a-z][a-z-]*$/.test(kind)) throw new UsageError(`not a list: ${kind}`);
    const query = new URLSearchParams();
    for (const [option, param] of [
      ['status', 'status'],
      ['request', 'request_id'],
      ['limit', 'limit'],
    ] as const) {
      const value = str(values, option);
      if (value) query.set(param, value);
    }
    const path = LIST_PATHS[kind] ?? kind;
    const page = await staffCall(values, io, 'GET', query.size ? `${path}?${query}` : path);
    if (values.json) return io.out(json(page));
    const items = Array.isArray(page.data) ? (page.data as Record<string, unknown>[]) : [];
    io.out(items.map((item) => `${summary(item)}\n`).join(''));
    if (items.length === 0) io.err(`staff list: no ${kind}\n`);
    if (page.has_more === true) io.err('staff list: more on the next page (--limit, or --json)\n');
  },
);

const staffDecide = command(
  HELP['staff decide'],
  { strings: [...STAFF_OPTIONS, 'reason', 'scopes', 'reference', 'customer-share'] },
  async ({ values, positionals }, io) => {
    const [kind, id, action, ...rest] = positionals;
    if (!kind || !id || !action || rest.length > 0) {
      throw new UsageError('staff decide takes KIND ID ACTION');
    }
    const reason = str(values, 'reason');
    const needReason = () => {
      if (!reason) throw new UsageError(`${kind} ${action} needs --reason`);
      return reason;
    };
    const path = encodeURIComponent(id);
    let route: string;
    let body: unknown;
    switch (`${kind} ${action}`) {
      case 'application approve':
        route = `access-applications/${path}/approve`;
        body = { scopes: scopeList(str(values, 'scopes')) };
        break;
      case 'application reject':
        route = `access-applications/${path}/reject`;
        body = { reason: needReason() };
        break;
      case 'payment-request approve':
        route = `payment-requests/${path}/approve`;
        break;
      case 'payment-request reject':
        route = `payment-requests/${path}/reject`;
        body = { reason: needReason() };
        break;
      case 'payment confirm': {
        route = `payments/${path}/confirm`;
        const reference = str(values, 'reference');
        body = reference ? { reference } : {};
        break;
      }
      case 'payment fail':
        route = `payments/${path}/fail`;
        body = { reason: needReason() };
        break;
      case 'marketplace approve':
      case 'marketplace reject':
        route = `requests/${path}/marketplace-review`;
        body = { decision: `${action}d`, ...(reason ? { reason } : {}) };
        break;
      case 'dispute customer':
      case 'dispute provider':
      case 'dispute split': {
        route = `disputes/${path}/resolve`;
        const share = str(values, 'customer-share');
        if (action === 'split' && !share) throw new UsageError('a split needs --customer-share');
        body = {
          outcome: action,
          reason: needReason(),
          ...(action === 'split' ? { customer_share_percent: Number(share) } : {}),
        };
        break;
      }
      default:
        throw new UsageError(`no decision "${kind} ${action}"`);
    }
    io.out(json(await staffCall(values, io, 'POST', route, body)));
  },
);

function scopeList(given: string | undefined): string[] {
  if (!given) throw new UsageError('--scopes is required (comma-separated, or "all")');
  if (given === 'all') return [...SCOPES];
  return given
    .split(',')
    .map((scope) => scope.trim())
    .filter(Boolean);
}

const staffGrant = command(
  HELP['staff grant'],
  { strings: [...STAFF_OPTIONS, 'scopes'] },
  async ({ values, positionals }, io) => {
    const [id, ...rest] = positionals;
    if (!id || rest.length > 0) throw new UsageError('staff grant takes one INTEGRATION_ID');
    const scopes = scopeList(str(values, 'scopes'));
    const route = `integrations/${encodeURIComponent(id)}`;
    io.out(json(await staffCall(values, io, 'PATCH', route, { scopes })));
  },
);

const eventsTail = command(
  HELP['events tail'],
  { strings: [...GATEWAY_OPTIONS, 'token', 'key', 'after', 'wait', 'until'], flags: ['follow'] },
  async ({ values, positionals }, io) => {
    const [id, ...rest] = positionals;
    if (!id || rest.length > 0) throw new UsageError('events tail takes one REQUEST_ID');
    const token = str(values, 'token') ?? io.env.HANDOFF_REQUEST_TOKEN;
    if (!token) throw new UsageError('events tail needs --token (or HANDOFF_REQUEST_TOKEN)');
    const key =
      str(values, 'key') ?? io.env.HANDOFF_AGENT_KEY ?? io.env.HANDOFF_API_KEY ?? io.env.KEY;
    if (!key) throw new UsageError('events tail needs --key (or HANDOFF_AGENT_KEY)');
    const number = (name: string, fallback: number, min: number, max: number) => {
      const raw = str(values, name);
      const value = raw === undefined ? fallback : Number(raw);
      if (!Number.isInteger(value) || value < min || value > max) {
        throw new UsageError(`--${name} must be a whole number from ${min} to ${max}`);
      }
      return value;
    };
    let after = number('after', 0, 0, Number.MAX_SAFE_INTEGER);
    const follow = values.follow === true;
    const wait = follow ? number('wait', 25, 1, 25) : 0;
    const until = str(values, 'until');
    const base = `${gatewayUrl(values, io)}/v1/request/${encodeURIComponent(id)}/events`;
    const headers = { Authorization: `Bearer ${key}`, [REQUEST_TOKEN_HEADER]: token };
    for (;;) {
      const page = await call(io, 'GET', `${base}?after=${after}&wait=${wait}`, headers);
      const events = Array.isArray(page.data) ? (page.data as Record<string, unknown>[]) : [];
      for (const event of events) {
        io.out(`${JSON.stringify(event)}\n`);
        const sequence = (event.data as { sequence?: unknown } | undefined)?.sequence;
        if (typeof sequence === 'number' && sequence > after) after = sequence;
        if (until && event.type === until) return;
      }
      if (!follow && page.has_more !== true) return;
    }
  },
);

/**
 * Runs the command `args[0]` names, of `commands`, with the rest of `args`; without a name, or
 * with `--help`/`-h`, prints `help`. `kind` names what was not found.
 */
async function dispatch(
  args: string[],
  io: Io,
  commands: Record<string, Command>,
  help: string | undefined,
  kind: string,
): Promise<void> {
  const [name, ...rest] = args;
  if (name === undefined || name === '--help' || name === '-h') return io.out(`${help}\n`);
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!command) throw new UsageError(`no ${kind} "${name}"`);
  return command(rest, io);
}

const COMMANDS: Record<string, Command> = {
  env: envCommand,
  onboard: onboardCommand,
  'staff-token': staffTokenCommand,
  staff: (args, io) =>
    dispatch(
      args,
      io,
      { list: staffList, decide: staffDecide, grant: staffGrant },
      HELP.staff,
      'staff command',
    ),
  events: (args, io) => dispatch(args, io, { tail: eventsTail }, HELP.events, 'events command'),
  test: (args, io) => dispatch(args, io, testCommands, HELP.test, 'test command'),
  help: async (_args, io) => io.out(`${HELP.main}\n`),
};

/** Runs one command line; resolves to the exit code (0 ok, 1 failed, 2 usage). */
export async function runCli(args: string[], io: Io): Promise<number> {
  try {
    await dispatch(args, io, COMMANDS, HELP.main, 'command');
    return 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof UsageError) {
      io.err(`handoff: ${message}\nRun "handoff --help" for the commands and their options.\n`);
      return 2;
    }
    io.err(`handoff: ${message}\n`);
    return 1;
  }
}

/** Runs the process's command line (`bin/handoff.js`, the `handoff` bin, calls it). */
export async function main(): Promise<void> {
  // A reader that stops early (`handoff test scenarios | head -3`) ends the output, not in a crash.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(process.exitCode ?? 0);
  });
  process.exitCode = await runCli(process.argv.slice(2), {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    env: process.env,
  });
}

// Run as a program (`node src/cli.ts`), not when imported.
if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
