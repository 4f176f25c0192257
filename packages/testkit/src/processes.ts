import { HealthReply, subjects, type BackendService } from '@handoff/contracts';
import type { NatsConnection } from '@nats-io/transport-node';
import { spawn, type ChildProcess } from 'node:child_process';
import { eventually } from './fixtures.ts';

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
