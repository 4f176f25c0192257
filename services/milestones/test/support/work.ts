import { afterAll, beforeAll, expect } from '@jest/globals';
import { call } from '@handoff/bus';
import {
  EVENTS_STREAM,
  EventEnvelope,
  milestoneOps,
  proposalOps,
  requestOps,
  type Job,
  type NotFoundCode,
  type Operation,
  type Party,
} from '@handoff/contracts';
import { sha256Hex } from '@handoff/runtime';
import { bootstrap as bootstrapIntake } from '@handoff/intake';
import { eventually, serviceEnv, ServiceStack, uniqueDatabase } from '@handoff/testkit';
import { jetstreamManager, type JsMsg } from '@nats-io/jetstream';
import type { z } from 'zod';
import { bootstrap } from '../../src/bootstrap.ts';
import { collectionsOf } from '../../src/store/collections.ts';

/**
 * The milestones service with the real intake beside it (intake owns requests and hands out
 * their event sequence numbers), a bus connection for calls, and every event of HANDOFF_EVENTS
 * as it arrives. Each test file takes one from `useWork`.
 */
export interface ReceivedEvent {
  streamSequence: number;
  subject: string;
  event: EventEnvelope;
}

export const opts = { timeoutMs: 10_000 };
export const DAY = 24 * 60 * 60 * 1000;
export const integration_id = 'int_work';

// Each service as its own NATS user, as in production.
const env = (user: 'intake' | 'milestones') => serviceEnv(user, uniqueDatabase(user));

interface Parts {
  service: Awaited<ReturnType<typeof bootstrap>>;
  raw: ReturnType<typeof collectionsOf>;
  stop(): Promise<void>;
}

export class Work extends ServiceStack<Parts> {
  readonly events: ReceivedEvent[] = [];
  /** The stream sequence of the last message the consumer has had. */
  #lastSeen = 0;
  protected readonly what = 'milestones service';

  get service(): Parts['service'] {
    return this.parts.service;
  }

  /** Raw documents, for reading what a call stored (and what a refused call left alone). */
  get raw(): Parts['raw'] {
    return this.parts.raw;
  }

  protected async launch(): Promise<Parts> {
    const intake = await bootstrapIntake({ env: env('intake') });
    const service = await bootstrap({ env: env('milestones') });
    return {
      service,
      raw: collectionsOf(service.store),
      stop: async () => {
        await service.stop();
        await intake.stop();
      },
    };
  }

  protected onEvent(msg: JsMsg): void {
    this.#lastSeen = msg.seq;
    const parsed = EventEnvelope.safeParse(msg.json());
    if (parsed.success) {
      this.events.push({ streamSequence: msg.seq, subject: msg.subject, event: parsed.data });
    }
  }

  /** A call to `op` over the bus, as one of the other services would make it. */
  call<I extends z.ZodType, O extends z.ZodType>(
    op: Operation<I, O>,
    input: z.input<I>,
    options: { timeoutMs: number; callId?: string } = opts,
  ): Promise<z.output<O>> {
    return call(this.nc, op, input, options);
  }

  /** A new request of the customer (through intake, which then allocates its sequences). */
  async newRequest(): Promise<string> {
    const created = await this.call(requestOps.create, {
      integration_id,
      token_hash: sha256Hex(`hrt_${Math.random()}`),
      input: { message: 'Help' },
    });
    return created.id;
  }

  /** A provider's proposal on `request_id`, accepted by the customer: the job it started. */
  async newJob(request_id: string, provider_id = 'prv_work', amount = 1_000): Promise<Job> {
    const proposal = await this.call(proposalOps.create, {
      request_id,
      provider_id,
      provider_name: 'Work Provider',
      input: { message: 'I can do it', amount },
    });
    const accepted = await this.call(proposalOps.accept, { id: proposal.id, request_id });
    return accepted.job;
  }

