import {
  Provider,
  type ProviderKeySummary,
  type ProviderRequest,
  type ProviderStatus,
} from '@handoff/contracts';
import type { OutboxFields } from '@handoff/runtime';
import type { z } from 'zod';
import { MARKETPLACE_OPEN_STATUSES } from '../domain/providers.ts';
import { keyFields, type StoredKey } from './access.ts';
import type { RequestDoc } from './requests.ts';
import { offerTo } from './routing.ts';
import { routingScore } from '../domain/routing-score.ts';
import { profileOf, type RoutableProvider } from '../domain/routing-rules.ts';

export { profileOf };

/** A provider as stored; its routing profile is what the rules read ({@link RoutableProvider}). */
export interface ProviderDoc extends OutboxFields, RoutableProvider {
  _id: string;
  name: string;
  email: string;
  /**
   * The address as sign-in compares it (trimmed, lower case), indexed; absent on providers stored
   * before the workspace until intake's start adopts them.
   */
  email_key?: string;
  categories: string[];
  status: z.infer<typeof ProviderStatus>;
  /** Bumped by every change of `held`: the compare-and-set of a hold. */
  routing_version?: number;
  created_at: Date;
  updated_at: Date;
}

export interface ProviderKeyDoc extends StoredKey {
  provider_id: string;
}

type KeySummary = z.infer<typeof ProviderKeySummary>;

export function providerKeyView(doc: ProviderKeyDoc): KeySummary {
  return { object: 'provider_key', id: doc._id, provider_id: doc.provider_id, ...keyFields(doc) };
}

export function providerView(doc: ProviderDoc, keys: ProviderKeyDoc[]): Provider {
  const profile = profileOf(doc);
  return {
    object: 'provider',
    id: doc._id,
    name: doc.name,
    email: doc.email,
    categories: doc.categories,
    status: doc.status,
    capacity: profile.capacity,
    languages: profile.languages,
    availability: profile.availability,
    load: profile.held.length,
    routing_score: routingScore(profile.outcomes),
    created_at: doc.created_at.toISOString(),
    updated_at: doc.updated_at.toISOString(),
    keys: keys.map(providerKeyView),
  };
}

const ProviderSnapshot = Provider.omit({ keys: true });

/** A provider as the audit log records it: without its keys, which have entries of their own. */
export function providerSnapshot(doc: ProviderDoc): Record<string, unknown> {
  return ProviderSnapshot.parse(providerView(doc, []));
}

type Relation = ProviderRequest['relation'];

/**
 * Why a provider may see a request, or null when it may not. Engagement outranks routing,
 * routing outranks the marketplace: the strongest reason is the one shown.
 */
export function relationOf(request: RequestDoc, provider: ProviderDoc): Relation | null {
  if (request.engaged_provider_id === provider._id) return 'engaged';
  if (request.routing.provider_ids.includes(provider._id)) return 'routed';
  // Test requests are never listed to real providers (test mode).
  if (
    request.livemode !== false &&
    request.marketplace.review === 'approved' &&
    request.category !== null &&
    provider.categories.includes(request.category) &&
    (MARKETPLACE_OPEN_STATUSES as readonly string[]).includes(request.status)
  ) {
    return 'marketplace';
  }
  return null;
}

/** The database form of `relationOf`, for listing: the same three reasons. */
export function visibleTo(provider: ProviderDoc) {
  return {
    $or: [
      { engaged_provider_id: provider._id },
      { 'routing.provider_ids': provider._id },
      {
        'marketplace.review': 'approved',
        category: { $in: provider.categories },
        livemode: { $ne: false as const },
        status: { $in: [...MARKETPLACE_OPEN_STATUSES] },
      },
    ],
  };
}

/** The request as the provider reads it: the customer's contact only with their permission. */
export function providerRequestView(
  doc: RequestDoc,
  relation: Relation,
  providerId: string,
): ProviderRequest {
  const offer = offerTo(doc, providerId);
  const customer = doc.contact_permission
    ? doc.customer
    : { name: null, email: null, company: null, website: null };
  return {
    object: 'request',
    id: doc._id,
    status: doc.status,
    relation,
    message: doc.message,
    category: doc.category,
    subject: doc.subject,
    contact_permission: doc.contact_permission,
    customer: { ...customer },
    budget_min: doc.budget_min,
    budget_max: doc.budget_max,
    language: doc.language ?? null,
    offer: offer
      ? {
          status: offer.status,
          offered_at: offer.offered_at.toISOString(),
          respond_by: offer.respond_by.toISOString(),
          decided_at: offer.decided_at?.toISOString() ?? null,
        }
      : null,
    created_at: doc.created_at.toISOString(),
    updated_at: doc.updated_at.toISOString(),
  };
}
