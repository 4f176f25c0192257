// The faults of a chaos run, on a seeded schedule: a service replica killed with SIGKILL (its
// supervisor starts it again), FerretDB or PostgreSQL restarted, NATS paused for a few seconds
// (SIGSTOP, then SIGCONT), and an endpoint that stops answering so that its queue fills.
import { ALL_SERVICES } from '@handoff/contracts';
import type { StackFaults } from '@handoff/devstack';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Random } from './random.ts';
import type { Receivers } from './receiver.ts';
import type { World } from './world.ts';

export const FAULT_KINDS = ['kill', 'nats-pause', 'ferretdb', 'postgres', 'endpoint-fill'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** How often each kind comes up, relative to the others. */
const WEIGHTS: Record<FaultKind, number> = {
  kill: 10,
  'nats-pause': 3,
  ferretdb: 2,
  postgres: 2,
  'endpoint-fill': 3,
};

/** Seconds between one fault's end and the next one's start. */
export const FAULT_GAP_S = { min: 3, max: 7 } as const;
/** How long NATS stays paused, and an endpoint stops answering, in seconds. */
export const NATS_PAUSE_S = { min: 2, max: 5 } as const;
export const FILL_S = { min: 8, max: 20 } as const;

export interface Fault {
  kind: FaultKind;
  /** What it hit: `intake#2`, `nats`, `ferretdb`, an endpoint's name. */
  target: string;
  at: number;
  /** How long it took to inject (a restart: until the server answered again). */
  ms: number;
}

/** Injects faults of `kinds` until `signal` aborts; every server is running again when it returns. */
export async function runFaults(options: {
  world: World;
  receivers: Receivers;
  kinds: readonly FaultKind[];
  random: Random;
  signal: AbortSignal;
  say(line: string): void;
  /**
   * Kills never hit the first replica of a service that runs several (a soak: its memory is
   * judged over the whole run).
   */
  spareFirst?: boolean;
}): Promise<Fault[]> {
  const { world, random, signal } = options;
  const faults: Fault[] = [];
  const handles = world.stack.faults();
  const kinds = options.kinds.filter((kind) => available(kind, handles));
  for (const kind of options.kinds.filter((kind) => !kinds.includes(kind))) {
    options.say(`chaos: no ${kind} faults: the stack does not run that server itself`);
  }
  if (kinds.length === 0) return faults;
  const pause = (s: number) =>
    sleep(s * 1000, undefined, { signal }).then(
      () => true,
      () => false,
    );
  // Every kind once first, in a seeded order, so that even a short run has each; then by weight.
  const firstRound = shuffled(random, kinds);
  while (await pause(random.int(FAULT_GAP_S.min * 10, FAULT_GAP_S.max * 10) / 10)) {
    const kind = firstRound.shift() ?? weighted(random, kinds);
    const at = Date.now();
    const target = await inject(kind, { ...options, handles });
    if (target !== undefined) faults.push({ kind, target, at, ms: Date.now() - at });
  }
  return faults;
}

function available(kind: FaultKind, handles: StackFaults | undefined): boolean {
  if (kind === 'kill' || kind === 'endpoint-fill') return true;
  if (kind === 'nats-pause') return (handles?.natsPids().length ?? 0) > 0;
  if (kind === 'ferretdb') return handles?.restartFerretDB !== undefined;
  return handles?.restartPostgres !== undefined;
}

function shuffled<T>(random: Random, items: readonly T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = random.int(0, i);
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

function weighted(random: Random, kinds: readonly FaultKind[]): FaultKind {
  const total = kinds.reduce((sum, kind) => sum + WEIGHTS[kind], 0);
  let roll = random() * total;
  for (const kind of kinds) {
    roll -= WEIGHTS[kind];
    if (roll < 0) return kind;
  }
  return kinds[kinds.length - 1] ?? 'kill';
}

/** Injects one fault; what it hit, or undefined when there was nothing to hit. */
async function inject(
  kind: FaultKind,
  options: {
    world: World;
    receivers: Receivers;
    random: Random;
    handles: StackFaults | undefined;
    spareFirst?: boolean;
  },
): Promise<string | undefined> {
  const { world, random, handles } = options;
  switch (kind) {
    case 'kill': {
      const services = world.stack.state().services;
      const name = random.pick(ALL_SERVICES);
      const replicas = services[name]?.replicas ?? [];
      const spared = options.spareFirst === true && replicas.length > 1 ? 1 : 0;
      const index = random.int(spared, replicas.length - 1);
      const pid = replicas[index]?.pid;
      if (pid === undefined) return undefined;
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        return undefined;
      }
      return replicas.length > 1 ? `${name}#${index + 1}` : name;
    }
    case 'nats-pause': {
      const pids = handles?.natsPids() ?? [];
      for (const pid of pids) process.kill(pid, 'SIGSTOP');
      try {
        await sleep(random.int(NATS_PAUSE_S.min * 1000, NATS_PAUSE_S.max * 1000));
      } finally {
        for (const pid of pids) process.kill(pid, 'SIGCONT');
      }
      return 'nats';
    }
    case 'ferretdb':
      await handles?.restartFerretDB?.();
      return 'ferretdb';
    case 'postgres':
      await handles?.restartPostgres?.();
      return 'postgres';
    case 'endpoint-fill': {
      const name = random.pick(['steady', 'flaky']);
      options.receivers.fill(name, random.int(FILL_S.min * 1000, FILL_S.max * 1000));
      return name;
    }
  }
}