  /** A new request with a job of `provider_id` on it: the setup most files start from. */
  async requestWithJob(provider_id: string, amount?: number) {
    const request_id = await this.newRequest();
    return { request_id, job: await this.newJob(request_id, provider_id, amount) };
  }

  /** A milestone the job's provider adds to `job`. */
  newMilestone(job: Job, input: { title: string; due_at?: string } = { title: 'All of it' }) {
    return this.call(milestoneOps.create, { job_id: job.id, provider_id: job.provider_id, input });
  }

  /** Waits until the consumer has every event the stream holds right now. */
  async caughtUp(): Promise<void> {
    const jsm = await jetstreamManager(this.nc);
    const { state } = await jsm.streams.info(EVENTS_STREAM.name);
    await eventually(() => (this.#lastSeen >= state.last_seq ? true : undefined), {
      what: `event stream sequence ${state.last_seq}`,
    });
  }

  /** The events whose snapshot is the resource `id`, in stream order. */
  eventsAbout(id: string): EventEnvelope[] {
    return this.events
      .filter((e) => (e.event.data.object as { id?: unknown }).id === id)
      .map((e) => e.event);
  }

  /** Waits for the `count`-th event about `id` and returns them all. */
  awaitEventsAbout(id: string, count: number): Promise<EventEnvelope[]> {
    return eventually(
      () => {
        const mine = this.eventsAbout(id);
        return mine.length >= count ? mine : undefined;
      },
      { what: `${count} events about ${id}` },
    );
  }

  /**
   * Sweeps around the deadline of `id`, which entered `state` at `enteredAt` (ms) and waits
   * `days` there: a day before the deadline it stays; a day after, the sweep moves it and its
   * event follows. Gives the time of the moving sweep and that event.
   */
  async sweepAround(
    sweep: (now: Date) => Promise<number>,
    id: string,
    wait: { state: string; enteredAt: number; days: number },
    read: (id: string) => Promise<{ status: string } | null>,
  ): Promise<{ later: Date; event: EventEnvelope | undefined }> {
    await this.caughtUp();
    const eventsBefore = this.eventsAbout(id).length;
    await sweep(new Date(wait.enteredAt + (wait.days - 1) * DAY));
    expect((await read(id))?.status).toBe(wait.state);

    const later = new Date(wait.enteredAt + (wait.days + 1) * DAY);
    expect(await sweep(later)).toBeGreaterThanOrEqual(1);
    const events = await this.awaitEventsAbout(id, eventsBefore + 1);
    return { later, event: events.at(-1) };
  }

  /**
   * The parts of a `describeMachine` driver that every resource of this service shares: the
   * stored document (`raw`, by id) and the events about it.
   */
  documentDriver<H extends { id: string; request_id: string }, D>(
    raw: (id: string) => Promise<D | null>,
  ) {
    return {
      read: (handle: H) => raw(handle.id),
      events: async (handle: H) => {
        await this.caughtUp();
        return this.eventsAbout(handle.id);
      },
      awaitEvents: (handle: H, count: number) => this.awaitEventsAbout(handle.id, count),
      subject: (handle: H) => ({ id: handle.id, request_id: handle.request_id }),
    };
  }
}

/** The service started before the file's tests and stopped after them. */
export function useWork(): Work {
  const work = new Work();
  beforeAll(() => work.start());
  afterAll(() => work.stop());
  return work;
}

/** A customer of another request and another provider: parties a resource is hidden from. */
export const strangers = (request_id = 'req_other', provider_id = 'prv_other'): Party[] => [
  { role: 'customer', request_id },
  { role: 'provider', provider_id },
];

/** Each party is refused the resource as not found (`code`), and lists none. */
export async function hiddenFrom(
  parties: Party[],
  get: (party: Party) => Promise<unknown>,
  list: (party: Party) => Promise<{ data: unknown[] }>,
  code: NotFoundCode,
): Promise<void> {
  for (const party of parties) {
    expect(await refused(get(party))).toMatchObject({ code });
    expect((await list(party)).data).toEqual([]);
  }
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
