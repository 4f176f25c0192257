// `npm start`: the whole Handoff system on this machine, until Ctrl-C.
import { loadEnv, logLevel, port } from '@handoff/config';
import { join } from 'node:path';
import { z } from 'zod';
import { REPO_ROOT, startStack, waitUntilReady } from './stack.ts';

const env = loadEnv(
  'devstack',
  z.object({
    DATA_DIR: z.string().default(join(REPO_ROOT, '.data')),
    PORT: port.default(8080),
    LOG_LEVEL: logLevel.default('info'),
    STACK_QUIET: z.enum(['true', 'false']).default('false'),
  }),
);
const quiet = env.STACK_QUIET === 'true';
const say = (line: string) => process.stdout.write(`${line}\n`);
const width = Math.max(
  ...['gateway', 'intake', 'conversation', 'payments', 'milestones', 'webhook-dispatcher'].map(
    (s) => s.length,
  ),
);

const stack = await startStack({
  dataDir: env.DATA_DIR,
  port: env.PORT,
  logLevel: env.LOG_LEVEL,
  env: process.env,
  events: {
    onLine(name, line) {
      if (!quiet) say(`${name.padEnd(width)} | ${line}`);
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
  },
});

let stopping = false;
const shutdown = (signal: string) => {
  if (stopping) return;
  stopping = true;
  say(`[stack] ${signal}: stopping services, then NATS and the database`);
  stack.stop().then(
    () => {
      say('[stack] stopped');
      process.exit(0);
    },
    (error: unknown) => {
      say(`[stack] stop failed: ${String(error)}`);
      process.exit(1);
    },
  );
};
process.on('SIGINT', () => shutdown('SIGINT'));
process.on('SIGTERM', () => shutdown('SIGTERM'));

const state = stack.state();
const ready = await waitUntilReady(state.gateway_url, 60_000);
if (!stopping) {
  say('');
  say(
    ready
      ? '[stack] Handoff is up: every service answers.'
      : '[stack] not every service answered within 60 s; still trying.',
  );
  say(
    `[stack]   gateway      ${state.gateway_url}   (GET /readyz: ready or not; staff: GET /v1/staff/health)`,
  );
  say(`[stack]   console      ${state.gateway_url}/console   (sign in with the JWT printed below)`);
  say(`[stack]   NATS         ${state.nats_url}`);
  say(`[stack]   database     ${state.mongo_url}`);
  say(`[stack]   data         ${env.DATA_DIR}`);
  say(`[stack]   staff token  ${await stack.staffToken()}`);
  say('[stack]   (a development staff JWT, valid 12 h; Ctrl-C stops everything)');
  say('');
}
