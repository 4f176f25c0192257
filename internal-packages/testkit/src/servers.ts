import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync } from 'node:fs';
import { access, constants } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { canConnect, freePort } from './ports.ts';

// What every server the testkit runs has in common: where its binary is found, how it is
// started (and its failure to start reported), stopped, or run in a container instead.

/** A NATS or MongoDB-wire server that a test or the local stack can use. */
export interface RunningServer {
  url: string;
  /** Where it came from: the caller's URL, a binary we started, or a container. */
  source: 'env' | 'binary' | 'container';
  description: string;
  stop(): Promise<void>;
}

/**
 * Two servers started at once (NATS and the database of one stack). When either cannot start,
 * the other is stopped once it has settled and the first failure is thrown: a server is never
 * left running for nobody to stop.
 */
export async function startPair<A extends RunningServer, B extends RunningServer>(
  first: Promise<A>,
  second: Promise<B>,
): Promise<[A, B]> {
  const [a, b] = await Promise.allSettled([first, second]);
  if (a.status === 'fulfilled' && b.status === 'fulfilled') return [a.value, b.value];
  await Promise.allSettled(
    [a, b].flatMap((result) => (result.status === 'fulfilled' ? [result.value.stop()] : [])),
  );
  throw a.status === 'rejected' ? a.reason : (b as PromiseRejectedResult).reason;
}

export interface ServerOptions {
  /** Its own data directory (JetStream store, SQLite files, mongod dbpath). */
  dataDir: string;
  /** A fixed port; a free one when omitted. */
  port?: number;
  /** Reads NATS_URL / MONGO_URL from here first; `process.env` by default. */
  env?: Record<string, string | undefined>;
  /** Where to look for server binaries; .tools/bin and then PATH by default. */
  binDirs?: readonly string[];
  /** Whether a Docker engine may be used as the last resort; true by default. */
  containers?: boolean;
  /**
   * Whether the database flushes each commit to disk; true by default. Throwaway test servers
   * turn it off: their data dies with the run, and the flushes only slow it.
   */
  durable?: boolean;
}

/** The server the caller's environment names in `variable` (not ours to stop), if it does. */
export function fromEnv(
  options: ServerOptions,
  variable: 'NATS_URL' | 'MONGO_URL',
  what: string,
): RunningServer | undefined {
  const url = (options.env ?? process.env)[variable];
  if (!url) return undefined;
  return { url, source: 'env', description: `${what} at ${url}`, stop: async () => {} };
}

/** The repository's git-ignored tools folder, where `npm run setup` puts the servers it builds. */
export const TOOLS_BIN = fileURLToPath(new URL('../../../.tools/bin', import.meta.url));

const HOW_TO_GET_THEM = [
  'Handoff needs a real NATS server (2.12+, with JetStream) and a real MongoDB-wire server.',
  'Any one of these provides them:',
  '  1. set NATS_URL and MONGO_URL to servers you run;',
  '  2. run `npm run setup`, which builds nats-server and FerretDB 1.24 into .tools/bin with Go',
  '     (or put nats-server and mongod/ferretdb on PATH);',
  '  3. start a Docker engine, so that testcontainers can run nats:2.12 and mongo:7.',
].join('\n');

export class ServersUnavailableError extends Error {
  constructor(what: string, cause?: unknown) {
    super(`${what} is not available.\n${HOW_TO_GET_THEM}`, cause === undefined ? {} : { cause });
    this.name = 'ServersUnavailableError';
  }
}

const defaultBinDirs = () => [
  TOOLS_BIN,
  ...(process.env.PATH ?? '').split(delimiter).filter(Boolean),
];

export async function findBinary(
  names: readonly string[],
  dirs: readonly string[] = defaultBinDirs(),
): Promise<string | undefined> {
  for (const name of names) {
    for (const dir of dirs) {
      const candidate = join(dir, name);
      try {
        await access(candidate, constants.X_OK);
        return candidate;
      } catch {
        // not here
      }
    }
  }
  return undefined;
}

export async function startProcess(
  label: string,
  command: string,
  args: string[],
  port: number,
  dataDir: string,
  env: NodeJS.ProcessEnv = process.env,
  /** Printed once the server is wholly up, when its port answers before it is (see waitForPort). */
  readyLine?: RegExp,
): Promise<ChildProcess> {
  return waitForPort(
    label,
    spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env }),
    port,
    dataDir,
    readyLine,
  );
}

/** How much of a server's last output a {@link ServerExitedError} keeps. */
const OUTPUT_KEPT = 8_192;

/** A server that stopped before it listened, with the end of what it printed. */
export class ServerExitedError extends Error {
  readonly output: string;

  constructor(label: string, code: number | null, logFile: string, output: string) {
    super(`${label} exited with code ${code}; see ${logFile}`);
    this.name = 'ServerExitedError';
    this.output = output;
  }
}

