import { EnvError } from '@handoff/config';
import { createLogger, startTelemetry, stopTelemetry } from '@handoff/observability';

/** The exit code of a service whose environment is invalid (BSD's EX_CONFIG): do not restart. */
export const EXIT_CONFIG = 78;
/**
 * The exit code of a service that could not start for another reason, its database or NATS out
 * of reach for one (BSD's EX_UNAVAILABLE): a supervisor starts it again.
 */
export const EXIT_START_FAILED = 69;
/**
 * The exit code of a service that stopped because its database stayed out of reach for
 * `DB_LOST_EXIT_MS` (BSD's EX_TEMPFAIL): a new process connects afresh.
 */
export const EXIT_DATABASE_LOST = 75;
/** The exit code of a graceful stop that failed or timed out (BSD's EX_SOFTWARE). */
export const EXIT_STOP_FAILED = 70;

interface Stoppable {
  stop(): Promise<void>;
  /** Resolves when the process can no longer serve (its database lost): it then stops with 1. */
  lost?: Promise<string>;
  logger: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

/**
 * The whole of a service's `main.ts`: telemetry first, then the service, then signal handling.
 * A bad environment prints every problem and exits 78 (EX_CONFIG: a supervisor such as `npm start`
 * stops instead of restarting it); any other start failure exits 69. SIGTERM/SIGINT stop
 * gracefully within `shutdownTimeoutMs`, after which the process exits anyway (70). A database
 * lost for good exits 75. Each has its own code, so that 1, Node's own for an uncaught exception
 * or an unhandled rejection, means a crash (`npm run chaos` reports those).
 */
export async function runMain(
  name: string,
  version: string,
  start: () => Promise<Stoppable>,
  shutdownTimeoutMs = (() => Number(process.env.SHUTDOWN_TIMEOUT_MS) || 10_000)(),
): Promise<void> {
  try {
    startTelemetry({ service: name, version });
  } catch (error) {
    // Only its settings (METRICS, the OTEL_* variables) can stop it: a bad environment.
    const problem = error instanceof Error ? error.message : String(error);
    process.stderr.write(`${name}: invalid environment\n- ${problem}\n`);
    process.exit(EXIT_CONFIG);
  }
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
    process.exit(error instanceof EnvError ? EXIT_CONFIG : EXIT_START_FAILED);
  }
  let signalled = false;
  const shutdown = (signal: string, code = 0) => {
    if (signalled) return;
    signalled = true;
    // A stop asked for ends 70 when it fails; one for a reason of its own (the database lost:
    // its stop often cannot finish either) keeps that reason's code.
    const failed = code === 0 ? EXIT_STOP_FAILED : code;
    running.logger.info({ signal }, 'shutdown requested');
    const timer = setTimeout(() => {
      running.logger.error({ timeout_ms: shutdownTimeoutMs }, 'shutdown timed out; exiting');
      process.exit(failed);
    }, shutdownTimeoutMs);
    timer.unref();
    running
      .stop()
      .then(() => stopTelemetry())
      .then(
        () => process.exit(code),
        (error: unknown) => {
          running.logger.error({ err: error }, 'shutdown failed');
          process.exit(failed);
        },
      );
  };
  void running.lost?.then((reason) => {
    running.logger.error(
      { reason },
      'exiting: the database is out of reach; a new process will connect afresh',
    );
    shutdown('database lost', EXIT_DATABASE_LOST);
  });
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}
