import { LoadError } from '@handoff/web-ui';
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { RequestDetail } from './api.ts';
import { Ago, useNow } from './clock.tsx';
import { Conversation } from './conversation.tsx';
import { useLoad } from './hooks.ts';
import { useLive } from './live.ts';
import { FilesProvider, useRequestFiles } from './files.tsx';
import { DisputesArea, PaymentsArea } from './money.tsx';
import { OfferPanel } from './offer.tsx';
import { ProposalArea } from './proposal.tsx';
import { paths } from './routes.ts';
import { Area, Link, ScreenTitle } from './screen.tsx';
import { useSession } from './session.ts';
import { draftKey, drafts, messageDraft } from './storage.ts';
import {
  budget,
  category,
  languageName,
  RELATION,
  REQUEST_STATUS,
  title,
  webLink,
} from './words.ts';
import { WorkArea } from './work.tsx';

/**
 * One request: what the customer asks, the conversation, the provider's proposal, the job and
 * its milestones, disputes and payments, kept up to date by the request's long-poll. Opening it
 * marks its messages read, and so does each new one while the page is in view.
 */
export function RequestPage(props: { id: string }) {
  const { client } = useSession();
  const now = useNow();
  const [declined, setDeclined] = useState(false);
  const unreadWhileHidden = useRef(false);
  const markRead = () => {
    if (document.visibilityState !== 'visible') {
      unreadWhileHidden.current = true;
      return;
    }
    unreadWhileHidden.current = false;
    client.requests.markRead(props.id).catch(() => undefined);
  };
  const live = useLive(client, props.id, markRead);
  const files = useRequestFiles(props.id);
  // Read at once for the title, and again once the feed's position is known, so that no
  // change falls between the two.
  const request = useLoad(
    () => client.requests.get(props.id),
    [props.id, live.ticks.request, live.ready],
  );
  useEffect(() => {
    if (live.ready) markRead();
  }, [live.ready]);
  useEffect(() => {
    const back = () => unreadWhileHidden.current && markRead();
    document.addEventListener('visibilitychange', back);
    return () => document.removeEventListener('visibilitychange', back);
  }, []);

  const detail = request.data;
  if (declined) {
    return (
      <Left title={detail ? title(detail) : 'Request'} requestId={props.id}>
        <p role="status">
          You declined this request. Handoff offers it to another provider; it leaves your inbox.
        </p>
      </Left>
    );
  }
  if (live.gone) {
    // Every call about it is refused from now on: no form is left on screen to fail.
    return (
      <Left title={detail ? title(detail) : 'Request'} requestId={props.id}>
        <p class="callout" role="alert">
          {detail?.offer?.status === 'pending' && Date.parse(detail.offer.respond_by) <= Date.now()
            ? 'The offer lapsed: the time to answer ran out, so Handoff offered the request to another provider.'
            : 'This request is no longer open to you. Another provider may have taken it, or it was sent elsewhere or withdrawn.'}
        </p>
      </Left>
    );
  }
  if (!detail) {
    return (
      <>
        <ScreenTitle title="Request" />
        <LoadError error={request.error} />
        {!request.error && <p role="status">Loading the request…</p>}
        <p>
          <Link href={paths.inbox}>Back to your inbox</Link>
        </p>
      </>
    );
  }
  const engaged = detail.relation === 'engaged';
  // An offer waits for its answer before the work starts: the rest follows the acceptance.
  const offered = detail.offer?.status === 'pending';
  return (
    <FilesProvider value={files}>
      <p class="crumbs">
        <Link href={paths.inbox}>Inbox</Link>
      </p>
      <ScreenTitle title={title(detail)} />
      <RequestFacts request={detail} now={now} />
      {live.interrupted && (
        <p class="warning" role="status">
          Live updates are interrupted: reconnecting. What you write is kept.
        </p>
      )}
      <OfferPanel
        request={detail}
        now={now}
        onChanged={request.reload}
        onDeclined={() => setDeclined(true)}
      />
      {!offered && (
        <nav aria-label="On this page" class="jump">
          <a href="#ask">The request</a>
          <a href="#conversation">Conversation</a>
          <a href="#proposal">Proposal</a>
          {engaged && <a href="#job">Job</a>}
          {engaged && <a href="#payments">Payments</a>}
        </nav>
      )}
      <TheAsk request={detail} />
      {offered ? (
        <p class="hint">
          Once you accept, the conversation with the customer and your proposal are here.
        </p>
      ) : (
        <>
          <Conversation request={detail} live={live} now={now} />
          {live.ready ? (
            <>
              <ProposalArea request={detail} tick={live.ticks.proposals} now={now} />
              <WorkArea request={detail} tick={live.ticks.work} now={now} />
              <DisputesArea request={detail} tick={live.ticks.disputes} now={now} />
              {engaged && <PaymentsArea request={detail} tick={live.ticks.payments} now={now} />}
            </>
          ) : (
            <p role="status">Loading the rest of the request…</p>
          )}
        </>
      )}
    </FilesProvider>
  );
}

