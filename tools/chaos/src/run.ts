// One chaos run: the stack with replicas, the load and the faults for the given minutes, a drain
// until every delivery has arrived (or a deadline), then the checks. `npm run chaos` prints its
// summary and final line; the CI test runs a short one and asserts the same.
import { waitUntilEveryReplicaReady } from '@handoff/devstack';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { runFaults, type Fault } from './faults.ts';
import { Ledger } from './ledger.ts';
import { runLoad } from './load.ts';
import type { ChaosOptions } from './options.ts';
import { seeded } from './random.ts';
import { startReceivers, type Receivers } from './receiver.ts';
import { slopeFindings, slopesOf, startSampler, type Slopes } from './soak.ts';
import {
  duplicateBound,
  duplicateDeliveries,
  lastSequences,
  missedWakeUps,
  missingDeliveries,
  paymentsCompletedTwice,
  undeliveredWrites,
  unexpectedExits,
  unstoredWrites,
} from './verify.ts';
import { CHAOS_STACK_ENV, startWorld, type World } from './world.ts';

/** How long, after the faults, every delivery may take to arrive (retries of a fill included). */
export const DRAIN_TIMEOUT_MS = 180_000;
const PROVIDERS = 4;

export interface ChaosResult {
  seed: number;
  acknowledged: number;
  lost: number;
  duplicates: number;
  bound: number;
  faults: Fault[];
  /** Everything that failed a check (empty: the run passed). */
  findings: string[];
  /** The run's summary lines, the final line last. */
  lines: string[];
  slopes: Slopes[];
}

export async function runChaos(
  options: ChaosOptions,
  say: (line: string) => void,
): Promise<ChaosResult> {
  const random = seeded(options.seed);
  const receivers = await startReceivers(random.fork());
  let world: World | undefined;
  try {
    say(
      `chaos: starting the stack with ${options.replicas} replicas of every service (seed ${options.seed})`,
    );
    world = await startWorld({
      replicas: options.replicas,
      random: random.fork(),
      receivers,
      providers: PROVIDERS,
      say,
    });
    say(`chaos: ${world.gateways.length} gateways; data and logs in ${world.dataDir}`);
    return await exercise(world, receivers, options, random, say);
  } finally {
    await world?.stop();
    await receivers.close();
  }
}

async function exercise(
  world: World,
  receivers: Receivers,
  options: ChaosOptions,
  random: ReturnType<typeof seeded>,
  say: (line: string) => void,
): Promise<ChaosResult> {
  const ledger = new Ledger();
  const startedAt = Date.now();
  const sampler = options.soak
    ? startSampler(world.stack, join(world.dataDir, 'soak.jsonl'))
    : undefined;
  const stop = AbortSignal.timeout(options.minutes * 60_000);
  const run = `${options.seed}-${startedAt.toString(36)}`;
  say(`chaos: load and faults (${options.faults.join(', ') || 'none'}) for ${options.minutes} min`);
  const [faults] = await Promise.all([
    runFaults({
      world,
      receivers,
      kinds: options.faults,
      random: random.fork(),
      signal: stop,
      say,
      spareFirst: options.soak,
    }),
    runLoad({ world, ledger, random: random.fork(), run, signal: stop }),
  ]);
  const loadEndedAt = Date.now();
  say(`chaos: ${faults.length} faults, ${ledger.writes.length} acknowledged writes; draining`);
  // A replica that cannot reach its database stops after DB_LOST_EXIT_MS (60 s) and starts afresh.
  const allReady = await waitUntilEveryReplicaReady(world.stack.state(), 120_000);
  if (!allReady) say('chaos: not every replica is ready 120 s after the last fault');
  const requestIds = [...ledger.byRequest().keys()];
  const nats = natsOf(world);
  const deadline = Date.now() + DRAIN_TIMEOUT_MS;
  const outstanding = async () => {
    const last = await lastSequences(nats, requestIds);
    return {
      missing: missingDeliveries(receivers.logs(), last),
      undelivered: undeliveredWrites(ledger, receivers.logs()),
    };
  };
  let { missing, undelivered } = await outstanding();
  while ((missing.length > 0 || undelivered.length > 0) && Date.now() < deadline) {
    await sleep(2_000);
    ({ missing, undelivered } = await outstanding());
  }
  const series = sampler?.stop() ?? [];

  const unstored = await unstoredWrites(world.stack.state().mongo_url, ledger);
  // Lost: not in its store, or its event never reached an endpoint. Stored twice is a
  // finding of its own (a retried write made again), not a loss.
  const lostWrites = new Set([
    ...undelivered.map(({ write }) => `${write.kind} ${write.id}`),
    ...unstored.flatMap((problem) =>
      problem.endsWith(' is not stored') ? [problem.split(' of ')[0] ?? problem] : [],
    ),
  ]);
  const duplicates = duplicateDeliveries(receivers.logs());
  const bound = duplicateBound(
    faults,
    options.replicas,
    Number(CHAOS_STACK_ENV.WEBHOOK_CONCURRENCY),
  );
  const slopes = slopesOf(series, startedAt, loadEndedAt);
  const badSignatures = [...receivers.logs()].flatMap(([name, log]) =>
    log.badSignatures > 0 ? [`${name}: ${log.badSignatures} deliveries with a bad signature`] : [],
  );
  // The lists that may run long (one line per delivery) come last: the summary shows the first
  // 40 findings, and soak 72's 14 lost writes hid its growth findings behind them.
  const findings = [
    ...unstored,
    ...paymentsCompletedTwice(receivers.logs()),
    ...missedWakeUps(ledger, faults),
    ...unexpectedExits(world.exits, faults),
    ...ledger.unexpected,
    ...(allReady ? [] : ['not every replica was ready again 120 s after the last fault']),
    ...badSignatures,
    ...(duplicates > bound
      ? [`${duplicates} duplicate deliveries, over the bound of ${bound}`]
      : []),
    ...(options.soak ? slopeFindings(slopes) : []),
    ...undelivered.map(
      ({ write, endpoint }) =>
        `${endpoint} never took the event of ${write.kind} ${write.id} (${write.requestId})`,
    ),
    ...missing.map((gap) => `numbered event never delivered: ${gap}`),
  ];
  const lines = summary({ ledger, faults, receivers, slopes, options, findings });
  lines.push(
    `chaos: ${ledger.writes.length} acknowledged writes, ${lostWrites.size} lost, ${duplicates} duplicate deliveries (bound ${bound}), ${faults.length} faults, seed ${options.seed}`,
  );
  return {
    seed: options.seed,
    acknowledged: ledger.writes.length,
    lost: lostWrites.size,
    duplicates,
    bound,
    faults,
    findings,
    lines,
    slopes,
  };
}

