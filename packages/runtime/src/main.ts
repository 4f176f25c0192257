import { EnvError } from '@handoff/config';
import { createLogger, startTelemetry, stopTelemetry } from '@handoff/observability';

/** The exit code of a service whose environment is invalid (BSD's EX_CONFIG): do not restart. */
export const EXIT_CONFIG = 78;

interface Stoppable {
  stop(): Promise<void>;
  /** Resolves when the process can no longer serve (its database lost): it then stops with 1. */
  lost?: Promise<string>;
  logger: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

/**
 * The whole of a service's `main.ts`: telemetry first, then the service, then signal handling.
 * A bad environment prints every problem and exits 78 (EX_CONFIG: a supervisor such as `npm start`
 * stops instead of restarting it); any other start failure exits 1. SIGTERM/SIGINT stop gracefully within
 * `shutdownTimeoutMs`, after which the process exits anyway.
 */
export async function runMain(
  name: string,
  version: string,
  start: () => Promise<Stoppable>,
  shutdownTimeoutMs = (() => Number(process.env.SHUTDOWN_TIMEOUT_MS) || 10_000)(),
): Promise<void> {
  startTelemetry({ service: name, version });
  let running: Stoppable;
  try {
    running = await start();
  } catch (error) {
    if (error instanceof EnvError) {
      process.stderr.write(`${error.message}\n`);
    } else {
      createLogger({ service: name, version, level: 'error' }).fatal(
        { err: error },
        'start failed',
      );
    }
    await stopTelemetry();
    process.exit(error instanceof EnvError ? EXIT_CONFIG : 1);
  }
  let signalled = false;
  const shutdown = (signal: string, code = 0) => {
    if (signalled) return;
    signalled = true;
    running.logger.info({ signal }, 'shutdown requested');
    const timer = setTimeout(() => {
      running.logger.error({ timeout_ms: shutdownTimeoutMs }, 'shutdown timed out; exiting');
      process.exit(1);
    }, shutdownTimeoutMs);
    timer.unref();
    running
      .stop()
      .then(() => stopTelemetry())
      .then(
        () => process.exit(code),
        (error: unknown) => {
          running.logger.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
  };
  void running.lost?.then((reason) => {
    running.logger.error(
      { reason },
      'exiting: the database is out of reach; a new process will connect afresh',
    );
    shutdown('database lost', 1);
  });
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}
