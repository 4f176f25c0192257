// A provider's routing score: from its most recent outcomes, in a formula staff can read.
import { ROUTING_LIMITS, type RoutingScore } from '@handoff/contracts';

/** One outcome the score counts, keyed so that counting it again changes nothing. */
export interface Outcome {
  key: string;
  kind: 'accepted' | 'declined' | 'lapsed' | 'completed' | 'cancelled';
  /** How long the provider took to answer an offer (accepted or declined). */
  response_ms: number | null;
  at: Date;
}

/** Without history a part counts as half: a new provider is neither favoured nor held back. */
const NEUTRAL = 0.5;
/** An answer in this many minutes makes the speed part 0.5; at once, 1. */
const HALF_SPEED_MINUTES = 30;

const rate = (good: number, all: number) => (all === 0 ? NEUTRAL : good / all);

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const at = (index: number) => sorted[index] ?? 0;
  return sorted.length % 2 === 1 ? at(middle) : (at(middle - 1) + at(middle)) / 2;
}

const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;

/**
 * 0.5 × the share of offers accepted (a lapse counts against it like a decline) + 0.2 × answer
 * speed (1 / (1 + median minutes / 30)) + 0.3 × the share of jobs completed rather than cancelled;
 * each part 0.5 without history.
 */
export function routingScore(outcomes: readonly Outcome[]): RoutingScore {
  const count = (kind: Outcome['kind']) => outcomes.filter((o) => o.kind === kind).length;
  const accepted = count('accepted');
  const declined = count('declined');
  const lapsed = count('lapsed');
  const completed = count('completed');
  const cancelled = count('cancelled');
  const responseMs = median(
    outcomes.flatMap((o) => (o.response_ms === null ? [] : [o.response_ms])),
  );
  const speed = responseMs === null ? NEUTRAL : 1 / (1 + responseMs / 60_000 / HALF_SPEED_MINUTES);
  const score =
    0.5 * rate(accepted, accepted + declined + lapsed) +
    0.2 * speed +
    0.3 * rate(completed, completed + cancelled);
  return {
    score: round(score, 3),
    offers_accepted: accepted,
    offers_declined: declined,
    offers_lapsed: lapsed,
    median_response_seconds: responseMs === null ? null : round(responseMs / 1000, 1),
    jobs_completed: completed,
    jobs_cancelled: cancelled,
  };
}

/**
 * How far one offer moves a provider on in the rotation: 1 at the neutral score, less for a
 * higher one (a score of 1 takes 1.5 turns for every 1 of a neutral provider), more for a lower.
 */
export const strideOf = (score: number): number => 1 / (0.5 + score);

/** The outcomes with one more, the most recent kept. */
export const withOutcome = (outcomes: readonly Outcome[], outcome: Outcome): Outcome[] =>
  [...outcomes, outcome].slice(-ROUTING_LIMITS.outcomes);
