import type { EventType, WebhookAttempt, WebhookEndpoint } from '@handoff/contracts';
import type { Collection } from 'mongodb';
import type { Store } from '@handoff/store';

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
  created_at: Date;
  updated_at: Date;
}

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'cancelled';

/**
 * The record of one delivery, written after each attempt (the queue, not this record, drives the
 * delivery). Finished ones carry the hour in which they may be deleted.
 */
export interface DeliveryDoc {
  /** `<endpoint id>.<event id>` (plus `.r<n>` for a redelivery). */
  _id: string;
  endpoint_id: string;
  event_id: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: Date | null;
  /** `YYYY-MM-DDTHH` (UTC) once finished; null while attempts remain. */
  expires_bucket: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface AttemptDoc {
  _id: string;
  endpoint_id: string;
  event_id: string;
  event_type: EventType;
  attempt: number;
  attempted_at: Date;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  response_body: string | null;
  next_attempt_at: Date | null;
}

export interface EventDoc {
  _id: string;
  integration_id: string;
  request_id: string;
  type: EventType;
  created_at: Date;
  /** The envelope exactly as published: the delivered body. */
  body: string;
}

export interface Collections {
  endpoints: Collection<EndpointDoc>;
  deliveries: Collection<DeliveryDoc>;
  attempts: Collection<AttemptDoc>;
  events: Collection<EventDoc>;
}

export function collectionsOf(store: Store): Collections {
  return {
    endpoints: store.db.collection<EndpointDoc>('webhook_endpoints'),
    deliveries: store.db.collection<DeliveryDoc>('webhook_deliveries'),
    attempts: store.db.collection<AttemptDoc>('webhook_attempts'),
    events: store.db.collection<EventDoc>('webhook_events'),
  };
}

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
  };
}

export function attemptView(doc: AttemptDoc): WebhookAttempt {
  return {
    object: 'webhook_attempt',
    id: doc._id,
    endpoint_id: doc.endpoint_id,
    event_id: doc.event_id,
    event_type: doc.event_type,
    attempt: doc.attempt,
    attempted_at: doc.attempted_at.toISOString(),
    status_code: doc.status_code,
    duration_ms: doc.duration_ms,
    error: doc.error,
    response_body: doc.response_body,
    next_attempt_at: doc.next_attempt_at?.toISOString() ?? null,
  };
}
