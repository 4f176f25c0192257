import { call } from '@handoff/bus';
import {
  EVENTS_STREAM,
  EventEnvelope,
  proposalOps,
  requestOps,
  sha256Hex,
  type Job,
} from '@handoff/contracts';
import { bootstrap as bootstrapIntake } from '@handoff/intake';
import { natsEnv, natsOptions, testServers, uniqueDatabase, eventually } from '@handoff/testkit';
import { jetstream, jetstreamManager, type ConsumerMessages } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { bootstrap } from '../../src/bootstrap.ts';
import { collectionsOf } from '../../src/domain/documents.ts';

/**
 * The milestones service with the real intake beside it (intake owns requests and hands out
 * their event sequence numbers), a bus connection for calls, and every event of HANDOFF_EVENTS
 * as it arrives.
 */
export interface Work {
  service: Awaited<ReturnType<typeof bootstrap>>;
  nc: NatsConnection;
  /** Raw documents, for reading what a call stored (and what a refused call left alone). */
  raw: ReturnType<typeof collectionsOf>;
  events: ReceivedEvent[];
  /** The stream sequence of the last message the consumer has had. */
  lastSeen(): number;
  stop(): Promise<void>;
}

export interface ReceivedEvent {
  streamSequence: number;
  subject: string;
  event: EventEnvelope;
}

export const opts = { timeoutMs: 10_000 };
export const integration_id = 'int_work';

const env = (label: string) => ({
  // Each service as its own NATS user, as in production.
  ...natsEnv(label === 'intake' ? 'intake' : 'milestones'),
  MONGO_URL: testServers().mongoUrl,
  MONGO_DB: uniqueDatabase(label),
  HEALTH_PORT: '0',
  LOG_LEVEL: 'silent',
});

export async function startWork(): Promise<Work> {
  const intake = await bootstrapIntake({ env: env('intake') });
  const service = await bootstrap({ env: env('milestones') });
  const nc = await connect({ ...natsOptions() });
  const consumer = await jetstream(nc).consumers.get(EVENTS_STREAM.name, {
    filter_subjects: ['handoff.events.>'],
  });
  const feed: ConsumerMessages = await consumer.consume();
  const events: ReceivedEvent[] = [];
  let lastSeen = 0;
  const reading = (async () => {
    for await (const msg of feed) {
      lastSeen = msg.seq;
      const parsed = EventEnvelope.safeParse(msg.json());
      if (parsed.success) {
        events.push({ streamSequence: msg.seq, subject: msg.subject, event: parsed.data });
      }
    }
  })();
  return {
    service,
    nc,
    raw: collectionsOf(service.store),
    events,
    lastSeen: () => lastSeen,
    async stop() {
      await feed.close();
      await reading;
      await nc.close();
      await service.stop();
      await intake.stop();
    },
  };
}

/** A new request of the customer (through intake, which then allocates its sequences). */
export async function newRequest(work: Work): Promise<string> {
  const created = await call(
    work.nc,
    requestOps.create,
    { integration_id, token_hash: sha256Hex(`hrt_${Math.random()}`), input: { message: 'Help' } },
    opts,
  );
  return created.id;
}

/** A provider's proposal on `request_id`, accepted by the customer: the job it started. */
export async function newJob(
  work: Work,
  request_id: string,
  provider_id = 'prv_work',
  amount = 1_000,
): Promise<Job> {
  const proposal = await call(
    work.nc,
    proposalOps.create,
    {
      request_id,
      provider_id,
      provider_name: 'Work Provider',
      input: { message: 'I can do it', amount },
    },
    opts,
  );
  const accepted = await call(work.nc, proposalOps.accept, { id: proposal.id, request_id }, opts);
  return accepted.job;
}

/** Waits until the consumer has every event the stream holds right now. */
export async function caughtUp(work: Work): Promise<void> {
  const jsm = await jetstreamManager(work.nc);
  const { state } = await jsm.streams.info(EVENTS_STREAM.name);
  await eventually(() => (work.lastSeen() >= state.last_seq ? true : undefined), {
    what: `event stream sequence ${state.last_seq}`,
  });
}

/** The events whose snapshot is the resource `id`, in stream order. */
export function eventsAbout(work: Work, id: string): EventEnvelope[] {
  return work.events
    .filter((e) => (e.event.data.object as { id?: unknown }).id === id)
    .map((e) => e.event);
}

/** Waits for the `count`-th event about `id` and returns them all. */
export function awaitEventsAbout(work: Work, id: string, count: number): Promise<EventEnvelope[]> {
  return eventually(
    () => {
      const mine = eventsAbout(work, id);
      return mine.length >= count ? mine : undefined;
    },
    { what: `${count} events about ${id}` },
  );
}

/** A call that must fail: its error, for matching. */
export async function refused(promise: Promise<unknown>): Promise<Record<string, unknown>> {
  try {
    await promise;
  } catch (error) {
    return error as Record<string, unknown>;
  }
  throw new Error('expected the call to be refused');
}

/**
 * The parts of a `describeMachine` driver that every resource of this service shares: the stored
 * document (`raw`, by id) and the events about it.
 */
export function documentDriver<H extends { id: string; request_id: string }, D>(
  work: () => Work,
  raw: (id: string) => Promise<D | null>,
) {
  return {
    read: (handle: H) => raw(handle.id),
    events: async (handle: H) => {
      await caughtUp(work());
      return eventsAbout(work(), handle.id);
    },
    awaitEvents: (handle: H, count: number) => awaitEventsAbout(work(), handle.id, count),
    subject: (handle: H) => ({ id: handle.id, request_id: handle.request_id }),
  };
}
