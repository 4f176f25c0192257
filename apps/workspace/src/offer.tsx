import { unwrap } from '@handoff/sdk';
import { ActionButton, ConfirmButton, OutcomeLine, TextArea, type Runner } from '@handoff/web-ui';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { HandoffError, type Offer, type RequestDetail } from './api.ts';
import { Ago, Deadline } from './clock.tsx';
import { useDraft } from './drafts.ts';
import { useAction } from './hooks.ts';
import { useSession } from './session.ts';
import type { DeadlineWords } from './time.ts';
import { OFFER_STATUS } from './words.ts';

/** An offer's window is hours, not days: its time left is read to the minute. */
export const ANSWER_WITHIN: DeadlineWords = {
  ahead: 'answer within',
  past: 'the time to answer ended ago',
  precise: true,
};

/** What the contracts' `OfferDecline` takes as its reason. */
const REASON_MAX = 1_000;

/** What names the decline reason being written on a request, among a provider's drafts. */
export const declineDraft = (requestId: string) => `decline.${requestId}`;

/**
 * The request's offer to the provider (automatic routing). While it waits: what is offered, the
 * time left, and the two answers; after: where it stands. The answers' outcomes live here, so a
 * refusal ("it lapsed meanwhile") stays in view once the page shows the offer's new state.
 */
export function OfferPanel(props: {
  request: RequestDetail;
  now: number;
  /** Read the request again: the answer changed it, or the offer moved on meanwhile. */
  onChanged: () => void;
  onDeclined: () => void;
}) {
  const { request, now } = props;
  const { client } = useSession();
  const accept = useAction();
  const decline = useAction();
  // The accepted offer shows at once, until the request read again says where it stands.
  const [answered, setAnswered] = useState<Offer | null>(null);
  useEffect(() => setAnswered(null), [request]);
  const offer = answered ?? request.offer;
  // Accepted, the buttons go: the focus goes to what the page now says, not to the page's top.
  const stateLine = useRef<HTMLDivElement>(null);
  const focusState = useRef(false);
  useLayoutEffect(() => {
    if (!focusState.current || !stateLine.current) return;
    focusState.current = false;
    stateLine.current.focus();
  });
  if (!offer) return null;
  const path = { params: { path: { id: request.id } } };
  /** A refused answer (the offer lapsed or was withdrawn meanwhile) shows the page anew. */
  const answer = async (work: () => Promise<string | null>) => {
    try {
      return await work();
    } catch (error) {
      // The offer moved on: the buttons go, and the focus goes to what the page now says.
      if (error instanceof HandoffError && [404, 409].includes(error.status)) {
        focusState.current = true;
      }
      props.onChanged();
      throw error;
    }
  };
  const outcomes = (
    <>
      <OutcomeLine outcome={accept.outcome} />
      <OutcomeLine outcome={decline.outcome} />
    </>
  );
  if (offer.status !== 'pending') {
    // Once the request is the provider's job, how the offer went no longer matters.
    if (request.relation === 'engaged' && !accept.outcome && !decline.outcome) return null;
    return (
      <div class={`offer-state ${offer.status}`} ref={stateLine} tabIndex={-1}>
        <p role="status">
          <strong>{OFFER_STATUS[offer.status]}</strong>
          {offer.decided_at && (
            <>
              {' '}
              (<Ago at={offer.decided_at} now={now} />)
            </>
          )}
          {offer.status === 'accepted' && '. Write to the customer and send your proposal below.'}
        </p>
        {outcomes}
      </div>
    );
  }
  return (
    <section id="offer" class="offer" aria-labelledby="offer-title">
      <h2 id="offer-title">Offered to you</h2>
      <p class="offer-time">
        Handoff offers this request to you alone:{' '}
        <Deadline at={offer.respond_by} words={ANSWER_WITHIN} now={now} />.
      </p>
      <p class="hint">
        Read what the customer asks below. Accept to take it on: you then write to the customer and
        send a proposal. If you decline, or the time runs out, Handoff offers it to another
        provider.
      </p>
      {outcomes}
      {Date.parse(offer.respond_by) <= now ? (
        <p role="status">
          The time to answer ran out: Handoff offers the request to another provider.
        </p>
      ) : (
        <div class="actions">
          <ActionButton
            label="Accept"
            busyLabel="Accepting…"
            class="primary"
            disabled={decline.busy}
            action={accept}
            work={() =>
              answer(async () => {
                const taken = await unwrap(
                  client.api.POST('/v1/provider/requests/{id}/offer/accept', path),
                );
                focusState.current = true;
                setAnswered(taken.offer);
                props.onChanged();
                return null;
              })
            }
          />
          <DeclineOffer
            requestId={request.id}
            action={decline}
            disabled={accept.busy}
            send={(reason) =>
              answer(async () => {
                await unwrap(
                  client.api.POST('/v1/provider/requests/{id}/offer/decline', {
                    ...path,
                    body: reason ? { reason } : {},
                  }),
                );
                props.onDeclined();
                return null;
              })
            }
          />
        </div>
      )}
    </section>
  );
}

/**
 * "Decline", then the confirmation with an optional reason (a draft in this tab: a failed
 * answer, a reload or a sign-out keeps it, and the question is open again with it).
 */
function DeclineOffer(props: {
  requestId: string;
  action: Runner;
  disabled: boolean;
  send: (reason: string) => Promise<string | null>;
}) {
  const [reason, setReason] = useDraft(declineDraft(props.requestId));
  return (
    <ConfirmButton
      label="Decline"
      question="Decline this request? Handoff offers it to another provider, and you cannot undo this."
      confirmLabel="Yes, decline it"
      busyLabel="Declining…"
      open={reason !== ''}
      disabled={props.disabled}
      action={props.action}
      work={async () => {
        const said = await props.send(reason.trim());
        setReason('');
        return said;
      }}
    >
      <TextArea
        label="Why you decline (optional)"
        hint="Only Handoff staff read it."
        name="reason"
        rows={2}
        maxLength={REASON_MAX}
        readOnly={props.action.busy}
        value={reason}
        onValue={setReason}
      />
    </ConfirmButton>
  );
}
