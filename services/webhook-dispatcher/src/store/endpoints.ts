import type { EventType, WebhookEndpoint } from '@handoff/contracts';
import type { Store } from '@handoff/store';
import type { A2aPushTarget } from '../domain/a2a-push.ts';

export interface EndpointDoc {
  _id: string;
  integration_id: string;
  url: string;
  event_types: EventType[];
  description: string | null;
  enabled: boolean;
  disabled_reason: WebhookEndpoint['disabled_reason'];
  /** The signing secret, encrypted with WEBHOOK_SECRETS_KEY (see secrets.ts). */
  secret_enc: string;
  previous_secret_enc: string | null;
  previous_secret_expires_at: Date | null;
  /** Start of the current run of failures; null after a success. */
  failing_since: Date | null;
  /**
   * When it was last disabled (absent if never): deliveries made before then were cancelled by
   * it and do not resume when it is enabled again.
   */
  disabled_at?: Date;
  /**
   * Present on an endpoint that an A2A push notification config made: it gets only this
   * request's events, each delivered as the A2A update it implies (docs/a2a.md). The client's
   * token and credentials are sealed like the signing secret.
   */
  a2a?: A2aPushTarget & { config_id: string };
  created_at: Date;
  updated_at: Date;
}

/** This resource's collection (`collectionsOf` in collections.ts gathers every resource's). */
export const endpointCollections = (store: Store) => ({
  endpoints: store.db.collection<EndpointDoc>('webhook_endpoints'),
});

export function endpointView(doc: EndpointDoc, now = new Date()): WebhookEndpoint {
  const graceOpen = doc.previous_secret_expires_at !== null && doc.previous_secret_expires_at > now;
  return {
    object: 'webhook_endpoint',
    id: doc._id,
    url: doc.url,
    event_types: doc.event_types,
    description: doc.description,
    enabled: doc.enabled,
    disabled_reason: doc.disabled_reason,
    created_at: doc.created_at.toISOString(),
    updated_at: doc.updated_at.toISOString(),
    previous_secret_expires_at: graceOpen
      ? (doc.previous_secret_expires_at?.toISOString() ?? null)
      : null,
    ...(doc.a2a
      ? {
          a2a: {
            task_id: doc.a2a.request_id,
            context_id: doc.a2a.context_id,
            config_id: doc.a2a.config_id,
          },
        }
      : {}),
  };
}
