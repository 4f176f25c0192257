import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface ChildSpec {
  name: string;
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
}

export interface SupervisorEvents {
  onLine(name: string, line: string): void;
  onStart(name: string, pid: number, restarts: number): void;
  onExit(
    name: string,
    code: number | null,
    signal: string | null,
    restartInMs: number | undefined,
  ): void;
  /**
   * The child refused its settings (exit code `EXIT_CONFIG`): it is not restarted, since it would
   * refuse them again. `lines` are its last output lines, which say what is wrong.
   */
  onFatal?(name: string, lines: readonly string[]): void;
}

/** The exit code of a service that refused its environment (`runMain`, BSD's EX_CONFIG). */
export const EXIT_CONFIG = 78;
const KEPT_LINES = 20;

const MIN_BACKOFF_MS = 250;
const MAX_BACKOFF_MS = 10_000;
/** A child that stayed up this long is healthy again: its next crash restarts it at once. */
const STABLE_AFTER_MS = 30_000;

/** Keeps one child process running: restarts it with backoff when it dies, until stopped. */
export class Supervised {
  readonly spec: ChildSpec;
  private readonly events: SupervisorEvents;
  private child: ChildProcess | undefined;
  private stopping = false;
  private restarts = 0;
  private backoffMs = MIN_BACKOFF_MS;
  private timer: NodeJS.Timeout | undefined;
  private lastLines: string[] = [];

  constructor(spec: ChildSpec, events: SupervisorEvents) {
    this.spec = spec;
    this.events = events;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): void {
    const { spec } = this;
    const startedAt = Date.now();
    const child = spawn(spec.command, spec.args, {
      cwd: spec.cwd,
      env: spec.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    for (const stream of [child.stdout, child.stderr]) {
      if (stream)
        createInterface({ input: stream }).on('line', (line) => {
          this.lastLines.push(line);
          if (this.lastLines.length > KEPT_LINES) this.lastLines.shift();
          this.events.onLine(spec.name, line);
        });
    }
    child.once('spawn', () => this.events.onStart(spec.name, child.pid ?? -1, this.restarts));
    child.once('exit', (code, signal) => {
      if (this.child === child) this.child = undefined;
      if (this.stopping) {
        this.events.onExit(spec.name, code, signal, undefined);
        return;
      }
      if (code === EXIT_CONFIG) {
        this.stopping = true;
        this.events.onExit(spec.name, code, signal, undefined);
        // The output streams may still hold the last lines: read them before reporting.
        setImmediate(() => this.events.onFatal?.(spec.name, [...this.lastLines]));
        return;
      }
      if (Date.now() - startedAt > STABLE_AFTER_MS) this.backoffMs = MIN_BACKOFF_MS;
      const delay = this.backoffMs;
      this.backoffMs = Math.min(this.backoffMs * 2, MAX_BACKOFF_MS);
      this.events.onExit(spec.name, code, signal, delay);
      this.timer = setTimeout(() => {
        this.restarts += 1;
        this.start();
      }, delay);
    });
  }

  /** No more restarts: an exit from now on is final (a terminal's Ctrl-C reaches children too). */
  hold(): void {
    this.stopping = true;
    clearTimeout(this.timer);
  }

  /** SIGTERM, then SIGKILL after `graceMs` if the child is still there. */
  async stop(graceMs: number): Promise<void> {
    this.hold();
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const kill = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(kill);
  }
}
