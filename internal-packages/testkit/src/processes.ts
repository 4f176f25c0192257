import { HealthReply, subjects, type BackendService } from '@handoff/contracts';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { MongoClient } from 'mongodb';
import { spawn, type ChildProcess } from 'node:child_process';
import { eventually, natsOptions, testServers } from './fixtures.ts';

export interface ServiceProcessOptions {
  service: BackendService;
  /** The service's `src/main.ts`. */
  main: string;
  /** Its variables beside this process's own (`NODE_OPTIONS` is never passed on). */
  env: Record<string, string | undefined>;
  /** A connection on which to ask the service's health. */
  nc: NatsConnection;
  /** Its output lines; inherited (shown with the test's) when not given. */
  onOutput?: (line: string) => void;
  timeoutMs?: number;
}

/**
 * A backend service as its own process, as in production (the crash and fault tests kill it),
 * resolved once that very process answers its health over the bus: instances are named
 * host-pid-random, so another replica's answer does not count.
 */
export async function startServiceProcess(options: ServiceProcessOptions): Promise<ChildProcess> {
  const env = { ...process.env, ...options.env };
  // jest's flags (--experimental-vm-modules) are not the service's.
  delete env.NODE_OPTIONS;
  const piped = options.onOutput !== undefined;
  const child = spawn(process.execPath, [options.main], {
    env,
    stdio: ['ignore', piped ? 'pipe' : 'inherit', piped ? 'pipe' : 'inherit'],
  });
  if (options.onOutput) {
    const keep = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) if (line) options.onOutput?.(line);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
  }
  try {
    await eventually(
      async () => {
        if (child.exitCode !== null) {
          throw new Error(`${options.service} exited with ${child.exitCode}`);
        }
        const reply = await options.nc
          .request(subjects.health(options.service), '', { timeout: 500 })
          .catch(() => undefined);
        const health = reply ? HealthReply.safeParse(reply.json()) : undefined;
        return health?.success && health.data.instance.includes(`-${child.pid}-`)
          ? true
          : undefined;
      },
      { timeoutMs: options.timeoutMs ?? 30_000, what: `the ${options.service} process to answer` },
    );
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return child;
}

/** Resolves with the exit code once the process has ended (at once if it has). */
export function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
}

/**
 * A backend service a crash test runs as its own process, again and again: `start` arms a fault
 * (`HANDOFF_TEST_FAULT`, read by the service's code) or none, and `stop` ends a process as a
 * deployment does. `connect` opens what the test acts and looks through (the worker's NATS and
 * database); `close` (in afterAll) kills whatever is still running and closes those.
 */
export function crashableService(options: {
  service: BackendService;
  main: string;
  /** Its variables, read at each start (a server started in beforeAll may be among them). */
  env: () => Record<string, string | undefined>;
}) {
  const running: ChildProcess[] = [];
  const closing: (() => Promise<void>)[] = [];
  return {
    async connect(): Promise<{ nc: NatsConnection; mongo: MongoClient }> {
      const nc = await connect({ ...natsOptions() });
      const mongo = new MongoClient(testServers().mongoUrl);
      closing.push(
        () => nc.close(),
        () => mongo.close(),
      );
      return { nc, mongo };
    },
    async start(nc: NatsConnection, fault?: string): Promise<ChildProcess> {
      const child = await startServiceProcess({
        service: options.service,
        main: options.main,
        env: { ...options.env(), LOG_LEVEL: 'warn', HANDOFF_TEST_FAULT: fault },
        nc,
      });
      running.push(child);
      return child;
    },
    /** SIGTERM, then the exit code once it has ended. */
    stop(child: ChildProcess): Promise<number | null> {
      child.kill('SIGTERM');
      return exited(child);
    },
    async close(): Promise<void> {
      for (const child of running) if (child.exitCode === null) child.kill('SIGKILL');
      for (const close of closing.splice(0)) await close();
    },
  };
}