/** Where the request stands for the provider, its category, budget, language and age. */
function RequestFacts(props: { request: RequestDetail; now: number }) {
  const { request } = props;
  const money = budget(request.budget_min, request.budget_max);
  return (
    <p class="meta">
      <span class="status">{REQUEST_STATUS[request.status]}</span>
      <span>{RELATION[request.relation]}</span>
      {category(request.category) && <span>{category(request.category)}</span>}
      {money && <span>Budget {money}</span>}
      {request.language && <span>In {languageName(request.language)}</span>}
      <span>
        Asked <Ago at={request.created_at} now={props.now} />
      </span>
    </p>
  );
}

/**
 * The page of a request the provider no longer has (declined, lapsed, taken by another): what
 * it was writing stays in view, to copy, and the way back.
 */
function Left(props: { title: string; requestId: string; children: ComponentChildren }) {
  const { session } = useSession();
  const unsent = drafts.get(draftKey(session.provider.id, messageDraft(props.requestId))).trim();
  return (
    <>
      <ScreenTitle title={props.title} />
      {props.children}
      {unsent && (
        <>
          <p>The message you were writing was not sent:</p>
          <blockquote class="words">{unsent}</blockquote>
        </>
      )}
      <p>
        <Link href={paths.inbox}>Back to your inbox</Link>
      </p>
    </>
  );
}

/** What the customer asks, in their words, and how to reach them when they allow it. */
function TheAsk(props: { request: RequestDetail }) {
  const { request } = props;
  const { customer } = request;
  const contact = request.contact_permission
    ? [customer.name, customer.company, customer.email, customer.website].some(Boolean)
    : false;
  return (
    <Area id="ask" title="What the customer asks">
      <blockquote class="words">{request.message}</blockquote>
      {contact ? (
        <dl class="facts">
          {customer.name && (
            <>
              <dt>Name</dt>
              <dd>{customer.name}</dd>
            </>
          )}
          {customer.company && (
            <>
              <dt>Company</dt>
              <dd>{customer.company}</dd>
            </>
          )}
          {customer.email && (
            <>
              <dt>Email</dt>
              <dd>
                <a href={`mailto:${customer.email}`}>{customer.email}</a>
              </dd>
            </>
          )}
          {customer.website && (
            <>
              <dt>Website</dt>
              <dd>
                {webLink(customer.website) ? (
                  <a href={customer.website} rel="noopener noreferrer" target="_blank">
                    {customer.website}
                  </a>
                ) : (
                  customer.website
                )}
              </dd>
            </>
          )}
        </dl>
      ) : (
        <p class="hint">
          The customer has not shared their contact details: talk to them in the conversation
          {request.offer?.status === 'pending' ? ', once you accept the offer.' : ' below.'}
        </p>
      )}
    </Area>
  );
}
