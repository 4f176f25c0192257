// The checks at the end of a chaos run, from the outside (what the endpoints took, what the
// long-polls saw) and from the stores (the services' databases, the event numbers in NATS):
// every acknowledged write is stored once and its event reached every endpoint; each request's
// events are numbered with no gap and each number reached every endpoint; no payment completed
// twice; every long-poll woke for a write made while it waited; duplicates within the bound.
import { SEQUENCES_BUCKET, SequenceState } from '@handoff/contracts';
import { Kvm } from '@nats-io/kv';
import { connect } from '@nats-io/transport-node';
import { MongoClient } from 'mongodb';
import type { Fault } from './faults.ts';
import type { AckedWrite, Ledger, WriteKind } from './ledger.ts';
import type { EndpointLog } from './receiver.ts';

/** Where each kind of write is stored, and the event it must have caused. */
const STORED: Partial<Record<WriteKind, { db: string; collection: string; textField?: string }>> = {
  request: { db: 'handoff_intake', collection: 'requests', textField: 'message' },
  message: { db: 'handoff_conversation', collection: 'messages', textField: 'message' },
  proposal: { db: 'handoff_milestones', collection: 'proposals', textField: 'message' },
  payment_request: {
    db: 'handoff_payments',
    collection: 'payment_requests',
    textField: 'description',
  },
  payment_confirm: { db: 'handoff_payments', collection: 'payments' },
  deliverable: { db: 'handoff_milestones', collection: 'deliverables' },
  milestone_approval: { db: 'handoff_milestones', collection: 'milestones' },
  job_complete: { db: 'handoff_milestones', collection: 'jobs' },
};
/** The event an acknowledged write causes, found by its type and its object's id. */
const EVENT_OF: Partial<Record<WriteKind, string>> = {
  request: 'request.created',
  message: 'message.created',
  proposal: 'proposal.received',
  accept: 'proposal.accepted',
  payment_request: 'payment.requested',
  payment_confirm: 'payment.completed',
  deliverable: 'deliverable.created',
  milestone_approval: 'milestone.approved',
  job_complete: 'job.completed',
};

/** The last number each request's events got, from `HANDOFF_SEQUENCES`. */
export async function lastSequences(
  nats: { url: string; user?: string; password?: string },
  requestIds: readonly string[],
): Promise<Map<string, number>> {
  const nc = await connect({
    servers: nats.url,
    ...(nats.user ? { user: nats.user, pass: nats.password } : {}),
  });
  try {
    const kv = await new Kvm(nc).open(SEQUENCES_BUCKET.name);
    const last = new Map<string, number>();
    for (const id of requestIds) {
      const entry = await kv.get(id);
      if (entry?.operation === 'PUT') last.set(id, SequenceState.parse(entry.json()).last);
    }
    return last;
  } finally {
    await nc.close();
  }
}

/** The (endpoint, request, number) deliveries still missing: numbered events no endpoint took. */
export function missingDeliveries(
  logs: ReadonlyMap<string, EndpointLog>,
  last: ReadonlyMap<string, number>,
): string[] {
  const missing: string[] = [];
  for (const [name, log] of logs) {
    const seen = new Map<string, Set<number>>();
    for (const taken of log.taken) {
      const numbers = seen.get(taken.requestId) ?? new Set<number>();
      numbers.add(taken.sequence);
      seen.set(taken.requestId, numbers);
    }
    for (const [requestId, upto] of last) {
      for (let n = 1; n <= upto; n += 1) {
        if (!seen.get(requestId)?.has(n)) missing.push(`${name}: ${requestId} #${n}`);
      }
    }
  }
  return missing;
}

/** Writes whose event no endpoint took (by type and the object's id). */
export function undeliveredWrites(
  ledger: Ledger,
  logs: ReadonlyMap<string, EndpointLog>,
): { write: AckedWrite; endpoint: string }[] {
  const found: { write: AckedWrite; endpoint: string }[] = [];
  for (const [name, log] of logs) {
    const keys = new Set(log.taken.map((t) => `${t.type} ${t.objectId ?? t.requestId}`));
    for (const write of ledger.writes) {
      const type = EVENT_OF[write.kind];
      if (type !== undefined && !keys.has(`${type} ${write.id}`))
        found.push({ write, endpoint: name });
    }
  }
  return found;
}

/** Acknowledged writes not in their store exactly once (by id, and by their text where they have one). */
export async function unstoredWrites(mongoUrl: string, ledger: Ledger): Promise<string[]> {
  const client = new MongoClient(mongoUrl, { serverSelectionTimeoutMS: 30_000 });
  const problems: string[] = [];
  try {
    for (const write of ledger.writes) {
      const where = STORED[write.kind];
      if (!where) continue;
      const collection = client.db(where.db).collection<{ _id: string }>(where.collection);
      if ((await collection.countDocuments({ _id: write.id })) !== 1) {
        problems.push(`${write.kind} ${write.id} of ${write.requestId} is not stored`);
      }
      if (where.textField && write.text !== undefined) {
        const copies = await collection.countDocuments({ [where.textField]: write.text });
        if (copies !== 1) problems.push(`${write.kind} "${write.text}" is stored ${copies} times`);
      }
    }
    const payments = client.db('handoff_payments').collection('payments');
    for (const approval of ledger.ofKind('payment_approval')) {
      const made = await payments.countDocuments({ payment_request_id: approval.id });
      if (made !== 1) problems.push(`payment request ${approval.id} made ${made} payments`);
    }
  } finally {
    await client.close();
  }
  return problems;
}

