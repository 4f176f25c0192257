// `handoff.routing.offers`: the offers routing makes and how each ends, counted where the move
// that makes or ends it is written (once per move, whichever replica wrote it).
import { lazyCounter, type Attributes } from '@handoff/observability';

/**
 * `offered` by the rules or staff; `accepted` and `declined` by its provider; `lapsed`
 * unanswered past its response window. (An offer staff withdraw is counted by none of these.)
 */
export const OFFER_OUTCOMES = ['offered', 'accepted', 'declined', 'lapsed'] as const;
export type OfferOutcome = (typeof OFFER_OUTCOMES)[number];

const offers = lazyCounter(
  'handoff.routing.offers',
  'Offers of a request to a provider, by the move that made or ended them.',
  '{offer}',
);

/** Each outcome's label set, made once: counting allocates nothing. */
const ATTRIBUTES: Readonly<Record<OfferOutcome, Attributes>> = {
  offered: { outcome: 'offered' },
  accepted: { outcome: 'accepted' },
  declined: { outcome: 'declined' },
  lapsed: { outcome: 'lapsed' },
};

/**
 * Makes every outcome's series exist at 0 from the start, so a scrape shows them before the first
 * offer and `increase()` sees the first one. Called once the meter provider is named.
 */
export function countFromZero(): void {
  for (const outcome of OFFER_OUTCOMES) offers().add(0, ATTRIBUTES[outcome]);
}

export function countOffer(outcome: OfferOutcome): void {
  offers().add(1, ATTRIBUTES[outcome]);
}
