import { startStack, waitUntilReady } from '@handoff/devstack';
import type { Scenario } from '../types.ts';

const READY_TIMEOUT_MS = 90_000;
const KEPT_LINES = 200;

/**
 * The gateway's readiness fan-out with the whole system running as separate processes, as
 * `npm start` runs it: each `GET /readyz` asks the five backend services for their health over
 * NATS, all at once.
 */
export function gatewayReadyz(logLevel: string): Scenario {
  return {
    name: 'gateway-readyz',
    description: `gateway GET /readyz (fan-out to 5 services over NATS), full stack as 6 processes + NATS + DB, LOG_LEVEL=${logLevel}; autocannon`,
    async setup(ctx) {
      const lines: string[] = [];
      const stack = await startStack({
        dataDir: ctx.dataDir,
        port: 0,
        logLevel,
        env: ctx.env,
        events: {
          onLine(name, line) {
            lines.push(`${name} | ${line}`);
            if (lines.length > KEPT_LINES) lines.shift();
          },
          onStart() {},
          onExit(name, code, signal, restartInMs) {
            if (restartInMs !== undefined) {
              ctx.progress(`${name} exited (${signal ?? `code ${code}`}) and is being restarted`);
            }
          },
        },
      });
      ctx.teardown(() => stack.stop());
      const { gateway_url } = stack.state();
      ctx.progress(`waiting for every service to answer at ${gateway_url}/readyz`);
      if (!(await waitUntilReady(gateway_url, READY_TIMEOUT_MS))) {
        throw new Error(
          `not every service answered within ${READY_TIMEOUT_MS / 1_000} s; last lines:\n` +
            lines.slice(-30).join('\n'),
        );
      }
      return { kind: 'http', url: `${gateway_url}/readyz`, expectStatus: 200 };
    },
  };
}
