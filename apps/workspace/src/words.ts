import { LANGUAGE_TAG_PATTERN } from '@handoff/contracts';
import type {
  Deliverable,
  Dispute,
  InboxRequest,
  Job,
  Message,
  Milestone,
  Offer,
  Payment,
  ProviderMe,
  Proposal,
} from './api.ts';

export const REQUEST_STATUS: Record<InboxRequest['status'], string> = {
  submitted: 'Waiting for a provider',
  routed: 'Waiting for proposals',
  in_progress: 'Work in progress',
  completed: 'Completed',
  cancelled: 'Cancelled',
};

export const RELATION: Record<InboxRequest['relation'], string> = {
  engaged: 'Your job',
  routed: 'Sent to you',
  marketplace: 'Open in the marketplace',
};

/** Where an offer stands, seen by the provider it was offered to. */
export const OFFER_STATUS: Record<Offer['status'], string> = {
  pending: 'Offered to you',
  accepted: 'You accepted this request',
  declined: 'You declined this offer',
  lapsed: 'Offer lapsed: it was not answered in time',
  // Always staff's doing: they routed it by hand, offered it elsewhere or stopped the rules.
  withdrawn: 'Offer withdrawn: Handoff staff route this request by hand',
};

export const AVAILABILITY: Record<ProviderMe['availability'], { label: string; hint: string }> = {
  available: {
    label: 'Available for new requests',
    hint: 'Handoff offers you new requests in your categories, up to your limit.',
  },
  away: {
    label: 'Away',
    hint: 'Handoff offers you no new requests. What you already have stays yours.',
  },
};

const languageNames = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'code' });

/** A language tag in words: "pt-BR" → "Brazilian Portuguese"; the tag itself when unknown. */
export function languageName(tag: string): string {
  try {
    return languageNames.of(tag) ?? tag;
  } catch {
    return tag;
  }
}

/**
 * The languages typed in a box ("en, pt-br"), as BCP 47 tags ("en", "pt-BR"), each once; or the
 * first entry that is not a language tag.
 */
export function languages(text: string): { tags: string[] } | { wrong: string } {
  const tags: string[] = [];
  for (const entry of text.split(/[\s,;]+/).filter(Boolean)) {
    const [lang = '', region, ...rest] = entry.split(/[-_]/);
    const tag = [lang.toLowerCase(), ...(region ? [region.toUpperCase()] : []), ...rest].join('-');
    if (!LANGUAGE_TAG_PATTERN.test(tag)) return { wrong: entry };
    if (!tags.includes(tag)) tags.push(tag);
  }
  return { tags };
}

export const PROPOSAL_STATUS: Record<Proposal['status'], string> = {
  submitted: 'Waiting for the customer',
  accepted: 'Accepted',
  declined: 'Declined',
  withdrawn: 'Withdrawn',
  expired: 'Expired: the customer did not decide in time',
};

export const JOB_STATUS: Record<Job['status'], string> = {
  active: 'In progress',
  completed: 'Completed',
  cancelled: 'Cancelled',
};

export const MILESTONE_STATUS: Record<Milestone['status'], string> = {
  open: 'In progress',
  submitted: 'Waiting for the customer’s review',
  changes_requested: 'Changes requested',
  approved: 'Approved',
  cancelled: 'Cancelled',
};

export const DELIVERABLE_STATUS: Record<Deliverable['status'], string> = {
  submitted: 'Added',
  accepted: 'Accepted',
  revision_requested: 'From before the change request',
  withdrawn: 'Withdrawn',
};

export const DISPUTE_STATUS: Record<Dispute['status'], string> = {
  open: 'Open: waiting for your answer',
  under_review: 'Handoff staff are reviewing it',
  resolved: 'Resolved',
  withdrawn: 'Withdrawn by the customer',
};

export const PAYMENT_STATUS: Record<Payment['status'], string> = {
  pending: 'On its way',
  completed: 'Paid',
  failed: 'Failed',
};

export const OUTCOME: Record<NonNullable<Dispute['resolution']>['outcome'], string> = {
  customer: 'in the customer’s favour',
  provider: 'in your favour',
  split: 'split between you and the customer',
};

/** Who wrote a message, seen from the provider's side. */
export function author(message: Message, customerName: string | null): string {
  switch (message.author_role) {
    case 'provider':
      return message.mine ? 'You' : 'A provider';
    case 'agent':
      return customerName ? `${customerName}’s assistant` : 'The customer’s assistant';
    case 'customer':
      return customerName ?? 'The customer';
    case 'staff':
      return 'Handoff staff';
  }
}

/** An amount in its currency, as people write it: "$1,200.00", "€95.50", "CA$80.00". */
export function money(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).format(amount);
  } catch {
    return `${amount.toFixed(2)} ${currency}`;
  }
}

const plain = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 2 });

/**
 * A budget range, or null when the customer gave none. Requests carry no currency for their
 * budget, so none is made up here.
 */
export function budget(min: number | null, max: number | null): string | null {
  if (min === null && max === null) return null;
  if (min !== null && max !== null) {
    return min === max ? plain.format(min) : `${plain.format(min)} to ${plain.format(max)}`;
  }
  return min !== null ? `from ${plain.format(min)}` : `up to ${plain.format(max ?? 0)}`;
}

/** A category slug in words: "home-services" → "Home services". */
export function category(slug: string | null): string | null {
  if (!slug) return null;
  const words = slug.replace(/[-_]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A request's title: its subject, else the start of the customer's words. */
export function title(request: { subject: string | null; message: string }): string {
  if (request.subject) return request.subject;
  const first = request.message.split('\n')[0] ?? '';
  return first.length > 80 ? `${first.slice(0, 77).trimEnd()}…` : first;
}

/** Whether a link may be followed from the page: http(s) only, never `javascript:` or `data:`. */
export const webLink = (url: string): boolean => /^https?:\/\//i.test(url);
