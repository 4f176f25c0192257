// Another process's resident memory, sampled from outside: /proc/<pid>/status on Linux, `ps`
// elsewhere. What a scenario compares is one process's peak against its idle, so the sampler
// keeps every sample with its time and says when the process it samples changed (a restart).
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** VmRSS of a /proc/<pid>/status text, in bytes; undefined when it has none. */
export function parseVmRss(status: string): number | undefined {
  const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
  return match?.[1] === undefined ? undefined : Number(match[1]) * 1024;
}

/** Process `pid`'s resident memory in bytes; undefined when it is gone. */
export async function rssOf(pid: number): Promise<number | undefined> {
  if (process.platform === 'linux') {
    try {
      return parseVmRss(await readFile(`/proc/${pid}/status`, 'utf8'));
    } catch {
      return undefined;
    }
  }
  try {
    const { stdout } = await run('ps', ['-o', 'rss=', '-p', String(pid)]);
    const kib = Number(stdout.trim());
    return stdout.trim() !== '' && Number.isFinite(kib) ? kib * 1024 : undefined;
  } catch {
    return undefined;
  }
}

export interface RssSample {
  /** `performance.now()` when it was read. */
  at: number;
  pid: number;
  bytes: number;
}

/** The largest sample at or after `from` (a `performance.now()`); undefined when there is none. */
export function peakSince(samples: readonly RssSample[], from: number): RssSample | undefined {
  let peak: RssSample | undefined;
  for (const sample of samples) {
    if (sample.at >= from && (peak === undefined || sample.bytes > peak.bytes)) peak = sample;
  }
  return peak;
}

/** The last sample before `before`; undefined when there is none. */
export function lastBefore(samples: readonly RssSample[], before: number): RssSample | undefined {
  let last: RssSample | undefined;
  for (const sample of samples) if (sample.at < before) last = sample;
  return last;
}

/**
 * Samples the resident memory of the process `pid()` names every `intervalMs` until stopped,
 * one read at a time (a slow read delays the next rather than piling up).
 */
export class RssSampler {
  readonly samples: RssSample[] = [];
  readonly #pid: () => number | undefined;
  readonly #intervalMs: number;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;
  #reading: Promise<void> = Promise.resolve();

  constructor(pid: () => number | undefined, intervalMs: number) {
    this.#pid = pid;
    this.#intervalMs = intervalMs;
  }

  start(): void {
    this.#tick();
  }

  /** One sample now (the sampler need not be running); undefined when the process is gone. */
  async sample(): Promise<RssSample | undefined> {
    const pid = this.#pid();
    if (pid === undefined) return undefined;
    const bytes = await rssOf(pid);
    if (bytes === undefined) return undefined;
    const sample = { at: performance.now(), pid, bytes };
    this.samples.push(sample);
    return sample;
  }

  /** Takes no more samples once the one under way is done. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#reading;
  }

  /** The process ids seen, in order, each once. */
  pids(): number[] {
    return [...new Set(this.samples.map((sample) => sample.pid))];
  }

  #tick(): void {
    if (this.#stopped) return;
    this.#reading = this.sample().then(
      () => undefined,
      () => undefined,
    );
    void this.#reading.then(() => {
      if (!this.#stopped) this.#timer = setTimeout(() => this.#tick(), this.#intervalMs);
    });
  }
}