/** Payments whose completion was announced by more than one event (a second completion). */
export function paymentsCompletedTwice(logs: ReadonlyMap<string, EndpointLog>): string[] {
  const events = new Map<string, Set<string>>();
  for (const log of logs.values()) {
    for (const taken of log.taken) {
      if (taken.type !== 'payment.completed' || taken.objectId === undefined) continue;
      const ids = events.get(taken.objectId) ?? new Set<string>();
      ids.add(taken.eventId);
      events.set(taken.objectId, ids);
    }
  }
  return [...events].flatMap(([payment, ids]) =>
    ids.size > 1 ? [`payment ${payment} completed by ${ids.size} events`] : [],
  );
}

/** Deliveries an endpoint took again (the same event id answered 2xx more than once). */
export function duplicateDeliveries(logs: ReadonlyMap<string, EndpointLog>): number {
  let duplicates = 0;
  for (const log of logs.values()) {
    const seen = new Set<string>();
    for (const taken of log.taken) {
      if (seen.has(taken.eventId)) duplicates += 1;
      else seen.add(taken.eventId);
    }
  }
  return duplicates;
}

/**
 * The documented bound on duplicate deliveries (README, "Chaos"): an endpoint takes an event
 * again only when a dispatcher replica loses an attempt it made after the 2xx came back and
 * before its job was acknowledged. A killed dispatcher replica loses at most the
 * `WEBHOOK_CONCURRENCY` attempts it had at work; a database restart or a NATS pause can fail the
 * recording or the acknowledgement of those at work on every replica.
 */
export function duplicateBound(
  faults: readonly Fault[],
  replicas: number,
  concurrency: number,
): number {
  let bound = 0;
  for (const fault of faults) {
    if (fault.kind === 'kill' && fault.target.startsWith('webhook-dispatcher'))
      bound += concurrency;
    if (fault.kind === 'ferretdb' || fault.kind === 'postgres' || fault.kind === 'nats-pause') {
      bound += concurrency * replicas;
    }
  }
  return bound;
}

/**
 * Long-polls that waited their whole time although a write on their request was acknowledged
 * while they waited (`marginMs` before they ended, so its event had time to be published), with
 * no fault in between that could hold the event back.
 */
export function missedWakeUps(
  ledger: Ledger,
  faults: readonly Fault[],
  marginMs = 2_000,
): string[] {
  const byRequest = ledger.byRequest();
  const missed: string[] = [];
  for (const poll of ledger.polls) {
    if (poll.events > 0 || poll.error !== undefined) continue;
    const woken = (byRequest.get(poll.requestId) ?? []).find(
      (write) => write.ackedAt >= poll.startedAt && write.ackedAt <= poll.endedAt - marginMs,
    );
    if (!woken) continue;
    const excused = faults.some(
      (fault) =>
        fault.kind !== 'endpoint-fill' &&
        fault.at <= poll.endedAt &&
        fault.at + fault.ms >= woken.ackedAt - 1_000,
    );
    if (excused) continue;
    // What came last before the write, to tell a fault's tail from a wake-up lost for no cause.
    const before = faults.filter((fault) => fault.at <= woken.ackedAt).at(-1);
    const lastFault = before
      ? `; the last fault before it (${before.kind} ${before.target}) ended ${((woken.ackedAt - before.at - before.ms) / 1000).toFixed(1)} s earlier`
      : '';
    missed.push(
      `long-poll of ${poll.requestId} after ${poll.after} slept through ${woken.kind} ${woken.id}, ` +
        `acknowledged ${((woken.ackedAt - poll.startedAt) / 1000).toFixed(1)} s into its ` +
        `${((poll.endedAt - poll.startedAt) / 1000).toFixed(1)} s${lastFault}`,
    );
  }
  return missed;
}

/** A replica's exit, as the supervisor saw it. */
export interface Exit {
  name: string;
  code: number | null;
  signal: string | null;
  at: number;
}

/**
 * The exit codes a replica may end with under the faults (`runMain`): it could not start (its
 * database or NATS away, 69), or its database stayed away for `DB_LOST_EXIT_MS` (75). The
 * supervisor starts either again.
 */
export const FAULT_EXIT_CODES: ReadonlyMap<number, string> = new Map([
  [69, 'could not start'],
  [75, 'lost its database'],
]);

/** How long after its kill a replica's SIGKILL exit still counts as that kill's. */
const KILL_EXIT_MS = 10_000;

/**
 * Exits the faults do not explain: a SIGKILL with no kill of that replica just before it (the
 * kernel's OOM killer sends one too), any other signal (an abort), and any code but those of
 * {@link FAULT_EXIT_CODES}: 1 is Node's own for an uncaught exception or an unhandled rejection,
 * 70 a graceful stop that failed, 78 settings refused, 0 a stop no one asked for.
 */
export function unexpectedExits(exits: readonly Exit[], faults: readonly Fault[]): string[] {
  const killed = (exit: Exit) =>
    faults.some(
      (fault) =>
        fault.kind === 'kill' &&
        fault.target === exit.name &&
        fault.at <= exit.at &&
        exit.at - fault.at <= KILL_EXIT_MS,
    );
  return exits.flatMap((exit) => {
    if (exit.signal === 'SIGKILL' && killed(exit)) return [];
    if (exit.signal === null && exit.code !== null && FAULT_EXIT_CODES.has(exit.code)) return [];
    const how = exit.signal ? `on ${exit.signal}` : `with code ${String(exit.code)}`;
    const why =
      exit.code === 1
        ? ' (an uncaught exception or unhandled rejection)'
        : exit.signal === 'SIGKILL'
          ? ' (not a kill of this run)'
          : '';
    return [`${exit.name} exited ${how}${why}; its last lines are in stack.log`];
  });
}
