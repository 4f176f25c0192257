// The jobs one replica works on: admitted from the queue or offered by the fan-out, held in
// per-endpoint lanes until a sending slot is free, then attempted, recorded and settled. The
// parts it runs each job through: admission.ts, lanes.ts and offers.ts decide, attempt.ts sends,
// outcome.ts records.
import { traceContextOf, tracesRecorded, withinContext } from '@handoff/observability';
import type { JsMsg } from '@nats-io/jetstream';
import { answerOf, endpointSlots, type EndpointSlots } from '../domain/endpoint-slots.ts';
import type { DeliveryJob } from '../store/delivery-queue.ts';
import {
  admitQueued,
  endpointShare,
  HAND_BACK_MAX_MS,
  offerable,
  OFFER_PATIENCE_MS,
  roomForOffer,
  stallPatienceMs,
  type EndpointLoad,
} from './admission.ts';
import { attemptDelivery, type JobStep } from './attempt.ts';
import { Lanes } from './lanes.ts';
import { Offers } from './offers.ts';
import { recordOutcome } from './outcome.ts';
import type { DeliveryResources } from './resources.ts';

/** How often the jobs waiting for stalled endpoints are handed back, and stuck ones given up. */
const STALL_CHECK_MS = 250;

/**
 * How long a job may be at work before this replica gives it up as stuck: four times the ack
 * wait (one attempt's timeout and a margin), two minutes at least. Every step of a job ends by
 * itself (the send at its timeout; a database or NATS call with an error once its server goes
 * away), so only a step that never ends reaches it. Soak 72 found one: a replica held 32 jobs for
 * its last 28 minutes, through some 30 database restarts, keeping them alive all along, so no
 * other replica ever got them. Given up, a job goes back to the queue (an offered one fails its
 * event, which comes again) and its room is freed; if the step ends after all, what it did counts
 * as one more attempt, a duplicate at the most.
 */
export function stuckAfterMs(ackWaitMs: number): number {
  return Math.max(120_000, 4 * ackWaitMs);
}

export interface WorkerLimits {
  /** Jobs at work at once (sending, or recording what was sent); twice that held. */
  concurrency: number;
  /** Sending slots an endpoint starts with ({@link endpointSlots}). */
  endpointConcurrency: number;
  /** The most sending slots a fast, healthy endpoint grows to. */
  endpointConcurrencyMax: number;
  /** First attempts taken straight from the fan-out at once, at the most. */
  maxOffered: number;
  /** How long the server waits for a sign of life before it gives a held job to another. */
  ackWaitMs: number;
  /** How long a job may be at work before it is given up as stuck ({@link stuckAfterMs}). */
  stuckAfterMs?: number;
}

/** A job held here. */
interface Held {
  job: DeliveryJob;
  /** The queue's message carrying the job; none for a first attempt offered by the fan-out. */
  msg?: JsMsg;
  /**
   * Settles an offered attempt: true once recorded (and its retry queued), false when it is
   * given back before it started (its endpoint stalled), or with its failure.
   */
  offered?: { resolve(taken: boolean): void; reject(error: unknown): void };
}

/** A job at work: started, and not yet ended or given up. */
interface Run {
  held: Held;
  endpointId: string;
  startedAt: number;
  step: JobStep;
  /** Its endpoint is still to answer: the job holds one of the endpoint's sending slots. */
  sending: boolean;
  /** Given up as stuck: whatever its step does once it ends, the job is not settled here. */
  givenUp: boolean;
  task?: Promise<void>;
}

export class DeliveryWorker {
  readonly #resources: DeliveryResources;
  readonly #limits: WorkerLimits;
  readonly #slots: EndpointSlots;
  readonly #lanes: Lanes<Held>;
  readonly #offers: Offers;
  /** Every queued job this replica holds, running or waiting: kept alive while held. */
  readonly #holding = new Set<JsMsg>();
  /** The jobs at work: started, and neither ended nor given up. */
  readonly #atWork = new Set<Run>();
  readonly #stuckAfterMs: number;
  readonly #keepAlive: NodeJS.Timeout;
  readonly #stallCheck: NodeJS.Timeout;
  #stopping = false;
  #roomFreed: (() => void) | undefined;

