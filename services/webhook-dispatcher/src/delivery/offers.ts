// First attempts offered straight from the fan-out: taken when there is room, else waiting a
// short while for some, oldest first, before they are given back to be queued.
import type { DeliveryJob } from '../store/delivery-queue.ts';

export interface OffersOptions {
  /** The most offered attempts taken and not settled at once. */
  maxOffered: number;
  /** How long an offer waits for room before it is given back. */
  patienceMs: number;
  /** Room for one more offered attempt to the endpoint, besides the offers under way. */
  hasRoom(endpointId: string): boolean;
  /**
   * Holds the job here: resolves true once it is recorded (and its retry queued), false when it
   * is given back before it started; rejects with the failure of an attempt that was started.
   */
  take(job: DeliveryJob): Promise<boolean>;
}

interface Waiter {
  endpointId: string;
  admit(): void;
}

/**
 * An endpoint that stops answering so holds at most `maxOffered` of the event consumer's
 * handlers, for one attempt's timeout, and the offers behind them for `patienceMs`; its later
 * deliveries are queued.
 */
export class Offers {
  readonly #options: OffersOptions;
  /** Offered attempts taken and not yet settled. */
  #taken = 0;
  /** Offers waiting for room, oldest first. */
  readonly #awaitingRoom = new Set<Waiter>();
  #admitting = false;
  #closed = false;

  constructor(options: OffersOptions) {
    this.#options = options;
  }

  /** Offered attempts taken and not yet settled. */
  get taken(): number {
    return this.#taken;
  }

  /**
   * Takes the job when there is room now, else waits up to `patienceMs` for some (the attempts
   * under way settle within milliseconds while the endpoint keeps answering); resolves as `take`,
   * or false when it found no room in time.
   */
  offer(job: DeliveryJob): Promise<boolean> {
    const endpointId = job.endpoint_id;
    if (this.#closed) return Promise.resolve(false);
    if (this.#awaitingRoom.size === 0 && this.#roomFor(endpointId)) return this.#take(job);
    return new Promise<boolean>((resolve, reject) => {
      const waiter: Waiter = {
        endpointId,
        admit: () => {
          clearTimeout(patience);
          this.#take(job).then(resolve, reject);
        },
      };
      const patience = setTimeout(() => {
        this.#awaitingRoom.delete(waiter);
        resolve(false);
      }, this.#options.patienceMs);
      this.#awaitingRoom.add(waiter);
      // Behind others that wait for their endpoints' room, it may have room of its own.
      this.admitWaiting();
    });
  }

  /** Takes the offers that wait for room and have some now, oldest first. */
  admitWaiting(): void {
    if (this.#admitting) return;
    this.#admitting = true;
    try {
      for (const waiter of this.#awaitingRoom) {
        if (this.#closed) break;
        if (!this.#roomFor(waiter.endpointId)) continue;
        this.#awaitingRoom.delete(waiter);
        waiter.admit();
      }
    } finally {
      this.#admitting = false;
    }
  }

  /** No offer is taken any more; those waiting give up at the end of their patience. */
  close(): void {
    this.#closed = true;
  }

  #roomFor(endpointId: string): boolean {
    return this.#taken < this.#options.maxOffered && this.#options.hasRoom(endpointId);
  }

  #take(job: DeliveryJob): Promise<boolean> {
    this.#taken += 1;
    return this.#options.take(job).finally(() => {
      this.#taken -= 1;
      this.admitWaiting();
    });
  }
}
