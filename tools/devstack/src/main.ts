// `npm start` (`npm start -- --replicas 2`): the whole Handoff system on this machine, until Ctrl-C.
// The services' log lines go to DATA_DIR/logs/stack.log; the terminal gets them only after the
// banner (unless STACK_QUIET=true), so the banner's `export` lines can be copied or eval'ed.
import { EnvError, loadEnv, logLevel, port } from '@handoff/config';
import { ALL_SERVICES } from '@handoff/contracts';
import { createWriteStream, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { shellWord } from './onboard.ts';
import { parseStartArgs, START_HELP } from './start-args.ts';
import {
  checkOwnGateway,
  MAX_STACK_REPLICAS,
  REPO_ROOT,
  replicaName,
  StackError,
  startStack,
  tracingSetting,
  waitUntilEveryReplicaReady,
  type Stack,
} from './stack.ts';

const say = (line: string) => process.stdout.write(`${line}\n`);

let args;
try {
  args = parseStartArgs(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof StackError)) throw error;
  say(`[stack] ${error.message}\n[stack] npm start -- --help shows its options.`);
  process.exit(1);
}
if (args.help) {
  say(START_HELP);
  process.exit(0);
}

let env;
try {
  env = loadEnv(
    'devstack',
    z.object({
      DATA_DIR: z.string().default(join(REPO_ROOT, '.data')),
      PORT: port.default(8080),
      LOG_LEVEL: logLevel.default('info'),
      STACK_QUIET: z.enum(['true', 'false']).default('false'),
      STACK_REPLICAS: z.coerce.number().int().min(1).max(MAX_STACK_REPLICAS).default(1),
      TRACING: tracingSetting,
      // Read by every service (packages/observability); checked here too, so that a typo stops
      // the stack before it starts rather than each service over and over.
      METRICS: z.enum(['on', 'off']).optional(),
    }),
    // --replicas wins over STACK_REPLICAS.
    args.replicas === undefined
      ? process.env
      : { ...process.env, STACK_REPLICAS: String(args.replicas) },
  );
} catch (error) {
  if (!(error instanceof EnvError)) throw error;
  say(`[stack] ${error.message}`);
  process.exit(1);
}
const dataDir = resolve(env.DATA_DIR);
const quiet = env.STACK_QUIET === 'true';
const replicas = env.STACK_REPLICAS;
const width = Math.max(
  ...ALL_SERVICES.map((name) => replicaName(name, replicas - 1, replicas).length),
);
mkdirSync(join(dataDir, 'logs'), { recursive: true });
const logFile = join(dataDir, 'logs', 'stack.log');
const log = createWriteStream(logFile, { flags: 'a' });
/** Until the banner is out, log lines go to the file only. */
let bannerShown = false;

let stack: Stack | undefined;
let stopping = false;
const shutdown = (reason: string, code = 0) => {
  if (stopping) return;
  stopping = true;
  say(`[stack] ${reason}: stopping services, then the servers it started`);
  const stopped = stack ? stack.stop() : Promise.resolve();
  stopped.then(
    () => {
      say('[stack] stopped');
      log.end(() => process.exit(code));
    },
    (error: unknown) => {
      say(`[stack] stop failed: ${String(error)}`);
      process.exit(1);
    },
  );
};
process.on('SIGINT', () => shutdown('SIGINT'));
process.on('SIGTERM', () => shutdown('SIGTERM'));

try {
  stack = await startStack({
    dataDir,
    port: env.PORT,
    logLevel: env.LOG_LEVEL,
    replicas,
    tracing: env.TRACING,
    env: process.env,
    events: {
      onLine(name, line) {
        const prefixed = `${name.padEnd(width)} | ${line}`;
        log.write(`${prefixed}\n`);
        if (bannerShown && !quiet) say(prefixed);
      },
      onStart(name, pid, restarts) {
        if (restarts > 0) say(`[stack] ${name} restarted (pid ${pid}, restart ${restarts})`);
      },
      onExit(name, code, signal, restartInMs) {
        if (restartInMs !== undefined) {
          say(
            `[stack] ${name} exited (${signal ?? `code ${code}`}); restarting in ${restartInMs} ms`,
          );
        }
      },
      onFatal(name, lines) {
        say(`[stack] ${name} refuses its settings and is not restarted:`);
        for (const line of lines) say(`[stack]   ${line}`);
        shutdown(`${name} cannot start`, 1);
      },
    },
  });
} catch (error) {
  say(`[stack] cannot start: ${error instanceof StackError ? error.message : String(error)}`);
  log.end(() => process.exit(1));
  await new Promise(() => {});
}

const running = stack as Stack;
const state = running.state();
const ready = await waitUntilEveryReplicaReady(state, 60_000);
const staffToken = await running.staffToken();
if (!stopping) {
  // The gateway answering must be this stack's: with our staff token, reaching our services.
  const pids = Object.fromEntries(
    Object.entries(running.state().services).map(([name, service]) => [
      name,
      service?.replicas.map((replica) => replica.pid),
    ]),
  );
  const ownership = ready
    ? await checkOwnGateway(state.gateway_url, staffToken, pids)
    : ({ own: true } as const);
  if (!ownership.own) {
    say(`[stack] ${ownership.reason}`);
    shutdown('not our gateway', 1);
  }
}
if (!stopping) {
  say('');
  say(
    ready
      ? '[stack] Handoff is up: every service answers.'
      : `[stack] not every service answered within 60 s; still trying. See ${logFile}.`,
  );
  say(
    `[stack]   gateway      ${state.gateway_url}   (GET /readyz: ready or not; staff: GET /v1/staff/health)`,
  );
  if (replicas > 1) {
    say(
      `[stack]   replicas     ${replicas} of every service; gateways ${state.gateway_urls.join(' ')}`,
    );
  }
  say(
    `[stack]   console      ${state.gateway_url}/console   (sign in with the STAFF JWT printed below)`,
  );
  say(
    `[stack]   workspace    ${state.gateway_url}/workspace   (providers sign in with their email address)`,
  );
  say(
    state.mail_url
      ? `[stack]   mail         ${state.mail_url}   (Mailpit: every mail the stack sends)`
      : `[stack]   mail         ${state.smtp_url}   (SMTP_URL: the stack's mail goes there; no Mailpit)`,
  );
  if (state.jaeger_url) {
    say(
      `[stack]   traces       ${state.jaeger_url}   (Jaeger, in memory: every service's spans; API /api/traces/{id})`,
    );
  }
  say(`[stack]   NATS         ${state.nats_url}`);
  say(`[stack]   database     ${state.mongo_url}`);
  say(`[stack]   data         ${dataDir}`);
  say(`[stack]   logs         ${logFile}${quiet ? '' : ' (and below, from here on)'}`);
  say('[stack]   STAFF is a development staff JWT, valid 12 h; Ctrl-C stops everything.');
  const dirPrefix =
    dataDir === resolve(REPO_ROOT, '.data') ? '' : `DATA_DIR=${shellWord(dataDir)} `;
  say(
    `[stack] In another shell at the repository root: eval "$(${dirPrefix}handoff env)", or paste:`,
  );
  say(`export GATEWAY=${shellWord(state.gateway_url)}`);
  if (state.mail_url) say(`export MAILPIT=${shellWord(state.mail_url)}`);
  say(`export STAFF=${shellWord(staffToken)}`);
  say('');
  bannerShown = true;
}
