// Admission: whether a job this replica is handed may wait here for a sending slot, or goes back
// to the server (not due yet, its endpoint stalled, or its endpoint's share here full), and whether
// a first attempt straight from the fan-out may be taken. Pure rules over what the worker knows.
import type { DeliveryJob } from '../store/delivery-queue.ts';

/**
 * A job handed back because its endpoint has its share here comes round again after about the
 * time the endpoint's queue here takes to drain: its recent answer time, times the jobs ahead per
 * slot. A fast endpoint's jobs are back within milliseconds; a slow one's wait seconds and leave
 * the slots to the others.
 */
export const HAND_BACK_MIN_MS = 5;
export const HAND_BACK_MAX_MS = 5_000;
/**
 * A job handed back again stays away twice as long, at most this many times over: doubling
 * without end left a fast endpoint's slots idle while its jobs, handed back four or five times
 * in a burst, waited out seconds in the server.
 */
const HAND_BACK_DOUBLINGS = 2;

/**
 * An endpoint whose recent answers take longer than this gets no first attempt straight from its
 * event: the event consumer's handlers would wait on it (see `Offers`).
 */
export const OFFER_MAX_ANSWER_MS = 250;
/** How long an offered first attempt waits for room before it is queued instead. */
export const OFFER_PATIENCE_MS = 100;

/**
 * An endpoint is stalled when it has attempts under way and has not answered any (nor been given
 * a new one after none was under way) for this long, or for this many of its recent answer times
 * when that is longer: an endpoint that stopped answering.
 */
const STALL_MIN_MS = 1_000;
const STALL_ANSWERS = 8;

/** How long an endpoint answering in `answerMs` may go without progress before it is stalled. */
export function stallPatienceMs(answerMs: number): number {
  return Math.max(STALL_MIN_MS, STALL_ANSWERS * answerMs);
}

/**
 * The hand-back delay for a job behind `ahead` others of an endpoint with `slots` slots, handed
 * back `times` times before: each time it comes back to a full share again it stays away twice
 * as long (up to four times the drain time), so a backlog of one busy endpoint waits in the
 * server instead of circling through the replicas (every return is a redelivery and a nak).
 */
export function handBackDelayMs(answerMs: number, ahead: number, slots: number, times = 0): number {
  const doublings = Math.min(Math.max(0, times), HAND_BACK_DOUBLINGS);
  const drain = answerMs * Math.ceil((ahead + 1) / Math.max(1, slots)) * 2 ** doublings;
  // Up to half again at random, so that handed-back jobs do not all come back at once.
  const spread = drain * (1 + Math.random() / 2);
  return Math.round(Math.min(HAND_BACK_MAX_MS, Math.max(HAND_BACK_MIN_MS, spread)));
}

/**
 * Jobs of one endpoint held here (sending and waiting): twice its sending slots, or half of what
 * the replica holds (`concurrency` times two) when that is more, so that a busy endpoint keeps its
 * slots fed without taking more than half the room the other endpoints' jobs wait in; never more
 * than three quarters of that room.
 */
export function endpointShare(concurrency: number, slots: number): number {
  return Math.min(Math.floor(concurrency * 1.5), Math.max(slots * 2, Math.floor(concurrency)));
}

/** One endpoint as this replica sees it when a job for it arrives. */
export interface EndpointLoad {
  /** It stopped answering ({@link stallPatienceMs}). */
  stalled: boolean;
  /** Its jobs held here, sending or waiting. */
  ahead: number;
  /** Its jobs this replica may hold ({@link endpointShare}). */
  share: number;
  /** Its sending slots now. */
  slots: number;
  /** Its recent answer time. */
  answerMs: number;
}

/** What becomes of a job the queue hands this replica. */
export type QueuedAdmission =
  /** Waits here for a sending slot. */
  | { kind: 'hold' }
  /** Due later: back to the server until then. */
  | { kind: 'not-due'; wakeInMs: number }
  /**
   * Back to the server for `delayMs`: its endpoint stopped answering (to come round when its
   * attempts under way have ended one way or the other), or has its share here already (until
   * about when the jobs ahead of it here will have been sent, longer each time it comes back).
   */
  | { kind: 'hand-back'; why: 'stalled' | 'share-full'; delayMs: number };

/**
 * Admits a job from the queue. `load` is asked only for a job that is due; `handedBack`: how many
 * times the server delivered the job before.
 */
export function admitQueued(
  job: Pick<DeliveryJob, 'not_before'>,
  now: number,
  load: () => EndpointLoad,
  handedBack: number,
): QueuedAdmission {
  const wait = job.not_before - now;
  if (wait > 0) return { kind: 'not-due', wakeInMs: wait };
  const endpoint = load();
  if (endpoint.stalled) return { kind: 'hand-back', why: 'stalled', delayMs: HAND_BACK_MAX_MS };
  if (endpoint.ahead >= endpoint.share) {
    const delayMs = handBackDelayMs(endpoint.answerMs, endpoint.ahead, endpoint.slots, handedBack);
    return { kind: 'hand-back', why: 'share-full', delayMs };
  }
  return { kind: 'hold' };
}

/**
 * Whether a first attempt may be offered at all: only a first attempt, and only to an endpoint
 * that answers fast (recently within {@link OFFER_MAX_ANSWER_MS}).
 */
export function offerable(job: Pick<DeliveryJob, 'attempt'>, answerMs: number): boolean {
  return job.attempt === 1 && answerMs <= OFFER_MAX_ANSWER_MS;
}

/** The replica as an offer sees it. */
export interface ReplicaLoad {
  /** Jobs held here, sending or waiting. */
  held: number;
  concurrency: number;
  /** The most first attempts taken from the fan-out at once. */
  maxOffered: number;
}

/**
 * Room for one more offered attempt to the endpoint (besides the offers under way, which the
 * caller counts): not stalled, the replica below what it takes from the queue, and fewer than its
 * share held here (and than `maxOffered`, so endpoints that stop answering never hold all of the
 * event consumer's handlers).
 */
export function roomForOffer(endpoint: EndpointLoad, replica: ReplicaLoad): boolean {
  return (
    !endpoint.stalled &&
    replica.held < replica.concurrency * 2 &&
    endpoint.ahead < Math.min(endpoint.share, replica.maxOffered)
  );
}
