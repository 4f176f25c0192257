// Which event gives which mail to whom, and what each says. Pure: the handlers read the request,
// the providers and their settings, and send.
import type { StaffRequest } from '@handoff/contracts';
import {
  Dispute,
  Message,
  Milestone,
  Payment,
  PaymentRequest,
  Proposal,
  Request,
  type EventEnvelope,
  type MailKind,
  type ProviderMailKind,
} from '@handoff/contracts';
import type { z } from 'zod';
import type { Links } from './links.ts';
import type { MailContent } from './render.ts';
import { deadlineInWords, moneyInWords, requestTitle, shortened, timeLeft } from './wording.ts';

/** Who a mail goes to: a provider (its address and settings read when it is sent), or staff. */
export type Audience =
  | { to: 'provider'; providerId: string }
  /** Every STAFF_NOTIFY_EMAIL address. */
  | { to: 'staff' };

/** What a mail says to one reader, given its name (null for staff) and the links. */
export type ContentOf = (reader: { name: string | null }, links: Links, now: Date) => MailContent;

export interface MailIntent {
  kind: MailKind;
  audience: Audience;
  /**
   * What the mail is about, for its de-duplication: one mail per (about, recipient, kind). The
   * event's id for what each event says anew (a message); a state of an object for what several
   * events may repeat (a request routed to a provider, a milestone's change request of one
   * revision, an escalation), so a second event in the same state mails nothing.
   */
  about: string;
  content: ContentOf;
  /** A message to count unread (message_received): mailed only when it starts an unread run. */
  unread?: { requestId: string; messageId: string; createdAt: Date };
}

/** Who a request's messages are for: the engaged provider, else the providers it was sent to. */
export function messageReaders(request: Request): string[] {
  if (request.engaged_provider_id) return [request.engaged_provider_id];
  return request.routing.mode === 'direct' ? [...request.routing.provider_ids] : [];
}

const OPEN_FOR_PROVIDERS: readonly Request['status'][] = ['submitted', 'routed'];

const openRequest = (links: Links, requestId: string) => ({
  label: 'Open the request',
  url: links.request(requestId),
});

const greeting = (reader: { name: string | null }) =>
  reader.name ? `Hello ${reader.name},` : 'Hello,';

const parse = <S extends z.ZodType>(schema: S, object: unknown): z.output<S> | null => {
  const parsed = schema.safeParse(object);
  return parsed.success ? parsed.data : null;
};

const eventRequests = new WeakMap<EventEnvelope, Request | null>();

/** The request a request event carries (null when it carries none), read once per event. */
export function requestOfEvent(event: EventEnvelope): Request | null {
  let request = eventRequests.get(event);
  if (request === undefined) {
    request = parse(Request, event.data.object);
    eventRequests.set(event, request);
  }
  return request;
}

/**
 * Whether the event may give mail at all, from the event alone (so the handler reads the request
 * only for those): a request event carries its request, so whether it gives any is known at once.
 */
export function mayMail(event: EventEnvelope): boolean {
  const object = event.data.object;
  switch (event.type) {
    case 'request.created':
    case 'request.updated': {
      const request = requestOfEvent(event);
      return request !== null && mailsFor(event, request).length > 0;
    }
    case 'proposal.accepted':
    case 'proposal.declined':
    case 'milestone.approved':
    case 'payment.completed':
    case 'payment.requested':
      return true;
    case 'message.created':
      return object.author_role !== 'provider';
    case 'milestone.updated':
      return object.status === 'changes_requested';
    case 'dispute.updated':
      return object.status === 'under_review';
    default:
      return false;
  }
}

const toProvider = (
  providerId: string | null,
  kind: ProviderMailKind,
  about: string,
  content: ContentOf,
): MailIntent[] =>
  providerId ? [{ kind, audience: { to: 'provider', providerId }, about, content }] : [];

const toStaff = (about: string, content: ContentOf): MailIntent[] => [
  { kind: 'staff_queue', audience: { to: 'staff' }, about, content },
];

/** What one kind of event mails, given the event, its request and the request's title. */
type MailsOf = (event: EventEnvelope, request: Request, title: string) => MailIntent[];

/**
 * The provider's pending offer of the request, when the request came as staff see it (the events
 * consumer reads it so for a request routed to providers).
 */
const pendingOfferTo = (request: Request, providerId: string) =>
  (request as Partial<StaffRequest>).automatic_routing?.offers.findLast(
    (offer) => offer.provider_id === providerId && offer.status === 'pending',
  );

function routedParagraphs(request: Request, providerId: string, now: Date): string[] {
  const category = request.category ? ` (${request.category.replace(/-/g, ' ')})` : '';
  const offer = pendingOfferTo(request, providerId);
  if (!offer) {
    return [
      `A customer’s request was sent to you${category}. Read it, ask the customer what you need to know, and make a proposal if you want the work.`,
    ];
  }
  return [
    `A customer’s request is offered to you${category}. Read it and accept or decline it ${deadlineInWords(new Date(offer.respond_by), now)}; if you do not answer by then, it goes to another provider.`,
    'Once you accept, ask the customer what you need to know and make a proposal.',
  ];
}