/** How many times a server is started on fresh ports when a port was taken meanwhile. */
export const PORT_TAKEN_ATTEMPTS = 3;

/** Whether a server stopped at its start because a port it was to listen on was taken. */
export function portWasTaken(error: unknown): boolean {
  return error instanceof ServerExitedError && /address already in use/i.test(error.output);
}

/**
 * Runs `start`, which picks its ports free and starts on them, and runs it again when another
 * socket took a port between the pick and the server's bind (a busy machine: a CI's PostgreSQL,
 * a bench's 3-node NATS cluster), {@link PORT_TAKEN_ATTEMPTS} times at most. Anything else that
 * stops it is thrown at once.
 */
export async function whilePortTaken<T>(start: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await start();
    } catch (error) {
      if (!portWasTaken(error) || attempt >= PORT_TAKEN_ATTEMPTS) throw error;
    }
  }
}

/** Starts a server on a port picked free, on a fresh one when it was taken ({@link whilePortTaken}). */
export function onFreePort<T>(
  start: (port: number) => Promise<T>,
  pickPort: () => Promise<number> = freePort,
): Promise<T> {
  return whilePortTaken(async () => start(await pickPort()));
}

export async function waitForPort(
  label: string,
  child: ChildProcess,
  port: number,
  dataDir: string,
  /**
   * A line the server prints once it is wholly up, for a server whose port answers first: a
   * cluster's nats-server listens for clients before it binds its route port, and only then
   * exits when that port is taken. Without it, the port answering is enough.
   */
  readyLine?: RegExp,
): Promise<ChildProcess> {
  mkdirSync(dataDir, { recursive: true });
  const logFile = join(dataDir, `${label}.log`);
  const log = createWriteStream(logFile, { flags: 'a' });
  // Ended once both pipes have drained: ended by whichever pipe ends first, the log would take
  // the other's last lines as a write after its end, an error nobody handles.
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  child.once('close', () => log.end());
  // The end of what it printed, for the error when it stops at start.
  let output = '';
  // Seen once, kept: the line may scroll out of the kept output before the next check.
  let up = readyLine === undefined;
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-OUTPUT_KEPT);
    up ||= readyLine?.test(output) ?? true;
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exited: number | null | undefined;
  let closed = false;
  child.once('exit', (code) => {
    exited = code;
  });
  // Once its output has all been read (not before a child process that shares it exits too).
  child.once('close', () => {
    closed = true;
  });
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (exited !== undefined) {
      for (let waited = 0; !closed && waited < 1_000; waited += 25) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      throw new ServerExitedError(label, exited, logFile, output);
    }
    if (up && (await canConnect(port))) {
      child.stdout?.off('data', keep);
      child.stderr?.off('data', keep);
      return child;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill('SIGKILL');
  throw new Error(`${label} did not listen on port ${port} within 30 s`);
}

/** Stops a server; PostgreSQL takes SIGINT ("fast": ends sessions) where SIGTERM would wait for them. */
export function stopper(
  child: ChildProcess,
  signal: NodeJS.Signals = 'SIGTERM',
): () => Promise<void> {
  return async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };
}

/**
 * The order of a server's restarts (fault tests end its processes and start them again in
 * place) and its stop: each waits for the one before, so a stop ends the processes the last
 * restart started, and a restart asked for once the stop was asked for is refused.
 */
export function restartOrder(what: string): {
  restart(task: () => Promise<void>): Promise<void>;
  stop(task: () => Promise<void>): Promise<void>;
} {
  let tail: Promise<unknown> = Promise.resolve();
  let stopped: Promise<void> | undefined;
  const enqueue = (task: () => Promise<void>) => {
    const run = tail.then(task);
    tail = run.catch(() => undefined);
    return run;
  };
  return {
    restart: (task) =>
      stopped ? Promise.reject(new Error(`${what} was stopped: no restart`)) : enqueue(task),
    stop: (task) => (stopped ??= enqueue(task)),
  };
}

export async function startContainer(
  what: string,
  image: string,
  command: string[],
  port: number,
  url: (host: string, port: number) => string,
): Promise<RunningServer> {
  if (!dockerMayBeRunning()) throw new ServersUnavailableError(what);
  try {
    const { GenericContainer, Wait } = await import('testcontainers');
    let container = new GenericContainer(image)
      .withExposedPorts(port)
      .withWaitStrategy(Wait.forListeningPorts());
    if (command.length > 0) container = container.withCommand(command);
    const started = await container.start();
    return {
      url: url(started.getHost(), started.getMappedPort(port)),
      source: 'container',
      description: `${image} in a container`,
      stop: async () => {
        await started.stop();
      },
    };
  } catch (error) {
    throw new ServersUnavailableError(what, error);
  }
}

function dockerMayBeRunning(): boolean {
  return Boolean(process.env.DOCKER_HOST) || existsSync('/var/run/docker.sock');
}
