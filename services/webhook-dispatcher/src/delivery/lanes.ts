// The jobs one replica holds, per endpoint: those waiting for a sending slot, in the order their
// endpoints are served, and how many of each endpoint's are sending. Bookkeeping only; what a
// job does once started is the worker's.

export interface LaneLimits {
  /** Jobs at work at once (sending, or recording what was sent). */
  concurrency: number;
  /** The sending slots of an endpoint now. */
  slots(endpointId: string): number;
  /** How long the endpoint may go without progress before it counts as stalled. */
  patienceMs(endpointId: string): number;
}

export class Lanes<T> {
  readonly #limits: LaneLimits;
  readonly #now: () => number;
  /** Jobs waiting for a slot, per endpoint, in the order their endpoints are served. */
  readonly #waiting = new Map<string, T[]>();
  readonly #sending = new Map<string, number>();
  /**
   * Per endpoint with attempts under way: when it last answered, or was given an attempt while
   * none was under way (see {@link stalled}).
   */
  readonly #progressAt = new Map<string, number>();
  #running = 0;
  #waitingCount = 0;

  constructor(limits: LaneLimits, now: () => number = Date.now) {
    this.#limits = limits;
    this.#now = now;
  }

  /** Jobs at work (started and not ended). */
  get running(): number {
    return this.#running;
  }

  /** Jobs held, at work or waiting. */
  get held(): number {
    return this.#running + this.#waitingCount;
  }

  /** The endpoint's jobs held here, sending or waiting. */
  ahead(endpointId: string): number {
    return (this.#waiting.get(endpointId)?.length ?? 0) + (this.#sending.get(endpointId) ?? 0);
  }

  /** Every slot of the endpoint is in use, or jobs wait for one. */
  busy(endpointId: string): boolean {
    return (
      (this.#waiting.get(endpointId)?.length ?? 0) > 0 ||
      (this.#sending.get(endpointId) ?? 0) >= this.#limits.slots(endpointId)
    );
  }

  /**
   * Whether the endpoint stopped answering: attempts under way and no progress for its patience.
   * Its attempts under way keep their slots until they end (the attempt timeout at the most).
   */
  stalled(endpointId: string): boolean {
    const since = this.#progressAt.get(endpointId);
    if (since === undefined) return false;
    return this.#now() - since > this.#limits.patienceMs(endpointId);
  }

  /** Holds a job for the endpoint, behind its others. */
  hold(endpointId: string, job: T): void {
    const list = this.#waiting.get(endpointId);
    if (list) list.push(job);
    else this.#waiting.set(endpointId, [job]);
    this.#waitingCount += 1;
  }

  /**
   * Starts waiting jobs while there is room, one endpoint after another in turn (a served
   * endpoint goes to the back of the line), each only while it has a free slot. `start` gets the
   * job, already counted as sending for its endpoint.
   */
  startWaiting(start: (job: T, endpointId: string) => void): void {
    const concurrency = this.#limits.concurrency;
    let started = true;
    while (started && this.#running < concurrency) {
      started = false;
      for (const [endpointId, list] of this.#waiting) {
        if (this.#running >= concurrency) break;
        if ((this.#sending.get(endpointId) ?? 0) >= this.#limits.slots(endpointId)) continue;
        const next = list.shift();
        this.#waiting.delete(endpointId);
        if (list.length > 0) this.#waiting.set(endpointId, list);
        if (next === undefined) continue;
        this.#waitingCount -= 1;
        this.#begin(endpointId);
        start(next, endpointId);
        started = true;
      }
    }
  }

  #begin(endpointId: string): void {
    this.#running += 1;
    const before = this.#sending.get(endpointId) ?? 0;
    if (before === 0) this.#progressAt.set(endpointId, this.#now());
    this.#sending.set(endpointId, before + 1);
  }

  /** A started job's endpoint has answered (or not): its slot is free. Once per started job. */
  sent(endpointId: string): void {
    const left = (this.#sending.get(endpointId) ?? 1) - 1;
    if (left > 0) {
      this.#sending.set(endpointId, left);
      this.#progressAt.set(endpointId, this.#now());
    } else {
      this.#sending.delete(endpointId);
      this.#progressAt.delete(endpointId);
    }
  }

  /** A started job is settled: it no longer counts against `concurrency`. Once per started job. */
  ended(): void {
    this.#running -= 1;
  }

  /** Takes every job waiting for an endpoint that stalled. */
  takeStalled(): T[] {
    const taken: T[] = [];
    for (const [endpointId, list] of this.#waiting) {
      if (!this.stalled(endpointId)) continue;
      this.#waiting.delete(endpointId);
      this.#waitingCount -= list.length;
      taken.push(...list);
    }
    return taken;
  }

  /** Takes every waiting job (the worker is stopping). */
  takeAllWaiting(): T[] {
    const taken = [...this.#waiting.values()].flat();
    this.#waiting.clear();
    this.#waitingCount = 0;
    return taken;
  }
}
