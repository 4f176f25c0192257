// Matching webhook deliveries at a receiver to the events the bench created: one event fans out
// to every endpoint of its integration, so each event waits for a delivery to each endpoint.
import { recordNs } from './measure.ts';
import type { Measurement } from './types.ts';

interface Pending {
  sentAt: bigint;
  /** 1 for each endpoint that has had its delivery. */
  seen: Uint8Array;
  left: number;
  measurement: Measurement;
  done(): void;
  timer?: NodeJS.Timeout;
}

interface Arrival {
  endpoint: number;
  receivedAt: bigint;
}

export interface ExpectOptions {
  /** How long the last delivery may take; each one missing then is an error. */
  timeoutMs: number;
  /** Stops waiting at once, counting nothing (the run is being interrupted). */
  signal?: AbortSignal;
}

/**
 * Deliveries of events the bench created, keyed by the event's request id and the receiving
 * endpoint's index. For each event it expects one delivery to each of `endpoints` endpoints: a
 * first one counts as a completion with its latency from the event's send time; another one to the
 * same endpoint is an error (a duplicate). A delivery may arrive before its event is expected (the
 * create call's answer can be slower than the whole delivery path); it waits for that, and one
 * that is never claimed is a stray ({@link DeliveryTracker.takeStrays}).
 */
export class DeliveryTracker {
  readonly #endpoints: number;
  readonly #pending = new Map<string, Pending>();
  readonly #early = new Map<string, Arrival[]>();

  constructor(endpoints: number) {
    if (!Number.isInteger(endpoints) || endpoints < 1) {
      throw new Error(`a tracker needs a whole number of endpoints, at least 1, not ${endpoints}`);
    }
    this.#endpoints = endpoints;
  }

  /** Events still waiting for some of their deliveries. */
  get pending(): number {
    return this.#pending.size;
  }

  /**
   * Waits for the deliveries of the event of `requestId`, sent at `sentAt`, recording each into
   * `measurement`. Resolves once every endpoint had its delivery, when the time is up (each
   * missing delivery then counted as an error) or when `signal` aborts; rejects only when the
   * event is expected already.
   */
  expect(
    requestId: string,
    sentAt: bigint,
    measurement: Measurement,
    options: ExpectOptions,
  ): Promise<void> {
    if (this.#pending.has(requestId)) {
      return Promise.reject(new Error(`the event of ${requestId} is already expected`));
    }
    return new Promise<void>((resolve) => {
      const finish = () => {
        clearTimeout(pending.timer);
        options.signal?.removeEventListener('abort', finish);
        this.#pending.delete(requestId);
        resolve();
      };
      const pending: Pending = {
        sentAt,
        seen: new Uint8Array(this.#endpoints),
        left: this.#endpoints,
        measurement,
        done: finish,
      };
      this.#pending.set(requestId, pending);
      for (const arrival of this.#early.get(requestId) ?? []) {
        this.#count(pending, arrival.endpoint, arrival.receivedAt);
      }
      this.#early.delete(requestId);
      if (pending.left === 0) return finish();
      if (options.signal?.aborted) return finish();
      options.signal?.addEventListener('abort', finish, { once: true });
      pending.timer = setTimeout(() => {
        const { left } = pending;
        measurement.errors += left;
        measurement.firstError ??=
          `${left} of ${this.#endpoints} deliveries of the event of ${requestId} did not arrive ` +
          `within ${options.timeoutMs / 1_000} s`;
        finish();
      }, options.timeoutMs);
    });
  }

  /** A delivery of the event of `requestId` to endpoint number `endpoint`, arrived at `receivedAt`. */
  received(requestId: string, endpoint: number, receivedAt: bigint): void {
    if (!Number.isInteger(endpoint) || endpoint < 0 || endpoint >= this.#endpoints) {
      throw new Error(`no endpoint number ${endpoint} among ${this.#endpoints}`);
    }
    const pending = this.#pending.get(requestId);
    if (!pending) {
      const arrivals = this.#early.get(requestId) ?? [];
      arrivals.push({ endpoint, receivedAt });
      this.#early.set(requestId, arrivals);
      return;
    }
    this.#count(pending, endpoint, receivedAt);
    if (pending.left === 0) pending.done();
  }

  /**
   * The deliveries that arrived for events nobody expected (a duplicate after its event was
   * complete, or a delivery that came after its event timed out), forgotten from now on.
   */
  takeStrays(): number {
    let count = 0;
    for (const arrivals of this.#early.values()) count += arrivals.length;
    this.#early.clear();
    return count;
  }

  #count(pending: Pending, endpoint: number, receivedAt: bigint): void {
    const { measurement } = pending;
    if (pending.seen[endpoint] === 1) {
      measurement.errors += 1;
      measurement.firstError ??= `a duplicate delivery to endpoint ${endpoint}`;
      return;
    }
    pending.seen[endpoint] = 1;
    pending.left -= 1;
    recordNs(measurement, receivedAt - pending.sentAt);
    measurement.ok += 1;
  }
}