function natsOf(world: World) {
  const state = world.stack.state();
  return {
    url: state.nats_url,
    ...(state.nats_user ? { user: state.nats_user } : {}),
    ...(state.nats_password ? { password: state.nats_password } : {}),
  };
}

function summary(input: {
  ledger: Ledger;
  faults: readonly Fault[];
  receivers: Receivers;
  slopes: readonly Slopes[];
  options: ChaosOptions;
  findings: readonly string[];
}): string[] {
  const { ledger, faults, receivers, slopes, findings } = input;
  const count = <T>(items: readonly T[], key: (item: T) => string) => {
    const counts = new Map<string, number>();
    for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
    return [...counts].map(([name, n]) => `${name} ${n}`).join(', ');
  };
  const lines = [
    `faults by kind: ${count(faults, (fault) => fault.kind) || 'none'}`,
    `acknowledged writes by kind: ${count(ledger.writes, (write) => write.kind)}`,
    `engagements completed: ${ledger.completed}; calls given up after retries: ${ledger.abandoned.length}`,
    `long-polls: ${ledger.polls.length} (${ledger.polls.filter((poll) => poll.events > 0).length} woke with events, ${ledger.polls.filter((poll) => poll.error).length} failed)`,
    ...[...receivers.logs()].map(
      ([name, log]) =>
        `endpoint ${name} (${log.mode}): ${log.taken.length} deliveries taken, ${log.refused} refused or held on purpose`,
    ),
  ];
  for (const abandoned of ledger.abandoned.slice(0, 5)) lines.push(`  given up: ${abandoned}`);
  if (input.options.soak) {
    lines.push(
      'per process over the second half after the warm-up (per minute; last sample): RSS ' +
        'outside the heap, its peak over the earlier peak; the RSS line; the heap floor; ' +
        'external; descriptors',
    );
    const slopeOf = (n: number | undefined) => (n === undefined ? 'n/a' : `${fmt(n)} MiB/min`);
    for (const s of slopes) {
      lines.push(
        `  ${s.name.padEnd(22)} RSS outside the heap ${fmt(s.rssPeakMiB)}, line ${fmt(s.rssMiB)} MiB/min (${s.last.rssMiB.toFixed(0)} MiB), heap ${slopeOf(s.heapMiB)} (${s.last.heapMiB?.toFixed(0) ?? '?'} of ${s.last.heapTotalMiB?.toFixed(0) ?? '?'} MiB), external ${slopeOf(s.externalMiB)} (${s.last.externalMiB?.toFixed(0) ?? '?'} MiB), descriptors ${fmt(s.fds)}/min (${s.last.fds})`,
      );
    }
  }
  lines.push(findings.length === 0 ? 'findings: none' : `findings (${findings.length}):`);
  for (const finding of findings.slice(0, 40)) lines.push(`  ${finding}`);
  if (findings.length > 40) lines.push(`  and ${findings.length - 40} more of the kinds above`);
  return lines;
}

const fmt = (n: number) => `${n >= 0 ? '+' : ''}${n.toFixed(2)}`;
