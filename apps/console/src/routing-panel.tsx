import type { AutoRouting, RoutingOffer, StaffApi, StaffRequest } from './api.ts';
import { Candidates, Excluded } from './candidates.tsx';
import { learnNames, useProviderNames } from './names.ts';
import { RoutingActions } from './routing-actions.tsx';
import { answerWithin, useNow } from './time.ts';
import { ColumnHeads, Scroller, when } from './ui.tsx';
import { BY_WORDS, OFFER_STATUS_WORDS, pendingOffer, routingStateText } from './words.ts';

/**
 * Where automatic routing of one request stands, its offers and why the rules chose as they did,
 * and staff's hand in it (offer to a provider, run the rules again, stop, pause the category).
 */
export function RoutingPanel(props: { api: StaffApi; request: StaffRequest; changed: () => void }) {
  const { api, request } = props;
  const routing = request.automatic_routing;
  const now = useNow();
  learnNames(routing.decision?.candidates ?? []);
  const name = useProviderNames(
    api,
    routing.offers.map((offer) => offer.provider_id),
  );
  return (
    <section class="routing" aria-labelledby="routing-title">
      <h3 id="routing-title">Routing</h3>
      {!request.livemode && (
        <p class="note">
          <span class="badge test">Test mode</span> Made with a test key: only the simulated
          provider is offered it, and it may not be routed to a real one.
        </p>
      )}
      <Summary routing={routing} language={request.language} now={now} name={name} />
      <OfferHistory offers={routing.offers} now={now} name={name} />
      <Decision decision={routing.decision} />
      <RoutingActions api={api} request={request} changed={props.changed} />
    </section>
  );
}

function Summary(props: {
  routing: AutoRouting;
  language: string | null;
  now: number;
  name: (id: string) => string;
}) {
  const { routing, now } = props;
  const offer = pendingOffer(routing);
  return (
    <dl class="facts">
      <dt>Automatic routing</dt>
      <dd data-testid="routing-state">{routingStateText(routing)}</dd>
      <dt>Offers made</dt>
      <dd>
        {routing.offers_made} of at most {routing.max_offers}
      </dd>
      {offer && (
        <>
          <dt>Waiting for</dt>
          <dd>
            {props.name(offer.provider_id)}, {answerWithin(offer.respond_by, now)} (by{' '}
            {when(offer.respond_by)})
          </dd>
        </>
      )}
      <dt>Customer's language</dt>
      <dd>{props.language ?? 'Not given'}</dd>
    </dl>
  );
}

function OfferHistory(props: {
  offers: RoutingOffer[];
  now: number;
  name: (id: string) => string;
}) {
  const { offers, now } = props;
  return (
    <>
      <h4>Offers, oldest first</h4>
      {offers.length === 0 ? (
        <p>No offer yet.</p>
      ) : (
        <Scroller label="Offers">
          <table>
            <ColumnHeads
              names={['Provider', 'Offered by', 'Status', 'Offered', 'Answer by', 'Decided', 'Why']}
            />
            <tbody>
              {offers.map((offer) => (
                <tr key={offer.id}>
                  <td>{props.name(offer.provider_id)}</td>
                  <td>{BY_WORDS[offer.by]}</td>
                  <td>{OFFER_STATUS_WORDS[offer.status]}</td>
                  <td>{when(offer.offered_at)}</td>
                  <td>
                    {when(offer.respond_by)}
                    {offer.status === 'pending' && ` (${answerWithin(offer.respond_by, now)})`}
                  </td>
                  <td>{when(offer.decided_at)}</td>
                  <td>{offer.reason ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Scroller>
      )}
    </>
  );
}

function Decision({ decision }: { decision: AutoRouting['decision'] }) {
  if (!decision) {
    return (
      <>
        <h4>Latest decision</h4>
        <p>No decision yet.</p>
      </>
    );
  }
  return (
    <>
      <h4>Latest decision</h4>
      <p>
        {when(decision.decided_at)}, by{' '}
        {decision.by === 'rules' ? 'the rules' : `staff (${decision.actor})`}: {decision.summary}
      </p>
      <Candidates label="Providers weighed" candidates={decision.candidates} />
      <Excluded excluded={decision.excluded} />
    </>
  );
}