const requestMails: MailsOf = (event, request, title) => {
  // Only while the request waits for its providers: a later change of a request that moved
  // on (engaged, closed) routes nobody new.
  const routed =
    request.routing.mode === 'direct' && OPEN_FOR_PROVIDERS.includes(request.status)
      ? request.routing.provider_ids.flatMap((providerId) =>
          toProvider(
            providerId,
            'request_routed',
            `routed:${request.id}`,
            (reader, links, now) => ({
              subject: `A new request for you: “${title}”`,
              greeting: greeting(reader),
              paragraphs: routedParagraphs(request, providerId, now),
              quote: shortened(request.message, 600),
              action: openRequest(links, request.id),
            }),
          ),
        )
      : [];
  const review =
    event.type === 'request.created' && request.marketplace.review === 'pending_review'
      ? toStaff(`review:${request.id}`, (reader, links) => ({
          subject: `A request waits for marketplace review: “${title}”`,
          greeting: greeting(reader),
          paragraphs: [
            `The customer asked for “${title}” to be published on the marketplace. Approve or reject it in the console.`,
          ],
          action: { label: 'Open the console', url: links.console },
        }))
      : [];
  return [...routed, ...review];
};

const messageMails: MailsOf = (event, request, title) => {
  const message = parse(Message, event.data.object);
  if (!message || message.author_role === 'provider') return [];
  const who = message.author_role === 'staff' ? 'Handoff staff' : 'The customer';
  return messageReaders(request).map((providerId) => ({
    kind: 'message_received',
    audience: { to: 'provider', providerId },
    about: event.id,
    unread: {
      requestId: request.id,
      messageId: message.id,
      createdAt: new Date(message.created_at),
    },
    content: (reader, links) => ({
      subject: `${who} wrote to you about “${title}”`,
      greeting: greeting(reader),
      paragraphs: [`${who} sent you a message about “${title}”:`],
      quote: shortened(message.message, 1000),
      action: { label: 'Read and answer', url: links.request(request.id) },
    }),
  }));
};

const proposalMails: MailsOf = (event, request, title) => {
  const proposal = parse(Proposal, event.data.object);
  if (!proposal) return [];
  const money = moneyInWords(proposal.amount, proposal.currency);
  const accepted = event.type === 'proposal.accepted';
  return toProvider(
    proposal.provider_id,
    'proposal_decided',
    `proposal:${proposal.id}:${accepted ? 'accepted' : 'declined'}`,
    (reader, links) => ({
      subject: `Your proposal for “${title}” was ${accepted ? 'accepted' : 'declined'}`,
      greeting: greeting(reader),
      paragraphs: accepted
        ? [
            `The customer accepted your proposal of ${money} for “${title}”. The job has started: its milestones are in your workspace.`,
          ]
        : [
            `Your proposal of ${money} for “${title}” was declined${proposal.decline_reason ? ', with this reason:' : '.'}`,
          ],
      ...(!accepted && proposal.decline_reason
        ? { quote: shortened(proposal.decline_reason, 600) }
        : {}),
      action: openRequest(links, request.id),
    }),
  );
};

const milestoneMails: MailsOf = (event, request, title) => {
  const milestone = parse(Milestone, event.data.object);
  if (!milestone) return [];
  if (milestone.status === 'approved') {
    const byDeadline = milestone.approved_by === 'deadline';
    return toProvider(
      milestone.provider_id,
      'milestone_reviewed',
      `milestone:${milestone.id}:approved`,
      (reader, links) => ({
        subject: `Milestone “${shortened(milestone.title, 60)}” was approved`,
        greeting: greeting(reader),
        paragraphs: [
          byDeadline
            ? `The milestone “${milestone.title}” of “${title}” was approved: the customer’s time to review it ran out.`
            : `The customer approved the milestone “${milestone.title}” of “${title}”.`,
        ],
        action: openRequest(links, request.id),
      }),
    );
  }
  if (milestone.status !== 'changes_requested') return [];
  const due = milestone.deadline_at ? new Date(milestone.deadline_at) : null;
  return toProvider(
    milestone.provider_id,
    'milestone_reviewed',
    `milestone:${milestone.id}:changes:${milestone.revision}`,
    (reader, links, now) => ({
      subject: `Changes asked for on “${shortened(milestone.title, 60)}”`,
      greeting: greeting(reader),
      paragraphs: [
        `The customer asked for changes to the milestone “${milestone.title}” of “${title}”${milestone.change_request_reason ? ':' : '.'}`,
        ...(due ? [`Submit it again ${deadlineInWords(due, now)}.`] : []),
      ],
      ...(milestone.change_request_reason
        ? { quote: shortened(milestone.change_request_reason, 600) }
        : {}),
      action: openRequest(links, request.id),
    }),
  );
};

const paymentCompletedMails: MailsOf = (event, request, title) => {
  const payment = parse(Payment, event.data.object);
  if (!payment) return [];
  const money = moneyInWords(payment.amount, payment.currency);
  return toProvider(
    request.engaged_provider_id,
    'payment_completed',
    `payment:${payment.id}:completed`,
    (reader, links) => ({
      subject: `Payment completed: ${money} for “${title}”`,
      greeting: greeting(reader),
      paragraphs: [`A payment of ${money} for “${title}” is completed.`],
      action: { label: 'See the payments', url: links.request(request.id) },
    }),
  );
};

