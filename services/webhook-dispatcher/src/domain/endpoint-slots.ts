// How many requests one endpoint gets open at once: additive increase, multiplicative decrease
// (as TCP's congestion window, or the AIMD limit of Netflix's concurrency-limits), per replica.
import { boundedCache } from '@handoff/runtime';

/** How much an answer moves an endpoint's recent answer time (an exponential average). */
const RECENT_WEIGHT = 0.2;
/** How much it moves the endpoint's usual answer time, the baseline a slow answer is judged by. */
const USUAL_WEIGHT = 0.01;
/** An answer counts as slow above this many times the usual one, plus {@link SLOW_MARGIN_MS}. */
const SLOW_FACTOR = 2;
const SLOW_MARGIN_MS = 5;
/** A slow answer takes this fraction of the slots away (never below the starting number). */
const SLOW_CUT = 0.9;
/** The answer time assumed for an endpoint not heard from yet. */
export const FIRST_ANSWER_MS = 50;
/** Endpoints remembered (the most recently answered ones); a forgotten one starts again. */
const REMEMBERED_ENDPOINTS = 10_000;

/** What one attempt's answer says about the endpoint's load. */
export type Answer =
  /** A 2xx. */
  | 'ok'
  /** 429, a 5xx, a timeout or a failed connection: the endpoint, or what is before it, is struggling. */
  | 'overloaded'
  /** Any other answer (a 4xx, a redirect, a refused target): says nothing of load. */
  | 'other';

export interface SlotOptions {
  /** Slots an endpoint starts with, and keeps while it answers at its usual speed. */
  initial: number;
  /** The most a fast, healthy endpoint grows to; equal to `initial`, the slots never change. */
  max: number;
}

interface EndpointState {
  limit: number;
  recentMs: number;
  usualMs: number;
  /** When the limit was last halved: it is halved at most once per round of answers. */
  cutAt: number;
}

/**
 * An endpoint's sending slots, adapted to how it answers. It starts with `initial` slots. Each 2xx
 * that comes at about its usual speed while every slot was in use adds 1/limit of a slot (one slot
 * per round of answers), up to `max`; a 2xx much slower than usual takes a tenth away, down to
 * `initial`; a 429, 5xx, timeout or failed connection halves the slots, at most once per round, down
 * to one. So a receiver that keeps up gets deliveries as fast as it takes them, one that slows down
 * or sheds load gets fewer at once, and one that is failing gets one at a time.
 */
export function endpointSlots(options: SlotOptions, now: () => number = Date.now) {
  const initial = Math.max(1, Math.floor(options.initial));
  const max = Math.max(initial, Math.floor(options.max));
  const adaptive = max > initial;
  // Most recently answered last: an endpoint not heard from for longest is forgotten first.
  const states = boundedCache<string, EndpointState>({ max: REMEMBERED_ENDPOINTS });

  // Read without counting as a use: only an answer keeps an endpoint remembered.
  const stateOf = (endpointId: string): EndpointState | undefined => states.peek(endpointId);

  return {
    /** The requests this endpoint may have open now. */
    slots(endpointId: string): number {
      const state = stateOf(endpointId);
      return state ? Math.max(1, Math.floor(state.limit)) : initial;
    },

    /** The endpoint's recent answer time in ms ({@link FIRST_ANSWER_MS} before its first answer). */
    answerMs(endpointId: string): number {
      return stateOf(endpointId)?.recentMs ?? FIRST_ANSWER_MS;
    },

    /**
     * Counts one answer, `ms` after the request went out. `busy`: every slot of the endpoint was in
     * use (or jobs were waiting for one) when it came, so the limit, not the traffic, bound it.
     */
    answered(endpointId: string, answer: Answer, ms: number, busy: boolean): void {
      const state = states.get(endpointId) ?? {
        limit: initial,
        recentMs: ms,
        usualMs: ms,
        cutAt: 0,
      };
      states.set(endpointId, state);
      state.recentMs += (ms - state.recentMs) * RECENT_WEIGHT;
      if (!adaptive) return;
      if (answer === 'overloaded') {
        const at = now();
        if (at - state.cutAt >= state.recentMs) {
          state.limit = Math.max(1, state.limit / 2);
          state.cutAt = at;
        }
        return;
      }
      if (answer !== 'ok') return;
      const slow = ms > state.usualMs * SLOW_FACTOR + SLOW_MARGIN_MS;
      // The usual time learns from answers that are not slow, so a slow spell does not become
      // the new usual; it still drifts, slowly, when the endpoint really changed.
      state.usualMs += ((slow ? state.recentMs : ms) - state.usualMs) * USUAL_WEIGHT;
      if (slow) {
        state.limit = Math.max(Math.min(initial, state.limit), state.limit * SLOW_CUT);
      } else if (busy) {
        state.limit = Math.min(max, state.limit + 1 / state.limit);
      }
    },
  };
}
export type EndpointSlots = ReturnType<typeof endpointSlots>;

/** What an attempt's outcome says about the endpoint's load ({@link Answer}). */
export function answerOf(statusCode: number | null, outcome: string): Answer {
  if (outcome === 'success') return 'ok';
  if (outcome === 'refused') return 'other';
  if (statusCode === null || statusCode === 429 || statusCode >= 500) return 'overloaded';
  return 'other';
}
