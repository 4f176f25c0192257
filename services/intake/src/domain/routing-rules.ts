// The rules of automatic routing, as pure functions of a request and the providers of its
// category: who may be offered it, in which order, and why, in words staff read.
import { ROUTING_LIMITS, type Availability, type RoutingCandidate } from '@handoff/contracts';
import { routingScore, type Outcome } from './routing-score.ts';

/** What the rules read of a provider (its stored fields; the routing ones absent before them). */
export interface RoutableProvider {
  _id: string;
  name: string;
  status: 'active' | 'suspended';
  /** The routing profile (absent on providers stored before automatic routing: the defaults). */
  capacity?: number;
  languages?: string[];
  availability?: Availability;
  /** The requests it holds (offered and unanswered, accepted or engaged, not closed). */
  held?: string[];
  /** Its place in the rotation: each offer moves it on by a stride its score shortens. */
  turn?: number;
  /** Its most recent outcomes, which its score is computed from. */
  outcomes?: Outcome[];
}

/** The routing profile with the defaults of providers stored before it. */
export function profileOf(doc: RoutableProvider) {
  return {
    capacity: doc.capacity ?? ROUTING_LIMITS.defaultCapacity,
    languages: doc.languages ?? [],
    availability: doc.availability ?? ('available' as const),
    held: doc.held ?? [],
    turn: doc.turn ?? 0,
    outcomes: doc.outcomes ?? [],
  };
}

export type Exclusion = 'suspended' | 'away' | 'at_capacity' | 'language' | 'already_offered';

export interface RuleRequest {
  category: string;
  language: string | null;
  /** Providers already offered it since the rules last started afresh. */
  tried: readonly string[];
}

export interface Weighed {
  provider: RoutableProvider;
  score: number;
  load: number;
  capacity: number;
  reasons: string[];
  excluded: Exclusion | null;
}

export interface Evaluation {
  /** Those the rules may offer it, in the order they would: first in the rotation first. */
  eligible: Weighed[];
  excludedCounts: Partial<Record<Exclusion, number>>;
  /** The record's candidates: the eligible first, then the excluded, at most ten. */
  weighed: Weighed[];
}

const turnText = (turn: number) => turn.toFixed(2);

function exclusionOf(provider: RoutableProvider, request: RuleRequest): [Exclusion, string] | null {
  const profile = profileOf(provider);
  if (provider.status !== 'active') return ['suspended', 'Suspended.'];
  if (request.tried.includes(provider._id)) {
    return ['already_offered', 'Already offered this request (declined or let it lapse).'];
  }
  if (profile.availability === 'away') return ['away', 'Away: not taking new requests.'];
  if (profile.held.length >= profile.capacity) {
    return ['at_capacity', `At capacity: holds ${profile.held.length} of ${profile.capacity}.`];
  }
  if (
    request.language !== null &&
    profile.languages.length > 0 &&
    !profile.languages.includes(request.language)
  ) {
    return [
      'language',
      `Does not work in ${request.language} (works in ${profile.languages.join(', ')}).`,
    ];
  }
  return null;
}

function languageReason(request: RuleRequest, languages: readonly string[]): string[] {
  if (request.language === null) return [];
  return languages.length === 0
    ? [`Names no languages, so any (the request is in ${request.language}).`]
    : [`Works in ${request.language}.`];
}

function weigh(provider: RoutableProvider, request: RuleRequest): Weighed {
  const profile = profileOf(provider);
  const score = routingScore(profile.outcomes);
  const exclusion = exclusionOf(provider, request);
  const qualified = [
    `In category ${request.category}.`,
    'Active and available.',
    ...languageReason(request, profile.languages),
    `Holds ${profile.held.length} of ${profile.capacity}.`,
    `Score ${score.score.toFixed(2)} (${score.offers_accepted} offers accepted, ` +
      `${score.offers_declined + score.offers_lapsed} declined or lapsed, ` +
      `${score.jobs_completed} jobs completed).`,
    `Turn ${turnText(profile.turn)} in the rotation.`,
  ];
  return {
    provider,
    score: score.score,
    load: profile.held.length,
    capacity: profile.capacity,
    reasons: exclusion ? [exclusion[1]] : qualified,
    excluded: exclusion ? exclusion[0] : null,
  };
}

/**
 * Weighs the providers of the request's category: suspended, away, at capacity, of another
 * language or already offered it are excluded; the rest are eligible in rotation order (the
 * lowest turn first, then the id, so that the order is the same on every replica).
 */
export function evaluate(providers: readonly RoutableProvider[], request: RuleRequest): Evaluation {
  const weighed = providers.map((provider) => weigh(provider, request));
  const byTurn = (a: Weighed, b: Weighed) =>
    profileOf(a.provider).turn - profileOf(b.provider).turn ||
    (a.provider._id < b.provider._id ? -1 : 1);
  const eligible = weighed.filter((w) => w.excluded === null).sort(byTurn);
  const excluded = weighed.filter((w) => w.excluded !== null);
  const excludedCounts: Partial<Record<Exclusion, number>> = {};
  for (const w of excluded) {
    if (w.excluded) excludedCounts[w.excluded] = (excludedCounts[w.excluded] ?? 0) + 1;
  }
  return {
    eligible,
    excludedCounts,
    weighed: [...eligible, ...excluded].slice(0, ROUTING_LIMITS.candidates),
  };
}

/** The record of the candidates, with the chosen one marked and the reason it came first. */
export function candidatesOf(evaluation: Evaluation, chosen: string | null): RoutingCandidate[] {
  return evaluation.weighed.map((w) => {
    const isChosen = w.provider._id === chosen;
    const outcome = isChosen ? 'chosen' : w.excluded === null ? 'eligible' : 'excluded';
    return {
      provider_id: w.provider._id,
      name: w.provider.name,
      outcome,
      reasons: isChosen
        ? [...w.reasons, 'First in the rotation of those able to take it now.']
        : w.reasons,
      load: w.load,
      capacity: w.capacity,
      score: w.score,
    };
  });
}