  constructor(resources: DeliveryResources, limits: WorkerLimits) {
    this.#resources = resources;
    this.#limits = limits;
    this.#stuckAfterMs = limits.stuckAfterMs ?? stuckAfterMs(limits.ackWaitMs);
    const slots = endpointSlots({
      initial: limits.endpointConcurrency,
      max: limits.endpointConcurrencyMax,
    });
    this.#slots = slots;
    this.#lanes = new Lanes<Held>({
      concurrency: limits.concurrency,
      slots: (endpointId) => slots.slots(endpointId),
      patienceMs: (endpointId) => stallPatienceMs(slots.answerMs(endpointId)),
    });
    this.#offers = new Offers({
      maxOffered: limits.maxOffered,
      patienceMs: OFFER_PATIENCE_MS,
      hasRoom: (endpointId) =>
        roomForOffer(this.#load(endpointId), {
          held: this.#lanes.held,
          concurrency: limits.concurrency,
          maxOffered: limits.maxOffered,
        }),
      take: (job) =>
        new Promise<boolean>((resolve, reject) => {
          this.#lanes.hold(job.endpoint_id, { job, offered: { resolve, reject } });
          this.#pump();
        }),
    });
    this.#keepAlive = setInterval(
      () => this.#signLife(),
      Math.max(100, Math.floor(limits.ackWaitMs / 3)),
    );
    this.#keepAlive.unref();
    this.#stallCheck = setInterval(() => {
      this.#handBackStalled();
      this.#giveUpStuck();
    }, STALL_CHECK_MS);
    this.#stallCheck.unref();
  }

  get stopping(): boolean {
    return this.#stopping;
  }

  /** Holds as many jobs as it takes from the queue: the consumer waits for room. */
  get full(): boolean {
    return this.#lanes.held >= this.#limits.concurrency * 2;
  }

  /** Resolves when some room may have been freed, or the worker is stopping. */
  roomFreed(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.#roomFreed = () => {
        this.#roomFreed = undefined;
        resolve();
      };
    });
  }

  /** A job from the queue: held here, or back to the server ({@link admitQueued}). */
  fromQueue(msg: JsMsg, job: DeliveryJob): void {
    const endpointId = job.endpoint_id;
    const admission = admitQueued(
      job,
      Date.now(),
      () => this.#load(endpointId),
      msg.info.deliveryCount - 1,
    );
    if (admission.kind === 'not-due') msg.nak(admission.wakeInMs);
    else if (admission.kind === 'hand-back') msg.nak(admission.delayMs);
    else {
      this.#lanes.hold(endpointId, { msg, job });
      this.#holding.add(msg);
      this.#pump();
    }
  }

  /**
   * A first attempt from the fan-out, to an endpoint that answers fast ({@link offerable}),
   * taken when there is room ({@link Offers}). Resolves true once the attempt is recorded and
   * any retry queued, false when it was not taken; rejects when it was taken and not recorded.
   */
  offer = (job: DeliveryJob): Promise<boolean> => {
    if (this.#stopping || !offerable(job, this.#slots.answerMs(job.endpoint_id))) {
      return Promise.resolve(false);
    }
    return this.#offers.offer(job);
  };

  /** Takes no job any more, and lets the consumer stop waiting for room. */
  stopTaking(): void {
    this.#stopping = true;
    this.#offers.close();
    this.#roomFreed?.();
  }

  /**
   * Once nothing more comes from the queue: jobs not started go back at once (to whichever
   * replica is left; an offered one to its event's handler, which queues it), and those under
   * way end.
   */
  async drain(): Promise<void> {
    this.stopTaking();
    clearInterval(this.#stallCheck);
    for (const held of this.#lanes.takeAllWaiting()) this.#giveBack(held);
    await Promise.allSettled([...this.#atWork].map((run) => run.task));
    clearInterval(this.#keepAlive);
    await this.#resources.records.close();
  }

  #load(endpointId: string): EndpointLoad {
    const slots = this.#slots.slots(endpointId);
    return {
      stalled: this.#lanes.stalled(endpointId),
      ahead: this.#lanes.ahead(endpointId),
      share: endpointShare(this.#limits.concurrency, slots),
      slots,
      answerMs: this.#slots.answerMs(endpointId),
    };
  }

  /** Starts waiting jobs while there are slots, then lets waiting offers and the consumer in. */
  #pump(): void {
    if (!this.#stopping) this.#lanes.startWaiting(this.#startJob);
    this.#roomFreed?.();
    this.#offers.admitWaiting();
  }

  readonly #startJob = (held: Held, endpointId: string): void => {
    this.#start(held, endpointId);
  };

  #start(held: Held, endpointId: string): void {
    const run: Run = {
      held,
      endpointId,
      startedAt: Date.now(),
      step: 'reading the endpoint',
      sending: true,
      givenUp: false,
    };
    this.#atWork.add(run);
    // A job starts wherever room was freed (another job's end): its work joins its own trace.
    const task = (
      tracesRecorded()
        ? withinContext(traceContextOf(held.job.traceparent), () => this.#run(run))
        : this.#run(run)
    )
      .then(
        () => {
          if (run.givenUp) return this.#endedAfterAll(run);
          held.msg?.ack();
          held.offered?.resolve(true);
        },
        (error: unknown) => {
          if (run.givenUp) return this.#endedAfterAll(run, error);
          this.#resources.logger.error(
            { err: error, delivery_id: held.job.delivery_id },
            'delivery attempt failed',
          );
          // An offered attempt fails its event, which comes again (and queues its jobs then).
          held.offered?.reject(error);
          // The same attempt again after a pause; the job carries its number, so the schedule
          // holds.
          held.msg?.nak(1_000);
        },
      )
      .catch(() => {
        // An ack or nak that could not be sent (the connection is closing): unacknowledged, the
        // job comes round again.
      })
      .finally(() => this.#end(run));
    run.task = task;
  }

  /** The endpoint is done with the run's job: its sending slot is free. Once per run. */
  #sent(run: Run): void {
    if (!run.sending) return;
    run.sending = false;
    this.#lanes.sent(run.endpointId);
    this.#pump();
  }

  /** Frees the run's room, once: when its job settled, or when it was given up. */
  #end(run: Run): void {
    if (!this.#atWork.delete(run)) return;
    this.#lanes.ended();
    if (run.held.msg) this.#holding.delete(run.held.msg);
    this.#sent(run);
    this.#pump();
  }

  /** One attempt, up to its records (and its retry queued); the caller then settles the job. */
  async #run(run: Run): Promise<void> {
    const { job, msg } = run.held;
    const onStep = (step: JobStep) => {
      run.step = step;
    };
    const sureFirst = job.attempt === 1 && !job.again && msg?.info.redelivered !== true;
    const result = await attemptDelivery(this.#resources, job, onStep);
    if (result.kind === 'sent') {
      // The endpoint is done with; what follows is this service's bookkeeping, which must not
      // throttle the endpoint (its job still counts against the concurrency until settled).
      const { send } = result;
      const answer = answerOf(send.statusCode, send.outcome);
      this.#slots.answered(
        job.endpoint_id,
        answer,
        send.durationMs,
        this.#lanes.busy(job.endpoint_id),
      );
      this.#sent(run);
    }
    await recordOutcome(this.#resources, job, sureFirst, result, onStep);
  }

  /** A job that waited here and will not be started by this replica now. */
  #giveBack(held: Held, delayMs?: number): void {
    held.offered?.resolve(false);
    const { msg } = held;
    if (!msg) return;
    this.#holding.delete(msg);
    try {
      msg.nak(delayMs);
    } catch {
      // Closing: the ack wait returns it.
    }
  }

  /**
   * Hands back what waits here for endpoints that stalled, freeing its room: endpoints that
   * stopped answering hold only their sending slots, never the room the others' jobs wait in.
   */
  #handBackStalled(): void {
    const stalled = this.#lanes.takeStalled();
    if (stalled.length === 0) return;
    for (const held of stalled) this.#giveBack(held, HAND_BACK_MAX_MS);
    this.#pump();
  }

  /**
   * Gives up the jobs at work for longer than {@link stuckAfterMs}: each goes back to the queue
   * at once (an offered one fails, and its event comes again), so another replica (or this one,
   * should the step that held it pass) attempts it, and its room is freed for the jobs behind it.
   */
  #giveUpStuck(): void {
    const now = Date.now();
    const stuck = [...this.#atWork].filter((run) => now - run.startedAt > this.#stuckAfterMs);
    for (const run of stuck) {
      const { job, msg, offered } = run.held;
      run.givenUp = true;
      this.#resources.logger.error(
        {
          delivery_id: job.delivery_id,
          endpoint_id: job.endpoint_id,
          attempt: job.attempt,
          step: run.step,
          at_work_ms: now - run.startedAt,
        },
        'delivery job stuck; given up here and handed back to be attempted again',
      );
      if (msg) {
        this.#holding.delete(msg);
        try {
          msg.nak();
        } catch {
          // Closing: the ack wait returns it.
        }
      }
      offered?.reject(new Error(`delivery ${job.delivery_id} stuck while ${run.step}`));
      this.#end(run);
    }
  }

  /** A job given up as stuck whose step ended after all: what it did is one more attempt. */
  #endedAfterAll(run: Run, error?: unknown): void {
    this.#resources.logger.warn(
      {
        err: error,
        delivery_id: run.held.job.delivery_id,
        step: run.step,
        at_work_ms: Date.now() - run.startedAt,
      },
      'a delivery job given up as stuck ended after all',
    );
  }

  #signLife(): void {
    for (const msg of this.#holding) {
      try {
        msg.working();
      } catch {
        // The connection is closing: unacknowledged, the job comes round again.
      }
    }
  }
}