const paymentRequestedMails: MailsOf = (event, _request, title) => {
  const paymentRequest = parse(PaymentRequest, event.data.object);
  if (!paymentRequest || paymentRequest.status !== 'pending_approval') return [];
  const money = moneyInWords(paymentRequest.amount, paymentRequest.currency);
  return toStaff(`payment_request:${paymentRequest.id}`, (reader, links) => ({
    subject: `A payment of ${money} waits for approval`,
    greeting: greeting(reader),
    paragraphs: [
      `The customer asked to pay ${money} for “${title}”. Approve or reject it in the console.`,
    ],
    quote: shortened(paymentRequest.description, 600),
    action: { label: 'Open the console', url: links.console },
  }));
};

const disputeMails: MailsOf = (event, _request, title) => {
  const dispute = parse(Dispute, event.data.object);
  if (!dispute || dispute.status !== 'under_review') return [];
  const what = dispute.kind === 'refund' ? 'refund request' : 'dispute';
  return toStaff(`dispute:${dispute.id}:under_review`, (reader, links) => ({
    subject: `A ${what} waits for staff review: “${title}”`,
    greeting: greeting(reader),
    paragraphs: [`A ${what} about “${title}” is waiting for your decision.`],
    quote: shortened(dispute.reason, 600),
    action: { label: 'Open the console', url: links.console },
  }));
};

/** The events that give mail, and what each gives; any other event gives none. */
const MAILS: Partial<Record<EventEnvelope['type'], MailsOf>> = {
  'request.created': requestMails,
  'request.updated': requestMails,
  'message.created': messageMails,
  'proposal.accepted': proposalMails,
  'proposal.declined': proposalMails,
  'milestone.updated': milestoneMails,
  'milestone.approved': milestoneMails,
  'payment.completed': paymentCompletedMails,
  'payment.requested': paymentRequestedMails,
  'dispute.updated': disputeMails,
};

/** The mails an event gives, given its request as it is now (or, for request events, was). */
export function mailsFor(event: EventEnvelope, request: Request): MailIntent[] {
  return MAILS[event.type]?.(event, request, requestTitle(request)) ?? [];
}

/** The staff mail of an access application (HANDOFF_ACCESS `access.application.submitted`). */
export function applicationMail(application: Record<string, unknown>): ContentOf {
  const name =
    typeof application.app_name === 'string' ? shortened(application.app_name, 80) : 'An agent';
  return (reader, links) => ({
    subject: `An access application waits: “${name}”`,
    greeting: greeting(reader),
    paragraphs: [`“${name}” applied for access to the API. Approve or reject it in the console.`],
    action: { label: 'Open the console', url: links.console },
  });
}

/** A deadline a reminder is about, as the reminder job and the kept state name it. */
export interface Deadline {
  resource: 'milestone' | 'dispute';
  status: string;
  deadlineAt: Date;
  /** The milestone's title (a dispute has none). */
  title: string | null;
}

/** The reminder of a deadline waiting on the provider. */
export function reminderMail(deadline: Deadline, request: Request): ContentOf {
  const title = requestTitle(request);
  return (reader, links, now) => {
    const when = deadlineInWords(deadline.deadlineAt, now);
    if (deadline.resource === 'dispute') {
      return {
        subject: `A case about “${title}” needs your answer ${timeLeft(deadline.deadlineAt, now)}`,
        greeting: greeting(reader),
        paragraphs: [
          `The customer opened a case about “${title}”. Answer it ${when}; after that, staff take it over.`,
        ],
        action: openRequest(links, request.id),
      };
    }
    const milestone = deadline.title ? `the milestone “${deadline.title}”` : 'a milestone';
    return {
      subject: `${deadline.title ? `“${shortened(deadline.title, 60)}”` : `A milestone of “${title}”`} is due ${timeLeft(deadline.deadlineAt, now)}`,
      greeting: greeting(reader),
      paragraphs: [
        deadline.status === 'changes_requested'
          ? `The changes the customer asked for on ${milestone} of “${title}” are due ${when}.`
          : `${milestone.charAt(0).toUpperCase()}${milestone.slice(1)} of “${title}” is due ${when}.`,
        'Submit it for review before then.',
      ],
      action: openRequest(links, request.id),
    };
  };
}

/** The sign-in mail: transactional, one link, no unsubscribe. */
export function signInMail(name: string, token: string, expiresAt: Date): ContentOf {
  return (_reader, links, now) => ({
    subject: 'Your sign-in link for Handoff',
    greeting: `Hello ${name},`,
    paragraphs: [
      `Use the link below to sign in to your Handoff workspace. The link works once and expires ${timeLeft(expiresAt, now)}.`,
      'If you did not ask to sign in, ignore this mail: nothing happens without the link.',
    ],
    action: { label: 'Sign in', url: links.signIn(token) },
  });
}
