// `handoff.routing.offers`: the offers routing makes and how each ends, counted where the move
// that makes or ends it is written (once per move, whichever replica wrote it).
import { handoffMeter, type Attributes } from '@handoff/observability';

/**
 * `offered` by the rules or staff; `accepted` and `declined` by its provider; `lapsed`
 * unanswered past its response window. (An offer staff withdraw is counted by none of these.)
 */
export const OFFER_OUTCOMES = ['offered', 'accepted', 'declined', 'lapsed'] as const;
export type OfferOutcome = (typeof OFFER_OUTCOMES)[number];

type Counter = ReturnType<ReturnType<typeof handoffMeter>['createCounter']>;
let counter: Counter | undefined;
/** Made on first use, so `startTelemetry` names the resource before the instrument exists. */
const offers = () =>
  (counter ??= handoffMeter().createCounter('handoff.routing.offers', {
    description: 'Offers of a request to a provider, by the move that made or ended them.',
    unit: '{offer}',
  }));

/** Each outcome's label set, made once: counting allocates nothing. */
const ATTRIBUTES: Readonly<Record<OfferOutcome, Attributes>> = {
  offered: { outcome: 'offered' },
  accepted: { outcome: 'accepted' },
  declined: { outcome: 'declined' },
  lapsed: { outcome: 'lapsed' },
};

export function countOffer(outcome: OfferOutcome): void {
  offers().add(1, ATTRIBUTES[outcome]);
}
